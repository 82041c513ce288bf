// Sources, receivers and their paths against every solid: a monopole's or a receiver's path into
// the cut-away corner of an L-shaped room mesh or through a mesh object, a fixed monopole inside a
// mesh object or a ghost-walled cylinder, a monopole on a plate, and a [boundary] plate driven
// onto a receiver or a monopole by its path alone (with or without a rotation) are refused, each
// error naming the section, the key, the time and the solid; the same scenes with the points in
// the air are accepted. The scenes are coarse (5 cm) so each parse takes well under a second.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "sphreverb/config/scene.hpp"

namespace sphreverb {
namespace {

// Beside configs/, so that meshes/*.obj resolve to configs/meshes (the example scenes' meshes).
const std::string kPath = std::string(SPHREVERB_SOURCE_DIR) + "/configs/clearance.ini";

// configs/meshes/l_room.obj: 1.40 x 1.10 x 0.90 m, the corner x > 0.8, y > 0.55 cut away.
const std::string kLRoom = R"([fluid]
spacing = 0.05
[geometry.hall]
mesh = meshes/l_room.obj
role = room
material = rigid
[emitter]
input = impulse
center = 0.025 0.3 0.45
normal = 1 0 0
radius = 0.04
gain = 0
[receiver.near]
position = 0.6 0.3 0.45
)";

// A [room] box with configs/meshes/table.obj (top 0.60 x 0.40 m at z 0.45-0.50 m, spanning x
// 0.65-1.25 and y 0.4-0.8 m) and configs/meshes/pillar.obj (an octagonal prism about x = y =
// 0.35 m, 0.10 m to its corners, floor to ceiling).
const std::string kFurnished = R"([fluid]
spacing = 0.05
[room]
min = 0 0 0
max = 1.5 1.2 0.9
material = rigid
[geometry.table]
mesh = meshes/table.obj
role = object
material = rigid
translation = 0.95 0.6 0
[geometry.pillar]
mesh = meshes/pillar.obj
role = object
material = rigid
translation = 0.35 0.35 0
[emitter]
input = impulse
center = 0.025 0.9 0.45
normal = 1 0 0
radius = 0.04
gain = 0
[receiver.seat]
position = 1.1 0.5 0.7
)";

