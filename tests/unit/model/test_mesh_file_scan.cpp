// Tests of the checks load_mesh makes on a mesh file's bytes (mesh_file_scan.hpp) and after
// reading: a coordinate that is not a finite number is named with its file, vertex and line in
// every reader (OBJ, ascii and binary STL and PLY, OFF, glTF); element counts beyond what the
// file's size can hold are refused at once, before anything is allocated; and the files a mesh
// was read from are stamped (size, SHA-256).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "mesh_fixtures.hpp"
#include "sphreverb/core/sha256.hpp"
#include "sphreverb/model/mesh_io.hpp"

namespace sphreverb {
namespace {

using namespace testing_mesh;

// The error load_mesh throws (empty if none), and how long it took.
std::string load_error(const std::filesystem::path& path, double* seconds = nullptr) {
  const auto start = std::chrono::steady_clock::now();
  std::string e;
  try {
    load_mesh(path);
  } catch (const MeshError& err) {
    e = err.what();
  }
  if (seconds)
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return e;
}

void expect_has(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& p : parts)
    EXPECT_NE(text.find(p), std::string::npos) << p << " in: " << text;
}

std::string box_obj_with(const std::string& second_vertex) {
  return "# box\nv 0 0 0\n" + second_vertex +
         "\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
         "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
}

TEST(MeshFileScan, ObjNanIsNamedWithVertexAndLine) {
  TempDir dir;
  std::ofstream(dir / "nan.obj") << box_obj_with("v 1 nan 0");
  expect_has(load_error(dir / "nan.obj"),
             {"nan.obj", "vertex 2 (line 3)", "coordinate y = nan", "not a number"});
}

TEST(MeshFileScan, ObjInfinityAndSinglePrecisionOverflowAreNamed) {
  TempDir dir;
  std::ofstream(dir / "inf.obj") << box_obj_with("v -inf 0 0");
  expect_has(load_error(dir / "inf.obj"), {"inf.obj", "vertex 2 (line 3)", "x = -inf", "infinite"});
  std::ofstream(dir / "big.obj") << box_obj_with("v 1 0 1e39");
  expect_has(load_error(dir / "big.obj"), {"vertex 2 (line 3)", "z = 1e39", "single precision"});
}

TEST(MeshFileScan, AsciiStlNanIsNamed) {
  TempDir dir;
  write_stl(dir / "box.stl", box({0, 0, 0}, {1, 1, 1}));
  std::ifstream in(dir / "box.stl");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  // The fifth "vertex" line (vertex 4: corner 1 of facet 1).
  std::size_t at = 0;
  for (int k = 0; k < 5; ++k) at = s.find("vertex ", at + 1);
  const std::size_t end = s.find('\n', at);
  s.replace(at, end - at, "vertex 0 NaN 1");
  std::size_t line = 1;
  for (std::size_t i = 0; i < at; ++i) line += s[i] == '\n';
  std::ofstream(dir / "nan.stl") << s;
  expect_has(
      load_error(dir / "nan.stl"),
      {"nan.stl", "vertex 4 (corner 1 of facet 1) (line " + std::to_string(line) + ")", "y = NaN"});
}

void write_binary_stl(const std::filesystem::path& path, std::uint32_t claimed,
                      const std::vector<float>& corners /* 9 per triangle */) {
  std::ofstream out(path, std::ios::binary);
  const std::string header(80, ' ');
  out.write(header.data(), 80);
  out.write(reinterpret_cast<const char*>(&claimed), 4);
  for (std::size_t t = 0; t < corners.size() / 9; ++t) {
    const float normal[3] = {0, 0, 1};
    out.write(reinterpret_cast<const char*>(normal), 12);
    out.write(reinterpret_cast<const char*>(&corners[9 * t]), 36);
    const std::uint16_t attr = 0;
    out.write(reinterpret_cast<const char*>(&attr), 2);
  }
}

TEST(MeshFileScan, BinaryStlNanIsNamedByTriangleAndCorner) {
  TempDir dir;
  std::vector<float> c = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1};
  c[3 * 5 + 2] = std::numeric_limits<float>::quiet_NaN();  // triangle 1, corner 2, z
  write_binary_stl(dir / "nan.stl", 2, c);
  expect_has(load_error(dir / "nan.stl"),
             {"nan.stl", "vertex 5 (corner 2 of triangle 1)", "coordinate z", "not a number"});
}

