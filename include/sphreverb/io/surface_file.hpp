// The scene's surfaces for ParaView, written once per run: DIR/geometry.h5 (the triangles, their
// vertices and a material id per triangle) and DIR/geometry.xmf (an XDMF Triangle grid over it,
// the id as the cell attribute "material"). ParaView opens geometry.xmf beside
// checkpoints/checkpoints.xmf; a grid without time stays shown at every step of the time series.
//
// Layout of geometry.h5 (every dataset carries `units` and `description`):
//   /surfaces/vertices        float64 [V, 3]  m
//   /surfaces/triangles       int64   [T, 3]  vertex indices (0-based), right-hand normal into
//                                             the air (a plate's along its normal)
//   /surfaces/material        int32   [T]     index into /surfaces/material_names
//   /surfaces/material_names  string          the material names, one per line, in id order
// Input is any triangle list (mesh.hpp): the surface index of each triangle is its material id
// and surface_names the material names. The run writes scene_surface_mesh (surfaces.hpp): the
// [room] faces, the [boundary.NAME] shapes and every [geometry.NAME] mesh in the scene's frame.
#pragma once

#include <string>

#include "sphreverb/model/mesh.hpp"

namespace sphreverb::io {

inline constexpr const char* kSurfaceH5Name = "geometry.h5";
inline constexpr const char* kSurfaceXdmfName = "geometry.xmf";

// The XDMF document for a surface file `h5_file` (relative to the .xmf) of `mesh`'s size.
std::string surface_xdmf(const std::string& h5_file, const Mesh& mesh);

// This process only: writes DIR/geometry.h5 and DIR/geometry.xmf for `mesh`, each through a
// temporary name and a rename. Throws std::runtime_error naming the file if it cannot.
void write_surface_file(const std::string& dir, const Mesh& mesh);

}  // namespace sphreverb::io
