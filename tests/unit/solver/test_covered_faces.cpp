// [boundary] plates lying on [room] faces (covered_faces.hpp): a window and a door on the walls of
// a box replace the face's material where they lie; a plate in the air is counted on both sides,
// as before.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/solver/covered_faces.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {
namespace {

// A 1.0 x 0.8 x 0.6 m box of plaster: a 0.4 x 0.3 m window on y = 0 (W along x), a door of
// 0.3 x 0.5 m on x = 1.0 reaching 0.1 m beyond the floor's edge (it covers 0.3 x 0.4 m of the
// face), a disc of radius 0.1 m on the ceiling and a shelf in the air.
const std::string kScene = R"(
[time]
sample_rate = 44100
duration = 0.01
[fluid]
spacing = 0.02
[room]
min = 0 0 0
max = 1.0 0.8 0.6
material = plaster
[material.plaster]
absorption = 0.05
[material.glass]
absorption = 0.3
[material.wood]
absorption = 0.6
[boundary.window]
shape = rectangle
center = 0.5 0 0.3
normal = 0 1 0
size = 0.4 0.3
material = glass
[boundary.door]
shape = rectangle
center = 1.0 0.4 0.15
normal = -1 0 0
size = 0.3 0.5
material = wood
[boundary.lamp]
shape = disc
center = 0.5 0.4 0.6
normal = 0 0 -1
radius = 0.1
material = glass
[boundary.shelf]
shape = rectangle
center = 0.5 0.6 0.3
normal = 0 0 1
size = 0.2 0.3
material = wood
[emitter]
input = impulse
center = 0.011 0.4 0.3
radius = 0.03
[receiver.a]
position = 0.6 0.2 0.3
)";

TEST(CoveredFaces, PlatesOnFacesReplaceTheFaceUnderThem) {
  const Scene s = parse_scene(kScene, "covered.ini");
  ASSERT_EQ(s.boundaries.size(), 4u);
  const auto window = plate_on_room_face(s, s.boundaries[0]);
  const auto door = plate_on_room_face(s, s.boundaries[1]);
  const auto lamp = plate_on_room_face(s, s.boundaries[2]);
  ASSERT_TRUE(window && door && lamp);
  EXPECT_FALSE(plate_on_room_face(s, s.boundaries[3]));
  EXPECT_EQ(window->face, 2);  // y_min
  EXPECT_EQ(door->face, 1);    // x_max
  EXPECT_EQ(lamp->face, 5);    // z_max
  EXPECT_NEAR(window->area, 0.4 * 0.3, 1e-12);
  // The door's 0.5 m runs along z from -0.1 m: 0.4 m of it on the face; its 0.3 m along y.
  EXPECT_NEAR(door->area, 0.3 * 0.4, 1e-12);
  EXPECT_NEAR(lamp->area, std::numbers::pi * 0.01, 1e-12);

  const std::vector<SceneSurface> all = scene_surfaces(s);
  const std::vector<SceneSurface> seen = exposed_surfaces(s);
  ASSERT_EQ(seen.size(), all.size());
  EXPECT_NEAR(seen[2].area, 1.0 * 0.6 - 0.12, 1e-12);
  EXPECT_NEAR(seen[1].area, 0.8 * 0.6 - 0.12, 1e-12);
  EXPECT_NEAR(seen[5].area, 1.0 * 0.8 - std::numbers::pi * 0.01, 1e-12);
  EXPECT_NEAR(seen[0].area, all[0].area, 1e-15);
  for (int k = 6; k < 9; ++k) EXPECT_EQ(seen[k].sides, 1) << seen[k].name;
  EXPECT_EQ(seen[9].sides, all[9].sides);

  // The total area is the box's plus the shelf's two sides; the absorption counts each material
  // where the air sees it.
  bool known = false;
  const Reverberation r = scene_reverberation(s, known);
  ASSERT_TRUE(known);
  const double box = 2.0 * (1.0 * 0.8 + 0.8 * 0.6 + 1.0 * 0.6);
  const double shelf = 0.2 * 0.3 * all[9].sides;
  EXPECT_NEAR(r.area, box + shelf, 1e-12);
  std::array<double, 6> plaster{}, glass{}, wood{};
  ASSERT_TRUE(material_random_absorption(s, "plaster", plaster));
  ASSERT_TRUE(material_random_absorption(s, "glass", glass));
  ASSERT_TRUE(material_random_absorption(s, "wood", wood));
  const double g = 0.12 + std::numbers::pi * 0.01, w = 0.12;
  for (int b = 0; b < 6; ++b) {
    const double a = (box - g - w) * plaster[b] + g * glass[b] + (w + shelf) * wood[b];
    EXPECT_NEAR(r.mean_alpha[b] * r.area, a, 1e-12) << b;
  }
  // scene_surfaces alone counts the window, door and lamp on top of the faces, both sides.
  double listed = 0.0;
  for (const SceneSurface& f : all) listed += f.area * f.sides;
  EXPECT_GT(listed, r.area + g + w - 1e-9);
  for (const auto& [material, area] : area_per_material(s))
    if (material == "glass") EXPECT_NEAR(area, g, 1e-12);
}

}  // namespace
}  // namespace sphreverb
