// The scene's surfaces: areas, air volume, triangles with material ids, and the diffuse-field
// estimate from the materials, for a box room with a table top and a pillar, and for mesh
// rooms and objects (the L-shaped room of configs/, the V10 box as an object standing on the
// floor).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/io/surface_file.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/model/mesh_check.hpp"
#include "sphreverb/solver/simulation.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {
namespace {

const std::string kScene = R"(
[time]
sample_rate = 44100
duration = 0.01
[fluid]
spacing = 0.02
[room]
min = 0 0 0
max = 0.8 0.6 0.5
material = wall
material_z_min = floor
[material.wall]
absorption = 0.2
[material.floor]
absorption = 0.5
[boundary.table]
shape = rectangle
center = 0.5 0.3 0.25
normal = 0 0 1
size = 0.3 0.2
[boundary.pillar]
shape = cylinder
center = 0.2 0.4 0.25
normal = 0 0 1
radius = 0.05
height = 0.5
material = wall
[emitter]
input = impulse
center = 0.011 0.2 0.2
radius = 0.03
[receiver.a]
position = 0.6 0.2 0.3
)";

double mesh_area(const Mesh& m, std::size_t surface) {
  double a = 0.0;
  for (std::size_t t = 0; t < m.triangle_count(); ++t)
    if (m.surface[t] == surface) a += 0.5 * norm(m.area_vector(t));
  return a;
}

TEST(Surfaces, ListAreasAndVolume) {
  const Scene s = parse_scene(kScene, "surfaces.ini");
  const std::vector<SceneSurface> f = scene_surfaces(s);
  ASSERT_EQ(f.size(), 8u);
  EXPECT_EQ(f[0].name, "room.x_min");
  EXPECT_NEAR(f[0].area, 0.6 * 0.5, 1e-12);
  EXPECT_NEAR(f[4].area, 0.8 * 0.6, 1e-12);
  EXPECT_EQ(f[4].material, "floor");
  EXPECT_EQ(f[5].material, "wall");
  EXPECT_EQ(f[6].name, "boundary.table");
  EXPECT_EQ(f[6].material, "rigid");
  EXPECT_NEAR(f[6].area, 0.06, 1e-12);
  EXPECT_EQ(f[6].sides, 2);
  EXPECT_NEAR(f[7].area, 2.0 * std::numbers::pi * 0.05 * 0.5, 1e-12);
  EXPECT_EQ(f[7].sides, 1);
  EXPECT_NEAR(air_volume(s), 0.8 * 0.6 * 0.5 - std::numbers::pi * 0.05 * 0.05 * 0.5, 1e-12);
}

TEST(Surfaces, TrianglesCarryTheMaterialIds) {
  const Scene s = parse_scene(kScene, "surfaces.ini");
  const Mesh m = scene_surface_mesh(s);
  // 6 faces x 2 + table 2 + pillar 2 x 48.
  EXPECT_EQ(m.triangle_count(), 12u + 2u + 96u);
  ASSERT_EQ(m.surface_names, (std::vector<std::string>{"wall", "floor", "rigid"}));
  const double walls = 2 * 0.3 + 2 * 0.4 + 0.48;  // x, y faces and the ceiling
  const double pillar = 2.0 * std::numbers::pi * 0.05 * 0.5;
  EXPECT_NEAR(mesh_area(m, 0), walls + pillar, 0.003 * pillar);  // a 48-gon's side is 0.3 % less
  EXPECT_NEAR(mesh_area(m, 1), 0.48, 1e-12);
  EXPECT_NEAR(mesh_area(m, 2), 0.06, 1e-12);
  // Room faces wind with their normals into the room; the pillar's outwards.
  for (std::size_t t = 0; t < m.triangle_count(); ++t) {
    const Vec3 c = (m.corner(t, 0) + m.corner(t, 1) + m.corner(t, 2)) * (1.0 / 3.0);
    const Vec3 n = m.area_vector(t);
    if (t < 12) {
      EXPECT_GT(dot(n, Vec3{0.4, 0.3, 0.25} - c), 0.0) << t;
    }
    if (t >= 14) {
      EXPECT_GT(dot(n, c - Vec3{0.2, 0.4, c.z}), 0.0) << t;
    }
  }
}

