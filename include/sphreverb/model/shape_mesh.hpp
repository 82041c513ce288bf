// The seed's boundary shapes as triangles, for the surface file ParaView shows and anything else
// that takes a generic triangle list (mesh.hpp): a rectangle as two triangles, a disc as a fan,
// a cylinder's side as a strip. Each triangle winds so that its right-hand normal
// (b - a) x (c - a) points along the shape's normal (a cylinder's: radially outwards).
#pragma once

#include <cstddef>

#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

// Segments of a disc's fan and a cylinder's strip (the area is then within 0.3 % of the circle's).
inline constexpr int kCircleSegments = 48;

// Appends the triangles of `shape` to `mesh`, each with surface index `surface`.
void append_triangles(const WallShape& shape, std::size_t surface, Mesh& mesh,
                      int segments = kCircleSegments);

// The exact area of one side of the shape, m^2: W H, pi r^2, 2 pi r L.
double shape_area(const WallShape& shape);

// The box [lo, hi] as a closed mesh: 8 vertices, 12 triangles, one surface per face in the order
// of the [room] faces (x_min, x_max, y_min, y_max, z_min, z_max; named so), every normal pointing
// out of the box (mesh.hpp's orientation for the air of a room).
Mesh box_mesh(const Vec3& lo, const Vec3& hi);

}  // namespace sphreverb
