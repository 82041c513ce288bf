// The surfaces the geometric part traces: a triangle set with one material slot per triangle
// (model::Mesh: `surface[t]` indexes the caller's GeoMaterial list). The [room] box and the
// boundary shapes are triangulated here; a room or object mesh read from a file is already in
// this form and is appended as it is.
#pragma once

#include <array>
#include <cstddef>

#include "sphreverb/model/mesh.hpp"
#include "sphreverb/model/shape.hpp"

namespace sphreverb {

// Appends the box [lo, hi]'s six faces as twelve triangles, wound so that their right-hand
// normals point out of the box (the air inside). Face f = 2 axis + side (x_min, x_max, y_min,
// ..., z_max) gets surface index face_surface[f].
void add_box(Mesh& mesh, const Vec3& lo, const Vec3& hi,
             const std::array<std::size_t, 6>& face_surface);

// Appends a boundary shape (model/shape.hpp's frame): a rectangle as two triangles, a disc as a
// fan of `segments` triangles, a cylinder's side as 2 `segments` triangles (open ends). The
// polygons are inscribed in the circles. Both sides of every triangle reflect.
void add_shape(Mesh& mesh, const Shape& shape, std::size_t surface, int segments = 32);

// The in-plane frame of a shape, as model/boundary.cpp builds it: u = normalised(n x ref),
// v = n x u, ref = z unless |n_z| > 0.9 (then x); n normalised.
std::array<Vec3, 3> shape_frame(const Vec3& normal);

}  // namespace sphreverb
