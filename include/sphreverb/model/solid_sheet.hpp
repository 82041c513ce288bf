// A boundary shape walled by ghost particles (`[boundary.NAME] wall = ghost`): the shape's
// surface with the solid region behind it, as SolidGeometry (solid_geometry.hpp) asks of a part.
//
// Rectangle and disc: a one-sided surface whose normal points into the air. The solid is the slab
// behind it, to `depth` (m, at least the ghosts' reach), widened with depth by a 45 degree
// chamfer beyond the shape's edges: a point at depth s behind the plane (0 <= s <= depth) is
// solid if its projection lies within the shape grown by s (a rectangle by s on every side, a
// disc to radius R + s). Two shapes meeting at an edge at a right (or wider) angle on the air
// side thus leave no gap: the union of their chamfered slabs covers the quadrant behind the edge,
// and a point there is nearest to the edge of both, so it takes both faces (the corner image of
// a mirror wall). A free edge is thickened behind the surface only; the air in front of the
// plane is not touched.
//
// Cylinder: a closed solid column (radius R, length H along its axis, the shape's normal) with
// air outside, walled on its side and its two flat ends.
//
// The nearest wall point is on the shape itself (a rectangle or disc: the projection clamped to
// the extent), with the one face normal there pointing from the air into the solid.
#pragma once

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/boundary.hpp"

namespace sphreverb {

struct SheetPoint {
  Vec3 point;             // m, the nearest point of the surface
  double distance = 0.0;  // m
  Vec3 normal;            // unit, air -> solid, of the face at `point`
};

class SolidSheet {
 public:
  SolidSheet() = default;
  // depth: m, > 0 (rectangle, disc; a cylinder is solid throughout).
  SolidSheet(const WallShape& shape, double depth);

  const WallShape& shape() const { return shape_; }
  double depth() const { return depth_; }
  // The solid region, closed (a point on the surface is solid, not air).
  bool solid(const Vec3& x) const;
  SheetPoint closest(const Vec3& x) const;
  // Axis-aligned box holding the solid region (m).
  Vec3 lo() const { return lo_; }
  Vec3 hi() const { return hi_; }

 private:
  WallShape shape_;
  double depth_ = 0.0;
  Vec3 lo_, hi_;
};

}  // namespace sphreverb
