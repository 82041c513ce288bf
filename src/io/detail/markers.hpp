// Writing SceneMarkers (sphreverb/io/markers.hpp) into a checkpoint or snapshot file, with the
// checkpoint layout's units and descriptions.
#pragma once

#include "io/detail/h5.hpp"
#include "sphreverb/io/markers.hpp"

namespace sphreverb::detail {

// Collective over the file's ranks, rank 0's rows: /emitter/position and /objects/names,
// vertices, triangles and object; with `positions` also /sources/names and position and
// /receivers/names and position (a checkpoint writes those among its restart data).
void write_markers(h5::File& f, const SceneMarkers& m, bool positions);

}  // namespace sphreverb::detail