TEST(Surfaces, ReverberationFromTheMaterials) {
  const Scene s = parse_scene(kScene, "surfaces.ini");
  bool known = false;
  const Reverberation r = scene_reverberation(s, known);
  ASSERT_TRUE(known);
  std::array<double, 6> wall{}, floor{};
  ASSERT_TRUE(material_random_absorption(s, "wall", wall));
  ASSERT_TRUE(material_random_absorption(s, "floor", floor));
  // Broadband alpha_n = 0.2 and 0.5: the wall model gives them back closely at every band, and
  // Paris turns them into about 0.33 and 0.72 at random incidence (hard branch).
  for (int b = 0; b < 6; ++b) {
    EXPECT_NEAR(wall[b], random_incidence_absorption(0.2), 0.03) << b;
    EXPECT_NEAR(floor[b], random_incidence_absorption(0.5), 0.03) << b;
  }
  const double walls = 2 * 0.3 + 2 * 0.4 + 0.48 + 2.0 * std::numbers::pi * 0.05 * 0.5;
  const double area = walls + 0.48 + 2 * 0.06;
  EXPECT_NEAR(r.area, area, 1e-12);
  const double a = (walls * wall[3] + 0.48 * floor[3]) / area;
  EXPECT_NEAR(r.mean_alpha[3], a, 1e-12);
  EXPECT_NEAR(r.sabine[3], 24.0 * std::log(10.0) * air_volume(s) / (343.0 * area * a), 1e-12);
}

TEST(Surfaces, XdmfNamesTrianglesAndMaterials) {
  const Scene s = parse_scene(kScene, "surfaces.ini");
  const std::string x = io::surface_xdmf("geometry.h5", scene_surface_mesh(s));
  EXPECT_NE(x.find("TopologyType=\"Triangle\" NumberOfElements=\"110\""), std::string::npos);
  EXPECT_NE(x.find("Dimensions=\"110 3\""), std::string::npos);
  EXPECT_NE(x.find("Center=\"Cell\""), std::string::npos);
  EXPECT_NE(x.find("0=wall 1=floor 2=rigid"), std::string::npos);
}

// The L-shaped room of configs/meshes/l_room.obj (1.4 x 1.1 x 0.9 m less a 0.6 x 0.55 m corner;
// floor, walls, ceiling) and, standing on its floor, the V10 box (0.3 x 0.24 x 0.21 m, centred on
// the origin) at half size: 0.15 x 0.12 x 0.105 m, its foot on z = 0.
const std::string kMeshPath = std::string(SPHREVERB_SOURCE_DIR) + "/configs/scene.ini";
std::string mesh_scene(const std::string& object) {
  return R"(
[time]
sample_rate = 44100
duration = 0.01
[fluid]
spacing = 0.025
[material.carpet]
absorption = 0.1
[material.foam]
absorption = 0.4
[geometry.hall]
mesh = meshes/l_room.obj
role = room
material = rigid
material.floor = carpet
material.ceiling = foam
[emitter]
input = impulse
center = 1.0 0.3 0.45
radius = 0.03
[receiver.a]
position = 0.3 0.8 0.45
)" + object;
}
const std::string kBlock = R"(
[geometry.block]
mesh = ../tests/validation/meshes/box_v10.obj
role = object
material = foam
scale = 0.5
translation = 0.4 0.3 0.0525
)";
constexpr double kFloat = 1e-6;  // meshes are read in single precision

