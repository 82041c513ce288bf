// Scene tests of a moving mesh object ([geometry.NAME] path, turn, turn_axis, turn_pivot): the keys
// read, the default pivot, a moving mesh left out of the ghost walls; the errors (a moving room
// mesh, turn_axis without a turn, a surface swept through a receiver, too fast) naming the
// section and the key.
#include <gtest/gtest.h>

#include <string>

#include "sphreverb/config/scene.hpp"

namespace sphreverb {
namespace {

const std::string kPath = std::string(SPHREVERB_SOURCE_DIR) + "/tests/validation/scene.ini";

// A 0.6 m box room at 1.5 cm with the V10 box at 0.2 scale (0.06 x 0.048 x 0.042 m) at
// (0.3, 0.3, 0.3), plus `motion` in its section.
std::string scene(const std::string& motion, const std::string& receiver = "0.45 0.45 0.45") {
  return "[fluid]\nspacing = 0.015\n[room]\nmin = 0 0 0\nmax = 0.6 0.6 0.6\n"
         "[geometry.block]\nmesh = meshes/box_v10.obj\nrole = object\nmaterial = rigid\n"
         "scale = 0.2\ntranslation = 0.3 0.3 0.3\n" +
         motion +
         "[emitter]\ninput = impulse\ncenter = 0.1 0.1 0.1\nradius = 0.02\n"
         "[receiver.mic]\nposition = " +
         receiver + "\n";
}

std::string error_of(const std::string& text) {
  try {
    parse_scene(text, kPath);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneMovingMesh, PathAndTurnAreRead) {
  const Scene fixed = parse_scene(scene(""), kPath);
  EXPECT_FALSE(fixed.geometries[0].moves());
  EXPECT_TRUE(fixed.derived.ghost_walls);
  const Scene s = parse_scene(scene("path = 0 0.3 0.3 0.3; 0.01 0.35 0.3 0.3\nturn = 0 0; 0.01 90\n"
                                    "turn_axis = 0 0 2\ninterpolation = smooth\n"),
                              kPath);
  const GeometrySpec& g = s.geometries[0];
  EXPECT_TRUE(g.moves());
  ASSERT_EQ(g.path.size(), 2u);
  ASSERT_EQ(g.turn.size(), 2u);
  EXPECT_NEAR(g.turn[1].angle, 0.5 * M_PI, 1e-12);
  EXPECT_EQ(g.turn_axis, (Vec3{0, 0, 1}));
  EXPECT_NEAR(g.turn_pivot.x, 0.3, 1e-6);  // the bounding box's centre
  EXPECT_EQ(g.interpolation, PathInterpolation::Smooth);
  EXPECT_FALSE(s.derived.ghost_walls) << "a moving mesh is a force wall, not a ghost wall";
}

TEST(SceneMovingMesh, ErrorsNameSectionAndKey) {
  const std::string room =
      "[fluid]\nspacing = 0.015\n[geometry.box]\nmesh = meshes/box_v10.obj\nrole = room\n"
      "material = rigid\ntranslation = 0.25 0.25 0.25\npath = 0 0 0 0; 0.01 0.01 0 0\n"
      "[emitter]\ninput = impulse\ncenter = 0.2 0.2 0.2\nradius = 0.02\n"
      "[receiver.mic]\nposition = 0.3 0.3 0.3\n";
  const std::string e0 = error_of(room);
  EXPECT_NE(e0.find("[geometry.box] path"), std::string::npos) << e0;
  EXPECT_NE(e0.find("room mesh (role = room) cannot move"), std::string::npos) << e0;
  const std::string e1 = error_of(scene("turn_axis = 0 0 1\n"));
  EXPECT_NE(e1.find("[geometry.block] turn_axis"), std::string::npos) << e1;
  // Turning 90 degrees about the z axis through (0.3, 0.34, 0.3): the box's corner sweeps
  // through the receiver at (0.3, 0.3, 0.3) + R(90) (0.03, -0.04, 0) ~ (0.34, 0.37, 0.3).
  const std::string e2 = error_of(scene(
      "turn = 0 0; 0.01 90\nturn_axis = 0 0 1\nturn_pivot = 0.3 0.34 0.3\n", "0.335 0.365 0.3"));
  EXPECT_NE(e2.find("[geometry.block] turn"), std::string::npos) << e2;
  EXPECT_NE(e2.find("[receiver.mic]"), std::string::npos) << e2;
  // 0.3 c: 103 m/s; 5 cm in 0.1 ms is 500 m/s.
  const std::string e3 = error_of(scene("path = 0 0.3 0.3 0.3; 0.0001 0.35 0.3 0.3\n"));
  EXPECT_NE(e3.find("[geometry.block] path"), std::string::npos) << e3;
  EXPECT_NE(e3.find("above the limit"), std::string::npos) << e3;
}

}  // namespace
}  // namespace sphreverb
