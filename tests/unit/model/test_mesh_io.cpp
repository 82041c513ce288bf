// Tests of mesh reading (mesh_io.hpp): OBJ and STL boxes with named groups, vertices merged
// across groups, units, scale, rotation conventions, translation, and the errors for missing,
// unreadable and empty files.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "mesh_fixtures.hpp"
#include "sphreverb/model/mesh_check.hpp"
#include "sphreverb/model/mesh_io.hpp"
#include "vec_expect.hpp"

namespace sphreverb {
namespace {

using namespace testing_mesh;

using test::expect_vec_near;

std::string load_error(const std::filesystem::path& path, const MeshLoadOptions& o = {}) {
  try {
    load_mesh(path, o);
  } catch (const MeshError& e) {
    return e.what();
  }
  return "";
}

TEST(MeshIo, ObjBoxWithGroupsIsSixSurfacesOnEightSharedVertices) {
  TempDir dir;
  write_obj(dir / "box.obj", box({0, 0, 0}, {1, 1, 1}));
  const Mesh m = load_mesh(dir / "box.obj");
  EXPECT_EQ(m.vertices.size(), 8u);  // merged across the six materials
  EXPECT_EQ(m.triangle_count(), 12u);
  ASSERT_EQ(m.surface_names.size(), 6u);
  const std::vector<std::string> names = {"x-", "x+", "y-", "y+", "z-", "z+"};
  EXPECT_EQ(m.surface_names, names);
  const MeshFacts f = mesh_facts(m);
  EXPECT_NEAR(f.volume, 1.0, 1e-12);
  double area = 0.0;
  for (const SurfaceFacts& s : f.surfaces) {
    EXPECT_EQ(s.triangles, 2u) << s.name;
    EXPECT_NEAR(s.area, 1.0, 1e-12) << s.name;
    area += s.area;
  }
  EXPECT_NEAR(area, 6.0, 1e-12);
  expect_vec_near(f.min, {0, 0, 0}, 0.0);
  expect_vec_near(f.max, {1, 1, 1}, 0.0);
  EXPECT_FALSE(check_mesh(m).has_value());
}

TEST(MeshIo, StlBoxWithOneSolidPerFaceIsSixSurfaces) {
  TempDir dir;
  write_stl(dir / "box.stl", box({0, 0, 0}, {1, 1, 1}));
  const Mesh m = load_mesh(dir / "box.stl");
  EXPECT_EQ(m.vertices.size(), 8u);
  EXPECT_EQ(m.triangle_count(), 12u);
  const std::vector<std::string> names = {"x-", "x+", "y-", "y+", "z-", "z+"};
  EXPECT_EQ(m.surface_names, names);
  EXPECT_NEAR(mesh_facts(m).volume, 1.0, 1e-12);
  EXPECT_FALSE(check_mesh(m).has_value());
}

TEST(MeshIo, UngroupedObjIsOneSurface) {
  TempDir dir;
  Soup s = box({0, 0, 0}, {1, 1, 1});
  std::ofstream out(dir / "plain.obj");
  for (const Vec3& v : s.vertices) out << "v " << v.x << ' ' << v.y << ' ' << v.z << '\n';
  for (const auto& f : s.faces)
    out << "f " << f[0] + 1 << ' ' << f[1] + 1 << ' ' << f[2] + 1 << ' ' << f[3] + 1 << '\n';
  out.close();
  const Mesh m = load_mesh(dir / "plain.obj");
  EXPECT_EQ(m.surface_names.size(), 1u);
  EXPECT_NEAR(mesh_facts(m).volume, 1.0, 1e-12);
}

TEST(MeshIo, ObjGroupNamesNameTheSurfacesWithoutMaterials) {
  TempDir dir;
  const Soup s = box({0, 0, 0}, {1, 1, 1});
  std::ofstream out(dir / "groups.obj");
  for (const Vec3& v : s.vertices) out << "v " << v.x << ' ' << v.y << ' ' << v.z << '\n';
  for (std::size_t f = 0; f < s.faces.size(); ++f) {
    out << "g " << (f < 4 ? "walls" : (f == 4 ? "floor" : "ceiling")) << '\n';
    out << "f " << s.faces[f][0] + 1 << ' ' << s.faces[f][1] + 1 << ' ' << s.faces[f][2] + 1 << ' '
        << s.faces[f][3] + 1 << '\n';
  }
  out.close();
  const Mesh m = load_mesh(dir / "groups.obj");
  const std::vector<std::string> names = {"walls", "floor", "ceiling"};
  EXPECT_EQ(m.surface_names, names);
  const MeshFacts f = mesh_facts(m);
  ASSERT_EQ(f.surfaces.size(), 3u);
  EXPECT_NEAR(f.surfaces[0].area, 4.0, 1e-12);
  EXPECT_EQ(f.surfaces[1].triangles, 2u);
  EXPECT_FALSE(check_mesh(m).has_value());
}

TEST(MeshIo, PlyBoxIsOneSurface) {
  TempDir dir;
  const Soup s = box({0, 0, 0}, {2, 1, 1});
  std::ofstream out(dir / "box.ply");
  out << "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\n"
         "property float z\nelement face 6\nproperty list uchar int vertex_indices\nend_header\n";
  for (const Vec3& v : s.vertices) out << v.x << ' ' << v.y << ' ' << v.z << '\n';
  for (const auto& f : s.faces)
    out << "4 " << f[0] << ' ' << f[1] << ' ' << f[2] << ' ' << f[3] << '\n';
  out.close();
  const Mesh m = load_mesh(dir / "box.ply");
  EXPECT_EQ(m.vertices.size(), 8u);
  EXPECT_EQ(m.triangle_count(), 12u);
  EXPECT_EQ(m.surface_names.size(), 1u);
  EXPECT_NEAR(mesh_facts(m).volume, 2.0, 1e-12);
  EXPECT_FALSE(check_mesh(m).has_value());
}

TEST(MeshIo, GltfMaterialNamesTheSurfaceAndNodeTransformsApply) {
  TempDir dir;
  const Soup s = box({0, 0, 0}, {1, 1, 1});
  std::vector<float> xyz;
  for (const Vec3& v : s.vertices) xyz.insert(xyz.end(), {float(v.x), float(v.y), float(v.z)});
  std::vector<std::uint16_t> index;
  for (const auto& f : s.faces)
    for (std::size_t k : {0, 1, 2, 0, 2, 3}) index.push_back(std::uint16_t(f[k]));
  std::ofstream bin(dir / "box.bin", std::ios::binary);
  bin.write(reinterpret_cast<const char*>(xyz.data()), long(xyz.size() * sizeof(float)));
  bin.write(reinterpret_cast<const char*>(index.data()), long(index.size() * 2));
  bin.close();
  std::ofstream(dir / "box.gltf")
      << R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
  "nodes": [{"mesh": 0, "translation": [0, 0, 5]}],
  "meshes": [{"name": "boxmesh", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
  "materials": [{"name": "plaster"}],
  "buffers": [{"uri": "box.bin", "byteLength": 168}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 96}, {"buffer": 0, "byteOffset": 96, "byteLength": 72}],
  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]},
                {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}]})";
  const Mesh m = load_mesh(dir / "box.gltf");
  EXPECT_EQ(m.surface_names, std::vector<std::string>{"plaster"});
  EXPECT_EQ(m.triangle_count(), 12u);
  const MeshFacts f = mesh_facts(m);
  EXPECT_NEAR(f.volume, 1.0, 1e-12);
  expect_vec_near(f.min, {0, 0, 5}, 0.0);
  EXPECT_FALSE(check_mesh(m).has_value());
}