TEST(Surfaces, MeshRoomAndObjectAreasAndVolume) {
  const Scene s = parse_scene(mesh_scene(kBlock), kMeshPath);
  const std::vector<SceneSurface> f = scene_surfaces(s);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].name, "geometry.hall.floor");
  EXPECT_EQ(f[0].material, "carpet");
  EXPECT_EQ(f[1].name, "geometry.hall.ceiling");
  EXPECT_EQ(f[2].name, "geometry.hall.walls");
  EXPECT_EQ(f[2].material, "rigid");
  EXPECT_EQ(f[3].material, "foam");
  const double floor = 1.4 * 1.1 - 0.6 * 0.55, foot = 0.15 * 0.12;
  EXPECT_NEAR(f[0].area, floor - foot, kFloat);  // the block's foot covers the floor
  EXPECT_NEAR(f[1].area, floor, kFloat);
  EXPECT_NEAR(f[2].area, 2.0 * (1.4 + 1.1) * 0.9, kFloat);
  // The block's faces less its foot.
  EXPECT_NEAR(f[3].area, 2.0 * (0.15 * 0.12 + 0.12 * 0.105 + 0.15 * 0.105) - foot, kFloat);
  for (const SceneSurface& x : f) EXPECT_EQ(x.sides, 1);
  EXPECT_NEAR(air_volume(s), floor * 0.9 - 0.15 * 0.12 * 0.105, kFloat);
  const auto per = area_per_material(s);
  ASSERT_EQ(per.size(), 3u);
  EXPECT_EQ(per[1].first, "foam");
  EXPECT_NEAR(per[1].second, f[1].area + f[3].area, 1e-12);
  // Without the object: the room mesh alone.
  const Scene bare = parse_scene(mesh_scene(""), kMeshPath);
  EXPECT_NEAR(scene_surfaces(bare)[0].area, floor, kFloat);
  EXPECT_NEAR(air_volume(bare), floor * 0.9, kFloat);
}

TEST(Surfaces, ObjectOnTheFloorOfARoomBox) {
  // The block in the 0.8 x 0.6 x 0.5 m [room] of kScene, its foot on the floor.
  std::string text = kScene + kBlock;
  text.replace(text.find("material = foam"), 15, "material = floor");
  const std::string up = "mesh = ../tests/validation/";
  text.replace(text.find(up), up.size(), "mesh = ");
  text.replace(text.find("translation = 0.4 0.3 0.0525"), 28, "translation = 0.35 0.2 0.0525");
  const Scene s =
      parse_scene(text, std::string(SPHREVERB_SOURCE_DIR) + "/tests/validation/scene.ini");
  const std::vector<SceneSurface> f = scene_surfaces(s);
  ASSERT_EQ(f.size(), 9u);
  const double foot = 0.15 * 0.12;
  EXPECT_NEAR(f[4].area, 0.8 * 0.6 - foot, kFloat);  // room.z_min
  EXPECT_NEAR(f[5].area, 0.8 * 0.6, 1e-12);          // room.z_max: untouched
  EXPECT_EQ(f[8].name, "geometry.block.defaultobject");
  EXPECT_NEAR(f[8].area, 2.0 * (0.15 * 0.12 + 0.12 * 0.105 + 0.15 * 0.105) - foot, kFloat);
  EXPECT_NEAR(air_volume(s), 0.8 * 0.6 * 0.5 - std::numbers::pi * 0.05 * 0.05 * 0.5 - foot * 0.105,
              kFloat);
}

TEST(Surfaces, MeshTrianglesInTheSceneFrameWindIntoTheAir) {
  const Scene s = parse_scene(mesh_scene(kBlock), kMeshPath);
  const Mesh m = scene_surface_mesh(s);
  ASSERT_EQ(m.triangle_count(), 24u + 12u);
  EXPECT_EQ(m.surface_names, (std::vector<std::string>{"carpet", "foam", "rigid"}));
  // Room triangles first (winding flipped: their normals point into the air, so the room part
  // encloses a negative volume), then the block's (out of its solid, into the air).
  Mesh room, block;
  room.vertices = block.vertices = m.vertices;
  for (std::size_t t = 0; t < m.triangle_count(); ++t) {
    Mesh& part = t < 24 ? room : block;
    part.triangles.push_back(m.triangles[t]);
    part.surface.push_back(m.surface[t]);
  }
  room.surface_names = block.surface_names = m.surface_names;
  const MeshFacts fr = mesh_facts(room), fb = mesh_facts(block);
  EXPECT_NEAR(fr.volume, -(1.4 * 1.1 - 0.6 * 0.55) * 0.9, kFloat);
  EXPECT_NEAR(fb.volume, 0.15 * 0.12 * 0.105, kFloat);
  // The block is where the scene put it (scale 0.5, then translated).
  EXPECT_NEAR(fb.min.x, 0.4 - 0.075, kFloat);
  EXPECT_NEAR(fb.min.z, 0.0, kFloat);
  EXPECT_NEAR(fb.max.z, 0.105, kFloat);
  EXPECT_NEAR(fr.surfaces[0].area, 1.4 * 1.1 - 0.6 * 0.55, kFloat);  // carpet: the floor
  EXPECT_NEAR(fb.surfaces[1].area, 2.0 * (0.15 * 0.12 + 0.12 * 0.105 + 0.15 * 0.105), kFloat);
}

