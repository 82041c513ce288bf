// The surface of a boundary object as given: its kind, centre, normal and extent. WallShape
// (boundary.hpp) turns it into an oriented frame that can be probed.
#pragma once

#include "sphreverb/core/vec3.hpp"

namespace sphreverb {

// The seed's boundary shapes (Wolfe & Semwal, Sec. 3); names "rectangle", "disc", "cylinder".
enum class ShapeKind { Rectangle, Disc, Cylinder };

struct Shape {
  ShapeKind kind = ShapeKind::Rectangle;
  Vec3 center;          // m
  Vec3 normal;          // any nonzero length (normalised by WallShape); cylinder: the axis
  double width = 0.0;   // m, rectangle: extent along u = normalised(normal x ref) ...
  double height = 0.0;  // m, ... and along v = normal x u (ref = z unless normal is along z,
                        //    then x); cylinder: length along the axis
  double radius = 0.0;  // m, disc and cylinder
};

}  // namespace sphreverb