TEST(MeshIo, LengthUnits) {
  EXPECT_EQ(parse_length_unit("m"), LengthUnit::Metre);
  EXPECT_EQ(parse_length_unit("cm"), LengthUnit::Centimetre);
  EXPECT_EQ(parse_length_unit("mm"), LengthUnit::Millimetre);
  EXPECT_EQ(parse_length_unit("in"), LengthUnit::Inch);
  EXPECT_FALSE(parse_length_unit("ft").has_value());
  EXPECT_FALSE(parse_length_unit("M").has_value());
  EXPECT_EQ(metres_per(LengthUnit::Inch), 0.0254);
}

TEST(MeshIo, UnitsAndScaleMultiplyCoordinates) {
  TempDir dir;
  write_obj(dir / "box.obj", box({0, 0, 0}, {10, 20, 40}));
  MeshLoadOptions o;
  o.unit = LengthUnit::Inch;
  o.scale = 2.0;
  const MeshFacts f = mesh_facts(load_mesh(dir / "box.obj", o));
  expect_vec_near(f.max, {0.508, 1.016, 2.032}, 1e-15);
  EXPECT_NEAR(f.volume, 0.508 * 1.016 * 2.032, 1e-15);
}

TEST(MeshIo, EulerAnglesAreAboutFixedXThenYThenZ) {
  auto r = [](Vec3 deg, Vec3 p) { return Rotation::euler_xyz_degrees(deg).apply(p); };
  expect_vec_near(r({90, 0, 0}, {0, 1, 0}), {0, 0, 1}, 1e-15);
  expect_vec_near(r({0, 90, 0}, {0, 0, 1}), {1, 0, 0}, 1e-15);
  expect_vec_near(r({0, 0, 90}, {1, 0, 0}), {0, 1, 0}, 1e-15);
  // x first, then z: y -> z (about x) -> z (about z); x -> x -> y.
  expect_vec_near(r({90, 0, 90}, {0, 1, 0}), {0, 0, 1}, 1e-15);
  expect_vec_near(r({90, 0, 90}, {1, 0, 0}), {0, 1, 0}, 1e-15);
  // z -> -y (about x) -> x (about z); z first would leave z at z, then x would map it to -y.
  expect_vec_near(r({90, 0, 90}, {0, 0, 1}), {1, 0, 0}, 1e-15);
}