TEST(Surfaces, MeshRoomReverberationAndLattice) {
  const Scene s = parse_scene(mesh_scene(""), kMeshPath);
  bool known = false;
  const Reverberation r = scene_reverberation(s, known);
  ASSERT_TRUE(known);
  std::array<double, 6> carpet{}, foam{};
  ASSERT_TRUE(material_random_absorption(s, "carpet", carpet));
  ASSERT_TRUE(material_random_absorption(s, "foam", foam));
  const double floor = 1.4 * 1.1 - 0.6 * 0.55, walls = 2.0 * (1.4 + 1.1) * 0.9;
  EXPECT_NEAR(r.area, 2.0 * floor + walls, kFloat);
  EXPECT_NEAR(r.mean_alpha[2], floor * (carpet[2] + foam[2]) / r.area, kFloat);
  // Every face a whole number of spacings from the bounding box's corner (single-precision
  // coordinates notwithstanding): the faces sit dx/2 beyond the lattice, and the lattice's air
  // is the room's volume exactly.
  const Decomposition dec = Decomposition::of(s);
  EXPECT_EQ(dec.particles, 56 * 44 * 36 - 24 * 22 * 36);
  EXPECT_NEAR(static_cast<double>(dec.particles) * std::pow(0.025, 3), air_volume(s), kFloat);
  // The same at 1 cm (140 spacings: 1.4f is 8e-6 spacings short of them) ...
  const Lattice fine =
      Lattice::filling({0, 0, 0}, {double(1.4f), double(1.1f), double(0.9f)}, 0.01);
  EXPECT_EQ(fine.n[0], 140);
  EXPECT_EQ(fine.n[1], 110);
  EXPECT_EQ(fine.n[2], 90);
  // ... but a box a hundredth of a spacing short of a whole number is not rounded up.
  EXPECT_EQ(Lattice::filling({0, 0, 0}, {1.3999, 1.1, 0.9}, 0.01).n[0], 139);
}

// The V10 box (0.3 x 0.24 x 0.21 m) as a room mesh of `material`, turned `degrees` about z.
std::string turned_box(const std::string& material, double degrees, double duration = 0.1) {
  return "[time]\nduration = " + std::to_string(duration) +
         "\n[fluid]\nspacing = 0.015\n[geometry.box]\nmesh = "
         "../tests/validation/meshes/box_v10.obj\nrole = room\nmaterial = " +
         material + "\nrotation = 0 0 " + std::to_string(degrees) +
         "\ntranslation = 0.25 0.25 0.25\n[emitter]\ninput = impulse\ncenter = 0.2 0.2 "
         "0.2\nradius = 0.02\n[receiver.mic]\nposition = 0.3 0.3 0.3\n"
         "[material.plaster]\nabsorption_bands = 0.007 0.008 0.010 0.015 0.021 0.026\n"
         "[material.foam]\nabsorption_bands = 0.043 0.149 0.431 0.803 0.934 0.803\n"
         "[material.absorbing]\nabsorption = 0.5\n";
}

