// Queries implemented with CGAL in mesh_query.cpp (the one translation unit that includes CGAL).
#pragma once

#include <cstddef>
#include <optional>
#include <utility>

#include "sphreverb/model/mesh.hpp"

namespace sphreverb::detail {

// The first pair of triangles (lowest indices first) that intersect other than along a shared
// edge or vertex; nullopt if none. Precondition: the mesh is closed and 2-manifold.
std::optional<std::pair<std::size_t, std::size_t>> first_self_intersection(const Mesh& mesh);

}  // namespace sphreverb::detail
