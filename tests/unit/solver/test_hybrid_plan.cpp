// The geometric part's plan from a scene (solver/hybrid_assembly.hpp): every sounding source at
// its own position and level, a silent disc left out, room and object meshes traced with their
// materials, one triangulation of the boundary shapes, and what [hybrid] refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/geometric/response.hpp"
#include "sphreverb/geometric/surfaces.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/shape_mesh.hpp"
#include "sphreverb/solver/hybrid_assembly.hpp"

namespace sphreverb {
namespace {

// A 0.6 x 0.4 x 0.3 m box at 5 cm with [hybrid], a silent disc and a monopole.
std::string box_scene(const std::string& extra = "",
                      const std::string& talker_at = "position = 0.45 0.3 0.2") {
  return R"(
[time]
sample_rate = 44100
duration = 0.01
[fluid]
spacing = 0.05
[room]
min = 0 0 0
max = 0.6 0.4 0.3
[emitter]
input = impulse
center = 0.025 0.2 0.15
radius = 0.03
gain = 0
[emitter.talker]
type = monopole
)" + talker_at +
         R"(
level = 0.01
[receiver.a]
position = 0.15 0.1 0.1
[hybrid]
rays = 0
phased_images = false
image_time = 0.005
)" + extra;
}

std::string error_of(const std::string& text,
                     const std::map<std::string, std::string>& overrides = {}) {
  try {
    parse_scene(text, "scene.ini", overrides);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no SceneError";
  return "";
}

TEST(HybridPlan, ASilentDiscAndAMonopoleSoundFromTheMonopole) {
  const Scene s = parse_scene(box_scene(), "box.ini");
  const HybridPlan p = make_hybrid_plan(s);
  ASSERT_EQ(p.sources.size(), 1u);
  EXPECT_EQ(p.sources[0].name, "talker");
  EXPECT_EQ(p.sources[0].position, (Vec3{0.45, 0.3, 0.2}));
  EXPECT_EQ(p.sources[0].highpass, s.sources[0].highpass);
  // The direct sound's delay is the monopole's distance over c, in the images and in the
  // synthesised response (taps at round(delay rate)).
  const double d = norm(Vec3{0.45, 0.3, 0.2} - Vec3{0.15, 0.1, 0.1});
  const std::vector<ImageSource> im = box_image_sources(p.images.at(0));
  ASSERT_FALSE(im.empty());
  EXPECT_EQ(im[0].order, 0);
  EXPECT_NEAR(im[0].delay, d / s.fluid.sound_speed, 1e-12);
  const GeometricResponse g = geometric_response(p, EnergyHistogram(), 0, false, 1);
  // The direct sound is the response's largest sample.
  const std::vector<double>& x = g.channels[0];
  std::size_t peak = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::abs(x[i]) > std::abs(x[peak])) peak = i;
  EXPECT_EQ(peak,
            static_cast<std::size_t>(std::llround(d / s.fluid.sound_speed * s.time.sample_rate)));
}

// Without a disc at all ([emitter] is optional beside monopoles) the monopole is the one source.
TEST(HybridPlan, NoDiscAndAMonopoleSoundFromTheMonopole) {
  std::string text = box_scene();
  const auto a = text.find("[emitter]\n"), b = text.find("[emitter.talker]");
  ASSERT_NE(a, std::string::npos);
  text.erase(a, b - a);
  const Scene s = parse_scene(text, "box.ini");
  EXPECT_FALSE(s.emitter.present);
  const HybridPlan p = make_hybrid_plan(s);
  ASSERT_EQ(p.sources.size(), 1u);
  EXPECT_EQ(p.sources[0].name, "talker");
  EXPECT_EQ(p.sources[0].position, (Vec3{0.45, 0.3, 0.2}));
}

TEST(HybridPlan, EverySourceAddsWithItsOwnLevel) {
  // The disc sounds too; a second monopole at 4 times the level: three sources, the monopoles'
  // weights in the ratio of their levels, and the response the weighted sum of the sources'.
  const Scene s = parse_scene(box_scene(R"(
[emitter.loud]
type = monopole
position = 0.3 0.2 0.1
level = 0.04
)"),
                              "box.ini", {{"emitter.gain", "1"}});
  const HybridPlan p = make_hybrid_plan(s);
  ASSERT_EQ(p.sources.size(), 3u);
  EXPECT_EQ(p.sources[0].name, "emitter");
  EXPECT_EQ(p.sources[0].weight, 1.0);
  EXPECT_NEAR(p.sources[2].weight / p.sources[1].weight, 4.0, 1e-12);
  EXPECT_NE(p.sources[1].seed, p.sources[2].seed);
  ASSERT_EQ(p.images.size(), 3u);  // per source and receiver
  EXPECT_EQ(p.images[2].source, (Vec3{0.3, 0.2, 0.1}));
  // The disc on a wall as a free point source: rho0 R^2 k fs^2 / 4 against a monopole's level.
  const double disc =
      s.fluid.rest_density * 0.03 * 0.03 * s.emitter.deflection * 44100.0 * 44100.0 / 4.0;
  EXPECT_NEAR(p.sources[1].weight, 0.01 / disc, 1e-12 * 0.01 / disc);
  const GeometricResponse all = geometric_response(p, EnergyHistogram(), 0, false, 1);
  HybridPlan one = p;
  double peak = 0.0, diff = 0.0;
  std::vector<double> sum(all.channels[0].size(), 0.0);
  for (std::size_t k = 0; k < p.sources.size(); ++k) {
    one.sources = {p.sources[k]};
    one.images = {p.images[k]};
    const GeometricResponse g = geometric_response(one, EnergyHistogram(), 0, false, 1);
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += p.sources[k].weight * g.channels[0][i];
  }
  for (std::size_t i = 0; i < sum.size(); ++i) {
    peak = std::max(peak, std::abs(sum[i]));
    diff = std::max(diff, std::abs(sum[i] - all.channels[0][i]));
  }
  EXPECT_GT(peak, 0.0);
  EXPECT_LE(diff, 1e-12 * peak);
}

