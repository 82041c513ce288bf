// Reading triangle meshes from files (Assimp: OBJ, STL, PLY, glTF/GLB, OFF, 3DS, DAE, FBX, ...)
// into a Mesh in metres. Conventions (units, rotation, surface names) in docs/geometry.md.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string_view>

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

enum class LengthUnit { Metre, Centimetre, Millimetre, Inch };

// Metres per unit: 1, 0.01, 0.001, 0.0254 (exact).
double metres_per(LengthUnit u);
// "m", "cm", "mm", "in"; nullopt for anything else.
std::optional<LengthUnit> parse_length_unit(std::string_view text);

// A proper rotation as a 3x3 matrix acting on column vectors (right-handed axes, positive
// angles counter-clockwise looking down the axis towards the origin).
struct Rotation {
  std::array<std::array<double, 3>, 3> m{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

  // Extrinsic Euler angles in degrees: first about the fixed x axis, then y, then z,
  // R = Rz(z) Ry(y) Rx(x).
  static Rotation euler_xyz_degrees(const Vec3& angles);
  // Rodrigues' rotation by `degrees` about `axis` (any non-zero length; right-hand rule).
  static Rotation axis_angle_degrees(const Vec3& axis, double degrees);
  Vec3 apply(const Vec3& p) const;
};

// Where the file's coordinates go: p = R (scale * metres_per(unit) * p_file) + translation.
struct MeshLoadOptions {
  LengthUnit unit = LengthUnit::Metre;  // the unit of the file's coordinates
  double scale = 1.0;                   // > 0, dimensionless (a mirror would invert the mesh)
  Rotation rotation;                    // about the file's origin, after scaling
  Vec3 translation;                     // m, added last
};

// Reads every triangle of the file's scene graph (node transforms applied; polygons triangulated;
// points and lines ignored) and merges vertices at equal positions across the whole file, so
// neighbouring triangles share vertices even across materials. Throws MeshError naming the file
// when it is missing, unreadable, holds no triangle, or the options are out of range.
Mesh load_mesh(const std::filesystem::path& path, const MeshLoadOptions& options = {});

// The same transform applied to an in-memory mesh (vertices and nothing else change).
void transform_mesh(Mesh& mesh, const MeshLoadOptions& options);

}  // namespace sphreverb