TEST(MeshFileScan, BinaryStlCountBeyondTheFileIsRefusedAtOnce) {
  TempDir dir;
  write_binary_stl(dir / "huge.stl", 2000000000u, {0, 0, 0, 1, 0, 0, 0, 1, 0});
  double seconds = 0;
  const std::string e = load_error(dir / "huge.stl", &seconds);
  expect_has(e, {"huge.stl", "claims 2000000000 triangles", "100000000084 bytes",
                 "the file has 134 bytes"});
  EXPECT_LT(seconds, 1.0);
}

std::string ply_header(const std::string& format, const std::string& vertices,
                       const std::string& faces = "0") {
  return "ply\nformat " + format + " 1.0\ncomment test\nelement vertex " + vertices +
         "\nproperty float x\nproperty float y\nproperty float z\nelement face " + faces +
         "\nproperty list uchar int vertex_indices\nend_header\n";
}

TEST(MeshFileScan, AsciiPlyNanIsNamedWithVertexAndLine) {
  TempDir dir;
  std::ofstream(dir / "nan.ply") << ply_header("ascii", "4", "1") << "0 0 0\n1 0 0\n0 1 nan\n"
                                 << "0 0 1\n3 0 1 2\n";
  // Header: 10 lines; vertex 2 on line 13.
  expect_has(load_error(dir / "nan.ply"), {"nan.ply", "vertex 2 (line 13)", "z = nan"});
}

TEST(MeshFileScan, BinaryPlyInfIsNamed) {
  TempDir dir;
  std::ofstream out(dir / "inf.ply", std::ios::binary);
  out << ply_header("binary_little_endian", "3", "1");
  float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  v[4] = std::numeric_limits<float>::infinity();  // vertex 1, y
  out.write(reinterpret_cast<const char*>(v), sizeof v);
  const unsigned char n = 3;
  const std::int32_t f[3] = {0, 1, 2};
  out.write(reinterpret_cast<const char*>(&n), 1);
  out.write(reinterpret_cast<const char*>(f), sizeof f);
  out.close();
  expect_has(load_error(dir / "inf.ply"),
             {"inf.ply", "vertex 1", "coordinate y = inf", "infinite"});
}

TEST(MeshFileScan, PlyCountsBeyondTheFileAreRefusedAtOnce) {
  TempDir dir;
  for (const std::string count : {"200000000", "2000000000", "18446744073709551615"}) {
    std::ofstream(dir / "a.ply") << ply_header("ascii", count) << "0 0 0\n";
    double seconds = 0;
    std::string e = load_error(dir / "a.ply", &seconds);
    expect_has(e, {"a.ply", "claims " + count + " 'vertex' elements", "bytes follow the header"});
    EXPECT_LT(seconds, 1.0) << count;
    std::ofstream(dir / "b.ply", std::ios::binary)
        << ply_header("binary_little_endian", "3", count) << std::string(36, '\0');
    e = load_error(dir / "b.ply", &seconds);
    expect_has(e, {"b.ply", "claims " + count + " 'face' elements", "least sizes"});
    EXPECT_LT(seconds, 1.0) << count;
  }
  std::ofstream(dir / "c.ply") << ply_header("ascii", "99999999999999999999") << "0 0 0\n";
  expect_has(load_error(dir / "c.ply"), {"c.ply", "not a whole number below 2^64"});
}