TEST(MeshIo, AxisAngleFollowsTheRightHandRule) {
  const Rotation a = Rotation::axis_angle_degrees({0, 0, 2}, 90);
  expect_vec_near(a.apply({1, 0, 0}), {0, 1, 0}, 1e-15);
  const Rotation b = Rotation::axis_angle_degrees({1, 1, 1}, 120);  // cycles the axes
  expect_vec_near(b.apply({1, 0, 0}), {0, 1, 0}, 1e-15);
  expect_vec_near(b.apply({0, 1, 0}), {0, 0, 1}, 1e-15);
  const Rotation e = Rotation::euler_xyz_degrees({0, 0, 17});
  const Rotation c = Rotation::axis_angle_degrees({0, 0, 1}, 17);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(e.m[i][j], c.m[i][j], 1e-16);
}

TEST(MeshIo, RotationThenTranslation) {
  TempDir dir;
  write_obj(dir / "box.obj", box({1, 0, 0}, {2, 1, 1}));
  MeshLoadOptions o;
  o.rotation = Rotation::euler_xyz_degrees({0, 0, 90});
  o.translation = {10, 0, 0};
  const MeshFacts f = mesh_facts(load_mesh(dir / "box.obj", o));
  // x in [1, 2] -> y in [1, 2]; y in [0, 1] -> x in [-1, 0]; then +10 in x.
  expect_vec_near(f.min, {9, 1, 0}, 1e-15);
  expect_vec_near(f.max, {10, 2, 1}, 1e-15);
}

TEST(MeshIo, MissingFileIsNamed) {
  TempDir dir;
  const std::string e = load_error(dir / "nowhere.obj");
  EXPECT_NE(e.find("nowhere.obj"), std::string::npos) << e;
  EXPECT_NE(e.find("no such file"), std::string::npos) << e;
}

TEST(MeshIo, UnreadableFileIsNamed) {
  TempDir dir;
  std::ofstream(dir / "junk.stl") << "this is not a mesh\n\x01\x02";
  const std::string e = load_error(dir / "junk.stl");
  EXPECT_NE(e.find("junk.stl"), std::string::npos) << e;
  EXPECT_NE(e.find("cannot read"), std::string::npos) << e;
}

TEST(MeshIo, FileWithoutTrianglesIsEmpty) {
  TempDir dir;
  std::ofstream(dir / "points.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\n";
  const std::string e = load_error(dir / "points.obj");
  EXPECT_NE(e.find("points.obj"), std::string::npos) << e;
  EXPECT_TRUE(e.find("no triangle") != std::string::npos ||
              e.find("cannot read") != std::string::npos)
      << e;
}

TEST(MeshIo, NonPositiveScaleIsRefused) {
  TempDir dir;
  write_obj(dir / "box.obj", box({0, 0, 0}, {1, 1, 1}));
  MeshLoadOptions o;
  o.scale = -1.0;
  const std::string e = load_error(dir / "box.obj", o);
  EXPECT_NE(e.find("scale"), std::string::npos) << e;
}

}  // namespace
}  // namespace sphreverb
