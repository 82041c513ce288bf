// T-junctions repaired at load: a closed box whose front wall is split in two at x = 0.5 m (as a
// wall split round a window is) meets the floor and the ceiling along their single long edges;
// check_mesh calls that an open surface, split_t_junctions joins it, and a scene takes the mesh
// with a note saying so.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "mesh_fixtures.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/model/mesh_check.hpp"
#include "sphreverb/model/mesh_io.hpp"
#include "sphreverb/model/mesh_repair.hpp"

namespace sphreverb {
namespace {

using namespace testing_mesh;

// The box [0, 1] x [0, 0.8] x [0, 0.6] with its y = 0 face as two quads split at x = 0.5.
Soup split_box() {
  Soup s = box({0, 0, 0}, {1, 0.8, 0.6});
  s.vertices.push_back({0.5, 0, 0});    // 8
  s.vertices.push_back({0.5, 0, 0.6});  // 9
  for (std::size_t f = 0; f < s.faces.size(); ++f)
    if (s.group[f] == "y-") {
      s.faces[f] = {0, 8, 9, 4};
      s.faces.push_back({8, 1, 5, 9});
      s.group.push_back("y-");
      break;
    }
  return s;
}

TEST(MeshRepair, SplitsTheLongEdgesAtTheirTVertices) {
  TempDir dir;
  write_obj(dir / "room.obj", split_box());
  Mesh m = load_mesh(dir / "room.obj");
  const auto before = check_mesh(m);
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(before->defect, MeshDefect::OpenSurface) << before->message;
  const std::size_t triangles = m.triangle_count();
  EXPECT_EQ(split_t_junctions(m, 1e-6), 2u);  // the floor's and the ceiling's edge y = 0
  EXPECT_EQ(m.triangle_count(), triangles + 2);
  const auto after = check_mesh(m);
  EXPECT_FALSE(after.has_value()) << after->message;
  EXPECT_NEAR(mesh_facts(m).volume, 1.0 * 0.8 * 0.6, 1e-6);
  // A closed mesh is left as it is.
  EXPECT_EQ(split_t_junctions(m, 1e-6), 0u);
  EXPECT_EQ(m.triangle_count(), triangles + 2);
}

TEST(MeshRepair, SceneTakesTheRoomWithANote) {
  TempDir dir;
  write_obj(dir / "room.obj", split_box());
  const std::string scene =
      "[fluid]\nspacing = 0.02\n[geometry.room]\nmesh = room.obj\nrole = room\n"
      "material = rigid\n[emitter]\ninput = impulse\ncenter = 0.01 0.4 0.3\nradius = 0.05\n"
      "[receiver.a]\nposition = 0.5 0.4 0.3\n";
  const Scene s = parse_scene(scene, (dir / "scene.ini").string());
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("[geometry.room] "), std::string::npos) << s.notes[0];
  EXPECT_NE(s.notes[0].find(": 2 T-junction(s) repaired"), std::string::npos) << s.notes[0];
}

}  // namespace
}  // namespace sphreverb