TEST(MeshFileScan, PlyListLengthsBeyondTheFileAreRefusedAtOnce) {
  TempDir dir;
  std::ofstream(dir / "a.ply") << ply_header("ascii", "3", "1") << "0 0 0\n1 0 0\n0 1 0\n"
                               << "3000000000 0 1 2\n";
  double seconds = 0;
  expect_has(load_error(dir / "a.ply", &seconds),
             {"a.ply",
              "'face' element 0 (line 14): its list 'vertex_indices' claims 3000000000 "
              "items"});
  EXPECT_LT(seconds, 1.0);
  std::ofstream out(dir / "b.ply", std::ios::binary);
  out << "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
         "property float y\nproperty float z\nelement face 1\n"
         "property list uint int vertex_indices\nend_header\n";
  const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  out.write(reinterpret_cast<const char*>(v), sizeof v);
  const std::uint32_t n = 4000000000u;
  const std::int32_t f[3] = {0, 1, 2};
  out.write(reinterpret_cast<const char*>(&n), 4);
  out.write(reinterpret_cast<const char*>(f), sizeof f);
  out.close();
  expect_has(load_error(dir / "b.ply", &seconds),
             {"b.ply", "'face' element 0: its list 'vertex_indices' claims 4000000000 items",
              "12 bytes left"});
  EXPECT_LT(seconds, 1.0);
}

TEST(MeshFileScan, OffCountsAndNanAreChecked) {
  TempDir dir;
  std::ofstream(dir / "huge.off") << "OFF\n2000000000 1 0\n0 0 0\n";
  expect_has(load_error(dir / "huge.off"), {"huge.off", "claims 2000000000 vertices"});
  std::ofstream(dir / "nan.off") << "OFF\n# a comment\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 nan\n"
                                 << "3 0 2 1\n3 0 1 3\n3 1 2 3\n3 2 0 3\n";
  expect_has(load_error(dir / "nan.off"), {"nan.off", "vertex 3 (line 7)", "z = nan"});
}

// A glTF box with its buffer; `nan_at` >= 0 puts a NaN into that float of the positions.
void write_gltf_box(const TempDir& dir, int nan_at) {
  const Soup s = box({0, 0, 0}, {1, 1, 1});
  std::vector<float> xyz;
  for (const Vec3& v : s.vertices) xyz.insert(xyz.end(), {float(v.x), float(v.y), float(v.z)});
  if (nan_at >= 0) xyz[static_cast<std::size_t>(nan_at)] = std::numeric_limits<float>::quiet_NaN();
  std::vector<std::uint16_t> index;
  for (const auto& f : s.faces)
    for (std::size_t k : {0, 1, 2, 0, 2, 3}) index.push_back(std::uint16_t(f[k]));
  std::ofstream bin(dir / "box.bin", std::ios::binary);
  bin.write(reinterpret_cast<const char*>(xyz.data()), long(xyz.size() * sizeof(float)));
  bin.write(reinterpret_cast<const char*>(index.data()), long(index.size() * 2));
  bin.close();
  std::ofstream(dir / "box.gltf")
      << R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
  "nodes": [{"mesh": 0}],
  "meshes": [{"name": "boxmesh", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
  "materials": [{"name": "plaster"}],
  "buffers": [{"uri": "box.bin", "byteLength": 168}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 96}, {"buffer": 0, "byteOffset": 96, "byteLength": 72}],
  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]},
                {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}]})";
}

TEST(MeshFileScan, GltfNanIsNamedAfterReading) {
  TempDir dir;
  write_gltf_box(dir, 3 * 6 + 1);  // vertex 6, y
  expect_has(load_error(dir / "box.gltf"),
             {"box.gltf", "of part 'plaster'", "not a finite number"});
}

TEST(MeshFileScan, TheFileAndTheFilesItRefersToAreStamped) {
  TempDir dir;
  write_gltf_box(dir, -1);
  const Mesh m = load_mesh(dir / "box.gltf");
  ASSERT_EQ(m.files.size(), 2u);
  EXPECT_EQ(m.files[0].path, (dir / "box.gltf").string());
  EXPECT_NE(m.files[1].path.find("box.bin"), std::string::npos) << m.files[1].path;
  std::ifstream in(dir / "box.bin", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  EXPECT_EQ(m.files[1].bytes, 168u);
  EXPECT_EQ(m.files[1].sha256, sha256_hex(bytes.str()));
}

}  // namespace
}  // namespace sphreverb
