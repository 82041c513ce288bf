// A triangle mesh as a plain value: vertices in metres, triangles as vertex-index triples, and a
// surface (a material slot) per triangle. Meshes come from files (mesh_io.hpp), are checked
// (mesh_check.hpp) and queried (mesh_query.hpp); conventions in docs/geometry.md.
//
// Orientation: a closed mesh bounds a region (the air of a room, the solid of an object); its
// triangles wind counter-clockwise seen from outside that region, so the right-hand normal
// (b - a) x (c - a) points out of it and the signed volume is positive.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "sphreverb/core/vec3.hpp"

namespace sphreverb {

// A file as a mesh was read from it: a restart refuses a mesh file changed since its checkpoint.
struct MeshFileStamp {
  std::string path;
  std::uint64_t bytes = 0;
  std::string sha256;  // 64 hexadecimal digits (sha256.hpp)
};

struct Mesh {
  std::filesystem::path source;  // the file it was read from (for messages); may be empty
  std::vector<Vec3> vertices;    // m; each position once (duplicates merged)
  std::vector<std::array<std::size_t, 3>> triangles;  // indices into `vertices`
  std::vector<std::size_t> surface;                   // per triangle: index into `surface_names`
  std::vector<std::string> surface_names;  // from the file's material or group/object names
  // The file and every file the reader opened for it (an OBJ's .mtl, a glTF's buffers), as
  // read; empty for a mesh built in memory.
  std::vector<MeshFileStamp> files;

  std::size_t triangle_count() const { return triangles.size(); }
  // Corner k (0, 1, 2) of triangle t, m.
  const Vec3& corner(std::size_t t, int k) const { return vertices[triangles[t][k]]; }
  // Right-hand normal (b - a) x (c - a) of triangle t: length twice the area (m^2).
  Vec3 area_vector(std::size_t t) const {
    return cross(corner(t, 1) - corner(t, 0), corner(t, 2) - corner(t, 0));
  }
  // The file's name for messages ("mesh" when the mesh was built in memory).
  std::string label() const { return source.empty() ? std::string("mesh") : source.string(); }
};

// A mesh that cannot be read or used. The message names the file first, then the triangle or
// edge with its coordinates (metres) where one is to blame.
class MeshError : public std::runtime_error {
 public:
  MeshError(const std::filesystem::path& file, const std::string& what)
      : std::runtime_error((file.empty() ? std::string("mesh") : file.string()) + ": " + what) {}
};

// "(x y z)" with up to 6 significant digits, for messages.
std::string format_point(const Vec3& p);

}  // namespace sphreverb
