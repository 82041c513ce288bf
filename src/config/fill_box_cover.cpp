// Every face of the fill box closed by a wall (detail/passes.hpp, check_fill_box_closed). The
// lattice fills the fill box; where a face of it has no wall (a [room] face, a [boundary] shape,
// a mesh or the disc) within reach, its air ends in nothing: a free surface, not a wall. That is
// what a misplaced wall leaves (a [boundary] floor written `size = 1.2 0.12` where the tube runs
// along the other axis covers a tenth of it), and every check of the walls themselves passes.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "detail/passes.hpp"
#include "detail/text.hpp"
#include "sphreverb/config/checks.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/mesh_query.hpp"

namespace sphreverb::config_detail {

namespace {

// Samples per side of a face at most: a face of more than this many spacings is sampled more
// coarsely (the reach stays dx), so that `check` stays fast at any resolution.
constexpr int kMaxSamplesPerSide = 512;

// The walls a fill-box face may meet, built once for the six faces (a mesh's query structure is
// an AABB tree).
struct FillBoxWalls {
  std::vector<WallShape> shapes;
  std::vector<const BoundarySpec*> boundaries;
  std::vector<MeshQuery> rooms, objects;

  explicit FillBoxWalls(const Scene& s) {
    if (s.room.present)
      for (const WallShape& f : box_faces(s.room.min, s.room.max)) shapes.push_back(f);
    for (const BoundarySpec& b : s.boundaries) boundaries.push_back(&b);
    if (s.emitter.present && s.emitter.radius > 0.0)
      shapes.push_back(WallShape::disc(s.emitter.center, s.emitter.normal, s.emitter.radius));
    for (const GeometrySpec& g : s.geometries)
      (g.role == GeometryRole::Room ? rooms : objects).emplace_back(*g.mesh);
  }
};

FaceCoverage face_coverage(const Scene& s, const FillBoxWalls& w, int face) {
  const double dx = s.fluid.spacing, reach = dx;
  const Vec3& lo = s.fluid.fill_min;
  const Vec3& hi = s.fluid.fill_max;
  const int axis = face / 2, a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  const bool max_side = face % 2 == 1;
  FaceCoverage out;
  // A [room] face on the plane of this one, spanning it: nothing to sample.
  if (s.room.present) {
    const double plane = max_side ? hi[axis] : lo[axis];
    const double room_plane = max_side ? s.room.max[axis] : s.room.min[axis];
    if (std::abs(plane - room_plane) <= reach && s.room.min[a1] <= lo[a1] + reach &&
        s.room.max[a1] >= hi[a1] - reach && s.room.min[a2] <= lo[a2] + reach &&
        s.room.max[a2] >= hi[a2] - reach)
      return out;
  }
  // Sample the first lattice layer's depth (dx/2 inside the face) on a grid of dx (coarser on a
  // face of more than kMaxSamplesPerSide spacings).
  const double l1 = hi[a1] - lo[a1], l2 = hi[a2] - lo[a2];
  const auto samples = [&](double l) {
    return std::clamp(static_cast<int>(std::floor(l / dx + 1e-6)), 1, kMaxSamplesPerSide);
  };
  const int n1 = samples(l1), n2 = samples(l2);
  Vec3 p;
  p[axis] = max_side ? hi[axis] - 0.5 * dx : lo[axis] + 0.5 * dx;
  for (int i = 0; i < n1; ++i) {
    p[a1] = lo[a1] + (i + 0.5) * l1 / n1;
    for (int j = 0; j < n2; ++j) {
      p[a2] = lo[a2] + (j + 0.5) * l2 / n2;
      const bool walled =
          std::any_of(w.shapes.begin(), w.shapes.end(),
                      [&](const WallShape& x) { return x.distance(p) <= reach; }) ||
          std::any_of(w.boundaries.begin(), w.boundaries.end(),
                      [&](const BoundarySpec* b) { return distance_to_surface(*b, p) <= reach; }) ||
          std::any_of(w.rooms.begin(), w.rooms.end(),
                      [&](const MeshQuery& q) { return q.near(p, reach); }) ||
          std::any_of(w.objects.begin(), w.objects.end(),
                      [&](const MeshQuery& q) { return q.near(p, reach); });
      if (walled) continue;
      // No air there: outside a room mesh or inside an object.
      if (std::any_of(w.rooms.begin(), w.rooms.end(),
                      [&](const MeshQuery& q) { return !q.inside(p); }) ||
          std::any_of(w.objects.begin(), w.objects.end(),
                      [&](const MeshQuery& q) { return q.inside(p); }))
        continue;
      ++out.open;
      if (!out.first) out.first = p;
    }
  }
  out.samples = n1 * n2;
  return out;
}

}  // namespace

FaceCoverage fill_box_face_coverage(const Scene& s, int face) {
  return face_coverage(s, FillBoxWalls(s), face);
}

void check_fill_box_closed(const Reader& r, const Scene& s) {
  const FillBoxWalls walls(s);
  for (int face = 0; face < 6; ++face) {
    const FaceCoverage c = face_coverage(s, walls, face);
    if (c.open == 0) continue;
    const std::string name = room_face_key(face).substr(9);
    const int axis = face / 2;
    const double plane = face % 2 ? s.fluid.fill_max[axis] : s.fluid.fill_min[axis];
    const std::string key = face % 2 ? "fill_max" : "fill_min";
    const double percent = 100.0 * c.open / c.samples;
    char share[32];
    std::snprintf(share, sizeof share, "%.3g %%", percent);
    const std::string what =
        "the fill box's face " + name + " (" + "xyz"[axis] + " = " + format_number(plane) +
        " m): " + share + " of it (" + std::to_string(c.open) + " of " + std::to_string(c.samples) +
        " points on a grid of dx, e.g. " + format_vec(*c.first) +
        " m) has no wall within dx = " + format_number(s.fluid.spacing) +
        " m (a [room] face, [boundary] shape, mesh or the disc): the air there ends in nothing. "
        "Check the walls meant to close it (a rectangle's `size = W H`: W runs along "
        "normal x z, or along y for a normal along z; docs/scene-reference.md)";
    if (r.has("fluid", key)) r.fail("fluid", key, what);
    r.fail_section("fluid", what);
  }
}

}  // namespace sphreverb::config_detail