TEST(HybridPlan, NothingSoundingIsSilent) {
  const Scene s = parse_scene(box_scene(), "box.ini", {{"emitter.talker.gain", "0"}});
  const HybridPlan p = make_hybrid_plan(s);
  EXPECT_TRUE(p.sources.empty());
  EXPECT_EQ(p.rays.rays, 0u);
  const GeometricResponse g = geometric_response(p, EnergyHistogram(), 0, true, 3);
  ASSERT_EQ(g.channels.size(), 4u);
  ASSERT_EQ(g.more.size(), 2u);
  for (double v : g.channels[0]) EXPECT_EQ(v, 0.0);
}

TEST(HybridPlan, AMeshRoomAndItsMaterialsAreTraced) {
  const std::string path = std::string(SPHREVERB_SOURCE_DIR) + "/configs/l_room.ini";
  const Scene s = load_scene(path, {{"hybrid.rays", "1000"}, {"time.duration", "0.01"}});
  ASSERT_TRUE(s.hybrid.present);
  const HybridPlan p = make_hybrid_plan(s);
  const Mesh& room = *s.geometries.at(0).mesh;
  ASSERT_EQ(p.surfaces.triangle_count(), room.triangle_count());
  for (std::size_t t = 0; t < room.triangle_count(); ++t) {
    const std::string& want = s.geometries[0].surface_material.at(room.surface[t]);
    EXPECT_EQ(s.materials.at(p.surfaces.surface[t]).name, want) << t;
  }
  EXPECT_FALSE(p.box_images);
  ASSERT_EQ(p.sources.size(), 1u);
  EXPECT_EQ(p.sources[0].name, "talker");
  EXPECT_GT(p.rays.rays, 0u);
  // The volume is the mesh's: 1.4 x 1.1 x 0.9 less the 0.6 x 0.55 x 0.9 corner.
  EXPECT_NEAR(hybrid_volume(s), 1.4 * 1.1 * 0.9 - 0.6 * 0.55 * 0.9, 1e-6);
}

TEST(HybridPlan, BoundaryShapesHaveTheSurfaceFilesTriangulation) {
  const Scene s = parse_scene(box_scene(R"(
[boundary.post]
shape = cylinder
center = 0.3 0.2 0.15
normal = 0 0 1
radius = 0.03
height = 0.2
)"),
                              "box.ini");
  const HybridPlan p = make_hybrid_plan(s);
  Mesh want;
  append_triangles(
      WallShape::from(Shape{ShapeKind::Cylinder, {0.3, 0.2, 0.15}, {0, 0, 1}, 0.0, 0.2, 0.03}), 0,
      want);
  ASSERT_EQ(p.surfaces.triangle_count(), 12 + want.triangle_count());
  EXPECT_EQ(want.triangle_count(), 2u * kCircleSegments);
  for (std::size_t t = 0; t < want.triangle_count(); ++t)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(p.surfaces.corner(12 + t, c), want.corner(t, c));
}

TEST(HybridPlan, RefusesWhatItCannotModel) {
  const std::string moving = error_of(box_scene("", "path = 0 0.45 0.3 0.2; 0.01 0.4 0.3 0.2"));
  EXPECT_NE(moving.find("[emitter.talker] path"), std::string::npos) << moving;
  EXPECT_NE(moving.find("fixed scene"), std::string::npos) << moving;
  const std::string walking =
      error_of(box_scene(), {{"receiver.a.path", "0 0.15 0.1 0.1; 0.01 0.2 0.1 0.1"}});
  EXPECT_NE(walking.find("[receiver.a] path"), std::string::npos) << walking;
  const std::string sweep = error_of(box_scene(), {{"emitter.talker.input", "sweep"}});
  EXPECT_NE(sweep.find("[emitter.talker] input"), std::string::npos) << sweep;
  EXPECT_NE(sweep.find("must be impulse"), std::string::npos) << sweep;
  const std::string plate = error_of(box_scene(R"(
[boundary.plate]
shape = rectangle
center = 0.3 0.2 0.15
normal = 1 0 0
size = 0.1 0.1
path = 0 0.3 0.2 0.15; 0.01 0.32 0.2 0.15
)"));
  EXPECT_NE(plate.find("[boundary.plate] path"), std::string::npos) << plate;
}

}  // namespace
}  // namespace sphreverb
