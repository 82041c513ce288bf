// Scene tests of [geometry.NAME]: a mesh room read with its transform and materials, the fill box
// from its bounding box, and the errors (no material, unknown surface, receiver outside the room
// or inside an object, a broken mesh) naming the file and the key.
#include <gtest/gtest.h>

#include <string>

#include "sphreverb/config/scene.hpp"

namespace sphreverb {
namespace {

const std::string kPath = std::string(SPHREVERB_SOURCE_DIR) + "/tests/validation/scene.ini";

std::string scene(const std::string& geometry, const std::string& receiver = "0.3 0.3 0.3") {
  return "[fluid]\nspacing = 0.015\n" + geometry +
         "[emitter]\ninput = impulse\ncenter = 0.2 0.2 0.2\nradius = 0.02\n"
         "[receiver.mic]\nposition = " +
         receiver + "\n";
}
const std::string kRoom =
    "[geometry.box]\nmesh = meshes/box_v10.obj\nrole = room\nmaterial = rigid\n"
    "translation = 0.25 0.25 0.25\n";

std::string error_of(const std::string& text) {
  try {
    parse_scene(text, kPath);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneGeometry, RoomMeshSetsTheFillBoxAndMaterials) {
  const Scene s = parse_scene(scene(kRoom), kPath);
  ASSERT_EQ(s.geometries.size(), 1u);
  const GeometrySpec& g = s.geometries[0];
  EXPECT_EQ(g.role, GeometryRole::Room);
  ASSERT_EQ(g.surface_material.size(), 1u);
  EXPECT_EQ(g.surface_material[0], "rigid");
  EXPECT_NEAR(s.fluid.fill_min.x, 0.1, 1e-6);
  EXPECT_NEAR(s.fluid.fill_max.z, 0.355, 1e-6);
  EXPECT_DOUBLE_EQ(s.derived.halo_depth, s.derived.halo_width + 3 * 0.015);
}

TEST(SceneGeometry, ErrorsNameFileKeyAndReceiver) {
  // Rotated 17 degrees about z: (0.1, 0.11) is in the bounding box, outside the room.
  const std::string e0 = error_of(scene(kRoom + "rotation = 0 0 17\n", "0.1 0.11 0.3"));
  EXPECT_NE(e0.find("receiver 'mic' at 0.1 0.11 0.3 m lies outside the room [geometry.box]"),
            std::string::npos)
      << e0;
  std::string no_material = kRoom;
  no_material.replace(no_material.find("material = rigid\n"), 17, "");
  EXPECT_NE(error_of(scene(no_material)).find("has no material"), std::string::npos);
  EXPECT_NE(error_of(scene(kRoom + "material.floor = rigid\n"))
                .find("[geometry.box] material.floor = rigid: "),
            std::string::npos);
  const std::string object =
      "[geometry.block]\nmesh = meshes/box_v10.obj\nrole = object\nmaterial = rigid\n"
      "scale = 0.2\ntranslation = 0.3 0.3 0.3\n";
  EXPECT_NE(error_of(scene(kRoom + object)).find("lies inside the solid [geometry.block]"),
            std::string::npos);
  std::string missing = kRoom;
  missing.replace(missing.find("box_v10.obj"), 11, "nothing.obj");
  const std::string e = error_of(scene(missing));
  EXPECT_NE(e.find("scene.ini:4: [geometry.box] mesh = meshes/nothing.obj"), std::string::npos)
      << e;
}

}  // namespace
}  // namespace sphreverb