TEST(Surfaces, HardWallsObliqueToTheLatticeTurnTheHyperviscosityOnUnlessTheRoomAbsorbsMore) {
  // Turned 17 degrees about z, the box's four side walls are oblique: 2 (0.3 + 0.24) 0.21 m^2.
  const Scene rigid = parse_scene(turned_box("rigid", 17), kMeshPath);
  const ObliqueWalls walls = oblique_hard_walls(rigid);
  EXPECT_NEAR(walls.area, 2.0 * (0.3 + 0.24) * 0.21, kFloat);
  ASSERT_EQ(walls.sections.size(), 1u);
  EXPECT_EQ(walls.sections[0], "[geometry.box]");
  // `auto` (the default) turns the filter on and says so (a note, not a warning).
  EXPECT_TRUE(rigid.fluid.hyperviscosity_auto);
  EXPECT_EQ(hyperviscosity_of(rigid), kAutoHyperviscosity);
  const ObliqueMessage on = oblique_wall_message(rigid);
  EXPECT_FALSE(on.warning);
  EXPECT_NE(on.text.find("[geometry.box]: 0.2268 m^2 of hard surface"), std::string::npos)
      << on.text;
  EXPECT_NE(on.text.find("against the room's 0 m^2"), std::string::npos) << on.text;
  EXPECT_NE(on.text.find("hyperviscosity = auto turns the velocity filter on (0.005)"),
            std::string::npos)
      << on.text;
  // The scene's own 0 leaves it off: a warning naming the remedy.
  const Scene off =
      parse_scene(turned_box("rigid", 17), kMeshPath, {{"fluid.hyperviscosity", "0"}});
  EXPECT_FALSE(off.fluid.hyperviscosity_auto);
  EXPECT_EQ(hyperviscosity_of(off), 0.0);
  const ObliqueMessage w = oblique_wall_message(off);
  EXPECT_TRUE(w.warning);
  EXPECT_NE(w.text.find("`auto` (the default) or 0.005"), std::string::npos) << w.text;
  // A number given is the number, with nothing to say.
  const Scene given =
      parse_scene(turned_box("rigid", 17), kMeshPath, {{"fluid.hyperviscosity", "0.003"}});
  EXPECT_EQ(hyperviscosity_of(given), 0.003);
  EXPECT_TRUE(oblique_wall_message(given).text.empty());
  // Plaster absorbs far less than the walls could gain: on too.
  EXPECT_EQ(hyperviscosity_of(parse_scene(turned_box("plaster", 17), kMeshPath)),
            kAutoHyperviscosity);
  // Not turned; a short record; walls absorbing 0.5; foam, below 0.1 only at 125 Hz (hard
  // there, but the room absorbs more than the gain): off, and nothing to say.
  for (const Scene& s : {parse_scene(turned_box("rigid", 0), kMeshPath),
                         parse_scene(turned_box("rigid", 17, 0.02), kMeshPath),
                         parse_scene(turned_box("absorbing", 17), kMeshPath),
                         parse_scene(turned_box("foam", 17), kMeshPath)}) {
    EXPECT_EQ(hyperviscosity_of(s), 0.0);
    EXPECT_FALSE(oblique_growth(s).grows);
    EXPECT_TRUE(oblique_wall_message(s).text.empty());
  }
  EXPECT_EQ(oblique_hard_walls(parse_scene(turned_box("rigid", 0), kMeshPath)).area, 0.0);
  EXPECT_EQ(oblique_hard_walls(parse_scene(turned_box("absorbing", 17), kMeshPath)).area, 0.0);
  EXPECT_GT(oblique_hard_walls(parse_scene(turned_box("foam", 17), kMeshPath)).area, 0.0);
}

TEST(Surfaces, HyperviscosityKeyTakesAutoOrANumber) {
  EXPECT_THROW(parse_scene(turned_box("rigid", 17), kMeshPath, {{"fluid.hyperviscosity", "on"}}),
               SceneError);
  EXPECT_THROW(parse_scene(turned_box("rigid", 17), kMeshPath, {{"fluid.hyperviscosity", "2"}}),
               SceneError);
  try {
    parse_scene(turned_box("rigid", 17), kMeshPath, {{"fluid.hyperviscosity", "strong"}});
    FAIL() << "no error";
  } catch (const SceneError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("[fluid] hyperviscosity"), std::string::npos) << m;
    EXPECT_NE(m.find("neither `auto` nor a number"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace sphreverb
