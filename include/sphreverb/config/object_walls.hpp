// A scene's objects as walls: the shape and motion of a [boundary.NAME] shape or a moving
// [geometry.NAME] mesh (model/boundary.hpp), without a material. One construction for the
// solver's force walls (solver/assembly.cpp), the checks on motion (config/checks.cpp) and the
// objects ParaView shows at each checkpoint (io/markers.cpp).
#pragma once

#include "sphreverb/config/scene.hpp"
#include "sphreverb/model/boundary.hpp"

namespace sphreverb {

// The shape at its pose at t = 0 with its path and turn (none for a fixed shape).
Wall object_wall(const BoundarySpec& b);

// A moving mesh object (g.moves()): the mesh probed in its body frame about its reference point
// (the path's first keyframe, else the turn's pivot), with its path and turn.
Wall object_wall(const GeometrySpec& g);

}  // namespace sphreverb
