// Sources and receivers clear of the fixed solids (detail/passes.hpp, check_clear_of_solids):
// every receiver position and path, the emitter disc's centre and every monopole's position and
// path against every fixed solid of the scene (room meshes, object meshes and [boundary] shapes),
// by one rule: the point lies in the solid's air (inside a room mesh, outside an object mesh, not
// in the solid behind a ghost-walled shape) and at least dx/2 from its surface (lattice sites
// closer than that are not filled). The moving objects are checked against the same points along
// their motion (checks.cpp, check_motion).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "detail/passes.hpp"
#include "detail/text.hpp"
#include "sphreverb/config/checks.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "sphreverb/model/path.hpp"
#include "sphreverb/model/solid_sheet.hpp"

namespace sphreverb::config_detail {

namespace {

// One fixed solid: a mesh (room or object) or a [boundary] shape (a ghost-walled one with the
// solid behind it, solid_sheet.hpp; a tethered one a surface with air on both sides).
struct FixedSolid {
  std::string name;                     // "[geometry.NAME] (FILE)" or "[boundary.NAME]"
  std::unique_ptr<MeshQuery> mesh;      // a mesh, else null
  bool room = false;                    // a room mesh: air inside
  const BoundarySpec* shape = nullptr;  // a [boundary] shape, else null
  std::unique_ptr<SolidSheet> sheet;    // its solid, if ghost-walled
};

std::vector<FixedSolid> fixed_solids(const Scene& s) {
  std::vector<FixedSolid> solids;
  for (const GeometrySpec& g : s.geometries) {
    if (g.moves() || !g.mesh) continue;
    FixedSolid f;
    f.name = "[geometry." + g.name + "] (" + g.file + ")";
    f.mesh = std::make_unique<MeshQuery>(*g.mesh);
    f.room = g.role == GeometryRole::Room;
    solids.push_back(std::move(f));
  }
  for (const BoundarySpec& b : s.boundaries) {
    if (b.path.size() > 1 || b.rotation.size() > 1) continue;
    FixedSolid f;
    f.name = "[boundary." + b.name + "]";
    f.shape = &b;
    if (b.wall == BoundaryWall::Ghost) {
      // The depth the solver gives the solid behind a ghost-walled shape (make_solid_geometry).
      const Shape shape{b.shape, b.center, b.normal, b.width, b.height, b.radius};
      f.sheet = std::make_unique<SolidSheet>(WallShape::from(shape),
                                             s.derived.halo_width + s.fluid.spacing);
    }
    solids.push_back(std::move(f));
  }
  return solids;
}

// What is wrong with point p against solid f ("" when it is clear): closer than `margin` (m) to
// its surface (`half`: dx/2, named in the message), or in a ghost-walled shape's solid (always
// tested: its chamfered slab reaches beyond the shape's edges, away from its surface); `sides`
// also tests which side of a mesh's surface p lies on (exact); `moving` words it for a point
// along a path.
std::string trouble(const FixedSolid& f, const Vec3& p, double margin, double half, bool sides,
                    bool moving) {
  const auto too_close = [&](double d) {
    return std::string(moving ? "crosses " : "lies on ") + f.name + " (" + format_number(d) +
           " m from its surface, less than dx/2 = " + format_number(half) +
           " m): lattice sites there are not filled, so there is no air";
  };
  if (f.mesh) {
    if (sides) {
      const MeshSide side = f.mesh->side(p);
      if (f.room ? side != MeshSide::Inside : side != MeshSide::Outside)
        return std::string(moving
                               ? (f.room ? "leaves the room " : "enters the solid ")
                               : (f.room ? "lies outside the room " : "lies inside the solid ")) +
               f.name;
    }
    if (!f.mesh->near(p, margin)) return "";
    const double d = f.mesh->closest(p).distance;
    return d < margin ? too_close(d) : "";
  }
  if (f.sheet && f.sheet->solid(p))
    return std::string(moving ? "enters the solid of " : "lies inside the solid of ") + f.name +
           " (wall = ghost)";
  const double d = distance_to_surface(*f.shape, p);
  return d < margin ? too_close(d) : "";
}

class Clearance {
 public:
  Clearance(const Reader& r, const Scene& s) : r_(r), s_(s), solids_(fixed_solids(s)) {
    // A face written at dx/2 and read back through decimal rounding is at dx/2.
    half_ = 0.5 * s.fluid.spacing;
    margin_ = half_ - kDistanceTolerance * s.fluid.spacing;
  }

  // A fixed point: `what` names it in the message ("receiver 'mic'", "the emitter's centre");
  // `shapes`: also against the [boundary] shapes.
  void point(const std::string& section, const std::string& key, const std::string& what,
             const Vec3& p, bool shapes = true) const {
    for (const FixedSolid& f : solids_) {
      if (!shapes && f.shape) continue;
      const std::string t = trouble(f, p, margin_, half_, true, false);
      if (!t.empty()) r_.fail(section, key, what + " at " + format_vec(p) + " m " + t);
    }
  }

  // A path, sampled along its keyframes so that no two samples lie more than dx/8 of travel
  // apart (at least 64 a segment): a point between two clear samples lies within dx/16 of one,
  // so it cannot reach a surface; the side of each mesh is tested at the keyframes (it cannot
  // change between clear samples).
  void path(const std::string& section, const std::vector<Keyframe>& keys,
            PathInterpolation interpolation) const {
    if (keys.size() < 2 || solids_.empty()) return;
    const Path path(keys, interpolation);
    const double speed = path.max_speed();
    const double step = 0.125 * s_.fluid.spacing;
    const auto where = [&](std::size_t k) { return "keyframe " + std::to_string(k + 1); };
    const auto at = [&](double t, const std::string& when, bool sides) {
      const Vec3 p = path.position(t);
      for (const FixedSolid& f : solids_) {
        const std::string what = trouble(f, p, margin_, half_, sides, true);
        if (!what.empty())
          r_.fail(section, "path",
                  when + ": at t = " + format_number(t) + " s the path at (" + format_vec(p) +
                      ") m " + what);
      }
    };
    for (std::size_t k = 0; k < keys.size(); ++k) at(keys[k].t, where(k), true);
    for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
      const double span = keys[k + 1].t - keys[k].t;
      const int n = std::clamp(static_cast<int>(std::ceil(speed * span / step)), 64, 1 << 20);
      for (int i = 1; i < n; ++i)
        at(keys[k].t + span * i / n, "the segment from " + where(k), false);
    }
  }

 private:
  const Reader& r_;
  const Scene& s_;
  std::vector<FixedSolid> solids_;
  double half_ = 0.0, margin_ = 0.0;
};

}  // namespace

void check_clear_of_solids(const Reader& r, const Scene& s) {
  const Clearance c(r, s);
  for (const auto& rec : s.receivers) {
    const std::string section = "receiver." + rec.name;
    if (rec.path.size() > 1)
      c.path(section, rec.path, rec.interpolation);
    else
      c.point(section, "position", "receiver '" + rec.name + "'", rec.position);
  }
  // The disc against the [boundary] shapes: check_emitter_uncut (checks.cpp; a ghost-walled
  // duct's wall may pass beside a piston filling its section).
  if (s.emitter.present)
    c.point("emitter", "center", "the emitter's centre", s.emitter.center, false);
  for (const auto& src : s.sources) {
    const std::string section = "emitter." + src.name;
    if (src.path.size() > 1)
      c.path(section, src.path, src.interpolation);
    else
      c.point(section, "position", "monopole '" + src.name + "'", src.path.front().x);
  }
}

}  // namespace sphreverb::config_detail
