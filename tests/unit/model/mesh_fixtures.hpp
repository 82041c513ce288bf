// Meshes the mesh tests write themselves: polygon soups (boxes, icospheres) and writers for OBJ
// (with usemtl groups) and ASCII STL (one solid per group), in a per-test temporary directory.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/mesh.hpp"
#include "sphreverb/model/shape_mesh.hpp"

namespace sphreverb::testing_mesh {

struct Soup {
  std::vector<Vec3> vertices;
  std::vector<std::vector<std::size_t>> faces;  // polygons, counter-clockwise seen from outside
  std::vector<std::string> group;               // per face

  void append(const Soup& o) {
    const std::size_t base = vertices.size();
    vertices.insert(vertices.end(), o.vertices.begin(), o.vertices.end());
    for (std::size_t f = 0; f < o.faces.size(); ++f) {
      auto face = o.faces[f];
      for (auto& i : face) i += base;
      faces.push_back(face);
      group.push_back(o.group[f]);
    }
  }
  void flip(std::size_t f) { std::reverse(faces[f].begin(), faces[f].end()); }
  void flip_all() {
    for (std::size_t f = 0; f < faces.size(); ++f) flip(f);
  }
  void remove(std::size_t f) {
    faces.erase(faces.begin() + long(f));
    group.erase(group.begin() + long(f));
  }
};

// The box [lo, hi] as six quads named x-, x+, y-, y+, z-, z+ (outward normals).
inline Soup box(const Vec3& lo, const Vec3& hi) {
  Soup s;
  for (int i = 0; i < 8; ++i)
    s.vertices.push_back({(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z});
  // corner index = x + 2 y + 4 z (bits)
  s.faces = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  s.group = {"x-", "x+", "y-", "y+", "z-", "z+"};
  return s;
}

// A closed box [lo, hi] as a Mesh with outward normals (shape_mesh.hpp's one_surface_box: 12
// triangles), one surface "walls".
inline std::shared_ptr<Mesh> one_surface_box(const Vec3& lo, const Vec3& hi) {
  auto m = std::make_shared<Mesh>(sphreverb::box_mesh(lo, hi));
  m->surface.assign(m->triangles.size(), 0);
  m->surface_names = {"walls"};
  return m;
}

// An icosahedron subdivided `levels` times, vertices on the sphere of radius a about the
// origin, rounded to single precision (what the mesh reader stores) and named "sphere".
inline Soup icosphere(double a, int levels) {
  const double p = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec3> v = {{-1, p, 0},  {1, p, 0},  {-1, -p, 0}, {1, -p, 0}, {0, -1, p},  {0, 1, p},
                         {0, -1, -p}, {0, 1, -p}, {p, 0, -1},  {p, 0, 1},  {-p, 0, -1}, {-p, 0, 1}};
  std::vector<std::array<std::size_t, 3>> f = {
      {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
      {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
      {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (auto& x : v) x = normalized(x);
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> mid;
    auto midpoint = [&](std::size_t i, std::size_t j) {
      const auto key = std::make_pair(std::min(i, j), std::max(i, j));
      const auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back(normalized(v[i] + v[j]));
      return mid[key] = v.size() - 1;
    };
    std::vector<std::array<std::size_t, 3>> next;
    for (const auto& t : f) {
      const std::size_t ab = midpoint(t[0], t[1]), bc = midpoint(t[1], t[2]),
                        ca = midpoint(t[2], t[0]);
      next.push_back({t[0], ab, ca});
      next.push_back({t[1], bc, ab});
      next.push_back({t[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    f = next;
  }
  Soup s;
  for (const auto& x : v)
    s.vertices.push_back({double(float(a * x.x)), double(float(a * x.y)), double(float(a * x.z))});
  for (const auto& t : f) {
    s.faces.push_back({t[0], t[1], t[2]});
    s.group.push_back("sphere");
  }
  return s;
}

// A temporary directory removed with the fixture.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("sphreverb_mesh_" + std::string(info ? info->name() : "t") + "_" +
             std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline std::string number(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

// OBJ: the vertices, then each run of faces of one group after `usemtl GROUP` (no mtllib).
inline void write_obj(const std::filesystem::path& path, const Soup& s) {
  std::ofstream out(path);
  out << "# test mesh\n";
  for (const Vec3& v : s.vertices)
    out << "v " << number(v.x) << ' ' << number(v.y) << ' ' << number(v.z) << '\n';
  std::string current;
  for (std::size_t f = 0; f < s.faces.size(); ++f) {
    if (s.group[f] != current) out << "usemtl " << (current = s.group[f]) << '\n';
    out << 'f';
    for (std::size_t i : s.faces[f]) out << ' ' << i + 1;
    out << '\n';
  }
}

// ASCII STL: one `solid GROUP` per run of faces of one group; polygons split into fans.
inline void write_stl(const std::filesystem::path& path, const Soup& s) {
  std::ofstream out(path);
  std::string current;
  auto point = [&](const Vec3& v) {
    out << "      vertex " << number(v.x) << ' ' << number(v.y) << ' ' << number(v.z) << '\n';
  };
  for (std::size_t f = 0; f < s.faces.size(); ++f) {
    if (s.group[f] != current) {
      if (!current.empty()) out << "endsolid " << current << '\n';
      out << "solid " << (current = s.group[f]) << '\n';
    }
    const auto& face = s.faces[f];
    for (std::size_t k = 1; k + 1 < face.size(); ++k) {
      const Vec3 &a = s.vertices[face[0]], &b = s.vertices[face[k]], &c = s.vertices[face[k + 1]];
      const Vec3 n = normalized(cross(b - a, c - a));
      out << "  facet normal " << number(n.x) << ' ' << number(n.y) << ' ' << number(n.z)
          << "\n    outer loop\n";
      point(a), point(b), point(c);
      out << "    endloop\n  endfacet\n";
    }
  }
  if (!current.empty()) out << "endsolid " << current << '\n';
}

}  // namespace sphreverb::testing_mesh
