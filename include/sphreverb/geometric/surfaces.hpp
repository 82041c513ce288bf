// The surfaces the geometric part traces: a triangle set with one material slot per triangle
// (model::Mesh: `surface[t]` indexes the caller's GeoMaterial list). The [room] box is
// triangulated here, the boundary shapes by model/shape_mesh.hpp; a room or object mesh read from
// a file is already in this form and is appended with its surfaces renumbered.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "sphreverb/model/mesh.hpp"
#include "sphreverb/model/shape.hpp"
#include "sphreverb/model/shape_mesh.hpp"

namespace sphreverb {

// Appends the box [lo, hi]'s six faces as twelve triangles, wound so that their right-hand
// normals point out of the box (the air inside). Face f = 2 axis + side (x_min, x_max, y_min,
// ..., z_max) gets surface index face_surface[f].
void add_box(Mesh& mesh, const Vec3& lo, const Vec3& hi,
             const std::array<std::size_t, 6>& face_surface);

// Appends a boundary shape (model/shape.hpp's frame) as model/shape_mesh.hpp triangulates it
// for the surface file and the areas (one triangulation): a rectangle as two triangles, a disc as
// a fan of `segments` triangles, a cylinder's side as 2 `segments` triangles (open ends). The
// polygons are inscribed in the circles. Both sides of every triangle reflect.
void add_shape(Mesh& mesh, const Shape& shape, std::size_t surface, int segments = kCircleSegments);

// Appends the triangles of `part` (a room or object mesh), triangle t with surface index
// surface_slot[part.surface[t]]. Requires surface_slot.size() > every part.surface[t].
void add_mesh(Mesh& mesh, const Mesh& part, const std::vector<std::size_t>& surface_slot);

}  // namespace sphreverb
