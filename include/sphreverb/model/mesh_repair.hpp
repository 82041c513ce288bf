// Repairs of a mesh as read, before check_mesh (mesh_check.hpp).
//
// T-junctions. CAD exports often leave a vertex of one face lying on an edge of its neighbour (a
// wall split round a window meets the floor along one long edge, the floor's edge running past
// the wall's vertices): the long edge then has one triangle, each short edge of the other side
// one too, and check_mesh reports an open surface although the room is closed. Splitting each
// such long edge at the vertices on it (and its triangle into a fan) joins the two sides.
#pragma once

#include <cstddef>

#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

// Splits every edge used by one triangle only at the mesh's vertices lying on its interior
// (within `tolerance` m of the segment, strictly between its ends by more than `tolerance`):
// its triangle (a, b, c) with the edge a->b becomes (a, v1, c), (v1, v2, c), ..., (vk, b, c),
// same surface, same winding. Repeats until no edge changes. Returns the number of vertices
// inserted into edges (0: the mesh is unchanged). Positions are not moved.
std::size_t split_t_junctions(Mesh& mesh, double tolerance);

}  // namespace sphreverb
