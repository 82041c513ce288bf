// Geometry of the scene's checks across keys (checks.cpp): where receivers and the emitter sit
// relative to the [boundary.NAME] surfaces and the [room] faces. Lengths in m.
#pragma once

#include "sphreverb/core/vec3.hpp"

namespace sphreverb {

struct BoundarySpec;

// Distance from `p` to the surface of `b` (a rectangle or disc plate, or a cylinder's side).
double distance_to_surface(const BoundarySpec& b, const Vec3& p);

// The surface of `b` passes through the disc (centre c, unit normal n, radius R): points of the
// disc (sampled on 16 rings of 64) lie strictly on both sides of it, within its extent.
bool cuts_disc(const BoundarySpec& b, const Vec3& c, const Vec3& n, double R);

// In-plane axes of a plane with unit normal n, as model/boundary.cpp builds them:
// u = normalised(n x ref), v = n x u, ref = z unless |n.z| > 0.9, then x.
void plane_axes(const Vec3& n, Vec3& u, Vec3& v);

}  // namespace sphreverb