std::string error_of(const std::string& text) {
  try {
    parse_scene(text, kPath);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "parse_scene did not throw";
  return "";
}

void expect_mentions(const std::string& message, std::initializer_list<std::string> needles) {
  for (const auto& n : needles)
    EXPECT_NE(message.find(n), std::string::npos) << "'" << n << "' not in: " << message;
}

TEST(SceneClearance, PathsIntoTheCutAwayCornerOfAnLRoom) {
  // Both ends in the air, the straight line between them through the corner (0.9, 0.6).
  const std::string monopole =
      "[emitter.talker]\ntype = monopole\nlevel = 0.01\npath = 0 1.3 0.3 0.45; 0.05 0.5 0.9 0.45\n";
  expect_mentions(error_of(kLRoom + monopole),
                  {"[emitter.talker] path", "the segment from keyframe 1",
                   "at t = ", "[geometry.hall]", "l_room.obj"});
  const std::string walker = "[receiver.walker]\npath = 0 1.3 0.3 0.45; 0.05 0.5 0.9 0.45\n";
  expect_mentions(error_of(kLRoom + walker),
                  {"[receiver.walker] path", "the segment from keyframe 1", "[geometry.hall]"});
  // A keyframe in the corner itself: outside the room.
  expect_mentions(
      error_of(kLRoom + "[emitter.talker]\npath = 0 1.2 0.3 0.45; 0.05 1.2 0.9 0.45\n"),
      {"[emitter.talker] path", "keyframe 2", "t = 0.05 s", "leaves the room [geometry.hall]"});
  // Round the corner through the air (via 0.5 0.3): accepted.
  EXPECT_NO_THROW(parse_scene(
      kLRoom + "[emitter.talker]\npath = 0 1.2 0.3 0.45; 0.02 0.5 0.3 0.45; 0.05 0.5 0.9 0.45\n",
      kPath));
  // A fixed monopole in the corner.
  expect_mentions(error_of(kLRoom + "[emitter.talker]\nposition = 1.1 0.8 0.45\n"),
                  {"[emitter.talker] position", "monopole 'talker' at 1.1 0.8 0.45 m",
                   "lies outside the room [geometry.hall]"});
}

TEST(SceneClearance, MonopolesAgainstMeshObjects) {
  // Along y at z = 0.47 through the table top (z 0.45-0.50 m).
  expect_mentions(
      error_of(kFurnished + "[emitter.talker]\npath = 0 0.95 0.2 0.47; 0.05 0.95 1.0 0.47\n"),
      {"[emitter.talker] path", "the segment from keyframe 1", "at t = ", "[geometry.table]"});
  // The same path 10 cm above the top: accepted.
  EXPECT_NO_THROW(parse_scene(
      kFurnished + "[emitter.talker]\npath = 0 0.95 0.2 0.6; 0.05 0.95 1.0 0.6\n", kPath));
  // Fixed inside the pillar, and 1.8 cm from its face (inside dx/2 = 2.5 cm).
  expect_mentions(error_of(kFurnished + "[emitter.talker]\nposition = 0.35 0.35 0.6\n"),
                  {"[emitter.talker] position", "lies inside the solid [geometry.pillar]"});
  // The pillar sliding 4 cm along x round a monopole at its axis (at least 5 cm inside its faces).
  std::string sliding = kFurnished;
  sliding.insert(sliding.find("translation = 0.35 0.35 0\n") + 26,
                 "path = 0 0.35 0.35 0.45; 0.05 0.39 0.35 0.45\n");
  expect_mentions(error_of(sliding + "[emitter.talker]\nposition = 0.35 0.35 0.6\n"),
                  {"[geometry.pillar] path", "keyframe 1", "[emitter.talker]"});
  expect_mentions(error_of(kFurnished + "[emitter.talker]\nposition = 0.46 0.35 0.6\n"),
                  {"[emitter.talker] position", "lies on [geometry.pillar]", "less than dx/2"});
}

TEST(SceneClearance, MonopolesAgainstBoundaryShapes) {
  const std::string column =
      "[boundary.column]\nshape = cylinder\nwall = ghost\ncenter = 1.0 0.3 0.45\nnormal = 0 0 1\n"
      "radius = 0.1\nheight = 0.9\n";
  expect_mentions(error_of(kFurnished + column + "[emitter.talker]\nposition = 1.0 0.3 0.45\n"),
                  {"[emitter.talker] position", "lies inside the solid of [boundary.column]"});
  // A tethered plate (air on both sides) through a fixed monopole.
  const std::string plate =
      "[boundary.plate]\nshape = rectangle\ncenter = 1.0 0.3 0.45\nnormal = 1 0 0\n"
      "size = 0.3 0.3\n";
  expect_mentions(error_of(kFurnished + plate + "[emitter.talker]\nposition = 1.01 0.3 0.45\n"),
                  {"[emitter.talker] position", "lies on [boundary.plate]"});
  EXPECT_NO_THROW(
      parse_scene(kFurnished + plate + "[emitter.talker]\nposition = 1.1 0.3 0.45\n", kPath));
}

// A plate moving along its normal onto a receiver: refused whether it only follows its path or
// also has a rotation (here a null one), by the same check.
TEST(SceneClearance, PlateDrivenOntoAPointByItsPath) {
  const std::string plate =
      "[boundary.plate]\nshape = rectangle\nnormal = 1 0 0\nsize = 0.2 0.2\n"
      "path = 0 0.8 0.5 0.7; 0.05 1.1 0.5 0.7\n";
  expect_mentions(error_of(kFurnished + plate),
                  {"[boundary.plate] path", "the segment from keyframe 1",
                   "at t = ", "[receiver.seat]", "closer than dx/2"});
  expect_mentions(error_of(kFurnished + plate + "axis = 0 0 1\nrotation = 0 0; 0.05 0\n"),
                  {"[boundary.plate] rotation", "the segment from keyframe 1", "[receiver.seat]"});
  // Stopping 10 cm short of it: accepted.
  const std::string short_of =
      "[boundary.plate]\nshape = rectangle\nnormal = 1 0 0\nsize = 0.2 0.2\n"
      "path = 0 0.8 0.5 0.7; 0.05 1.0 0.5 0.7\n";
  EXPECT_NO_THROW(parse_scene(kFurnished + short_of, kPath));
  // ... but a monopole there is met.
  expect_mentions(error_of(kFurnished + short_of + "[emitter.talker]\nposition = 0.9 0.5 0.7\n"),
                  {"[boundary.plate] path", "[emitter.talker]"});
}

}  // namespace
}  // namespace sphreverb
