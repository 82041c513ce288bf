// The [emitter] disc placed on the wall it is meant for (detail/passes.hpp, place_emitter). A
// disc must lie at least dx/2 from a face (lattice sites closer than that are not filled), so a
// disc written for one spacing is too close at a coarser one; a disc within dx of a face,
// parallel to it and facing away from it, is taken as meant for that face and put at dx/2.
#include <cmath>
#include <string>

#include "detail/passes.hpp"
#include "detail/text.hpp"
#include "sphreverb/config/checks.hpp"
#include "sphreverb/model/mesh_query.hpp"

namespace sphreverb::config_detail {

namespace {

constexpr double kParallel = 1.0 - 1e-6;  // |cos| of the angle between the disc and the face

// Moves the disc's centre by `shift` (m) along `n` and records why.
void move(Scene& s, const Vec3& n, double shift, double was, const std::string& face) {
  const Vec3 before = s.emitter.center;
  s.emitter.center = before + n * shift;
  s.notes.push_back("[emitter] center = " + format_vec(before) + " lies " + format_number(was) +
                    " m from " + face +
                    ", closer than dx/2 = " + format_number(0.5 * s.fluid.spacing) +
                    " m: placed at " + format_vec(s.emitter.center) + " (dx/2 from it)");
}

}  // namespace

void place_emitter(const Reader& /*r*/, Scene& s) {
  if (!s.emitter.present) return;
  EmitterSpec& e = s.emitter;
  const double dx = s.fluid.spacing, half = 0.5 * dx, tol = kDistanceTolerance * dx;
  const Vec3 n = normalized(e.normal);
  if (s.room.present) {
    for (int a = 0; a < 3; ++a) {
      if (std::abs(n[a]) < kParallel) continue;
      // The face the disc faces away from: x_min for a normal along +a, x_max along -a.
      const bool lo = n[a] > 0.0;
      const double d = lo ? e.center[a] - s.room.min[a] : s.room.max[a] - e.center[a];
      if (d < half - tol && d > -dx) {
        Vec3 axis;
        axis[a] = lo ? 1.0 : -1.0;
        move(s, axis, half - d, d, "[room] " + room_face_key(2 * a + (lo ? 0 : 1)).substr(9));
      }
    }
  }
  for (const BoundarySpec& b : s.boundaries) {
    if (b.shape == ShapeKind::Cylinder || b.path.size() > 1 || b.rotation.size() > 1) continue;
    const double c = dot(n, b.normal);
    if (std::abs(c) < kParallel) continue;
    const Vec3 away = c > 0.0 ? b.normal : b.normal * -1.0;  // the disc's side of the plate
    const double d = dot(e.center - b.center, away);         // signed, + on the disc's side
    const double from = distance_to_surface(b, e.center);
    if (from > std::abs(d) + tol) continue;  // beside the plate, not over it
    if (d < half - tol && d > -dx) move(s, away, half - d, d, "[boundary." + b.name + "]");
  }
  for (const GeometrySpec& g : s.geometries) {
    if (g.moves() || !g.mesh) continue;
    const ClosestPoint p = MeshQuery(*g.mesh).closest(e.center);
    if (p.distance > dx || std::abs(dot(p.normal, n)) < kParallel) continue;
    // The face's normal towards the air: a room mesh's faces look out of the room, an object's
    // out of its solid; the disc must face the air.
    const Vec3 air = g.role == GeometryRole::Room ? p.normal * -1.0 : p.normal;
    if (dot(air, n) < kParallel) continue;
    const double d = dot(e.center - p.point, air);
    if (d < half - tol)
      move(s, air, half - d, d, "a face of [geometry." + g.name + "] (" + g.file + ")");
  }
}

}  // namespace sphreverb::config_detail
