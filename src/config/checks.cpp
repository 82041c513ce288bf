// The wall treatment of every [boundary] shape (resolve_boundary_walls, wall = auto), and the
// checks across keys (checks.hpp, detail/passes.hpp): receivers and the emitter in the air and
// off the boundary surfaces, the emitter disc inside the room and uncut, and four warnings (a
// [room] face off the lattice's dx/2 position, an emitter disc free in the air, a moving
// object whose wake is in tension, air behind a ghost-walled boundary shape).
#include "sphreverb/config/checks.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "detail/passes.hpp"
#include "sphreverb/config/derived.hpp"
#include "sphreverb/config/object_walls.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "sphreverb/physics/lattice_stability.hpp"

namespace sphreverb {

using config_detail::format_number;
using config_detail::format_vec;

void plane_axes(const Vec3& n, Vec3& u, Vec3& v) {
  const Vec3 ref = std::abs(n.z) > 0.9 ? Vec3{1, 0, 0} : Vec3{0, 0, 1};
  u = normalized(cross(n, ref));
  v = cross(n, u);
}

namespace {

// Where `p` is relative to the surface of `b`: `side` the signed distance across it (plates:
// along the normal; cylinder: r - R), `outside` how far p lies beyond its extent.
struct SurfacePoint {
  double side = 0.0;
  double outside = 0.0;
};

SurfacePoint locate(const BoundarySpec& b, const Vec3& p) {
  const Vec3 rel = p - b.center;
  const double along = dot(rel, b.normal);
  const double across = norm(rel - b.normal * along);
  switch (b.shape) {
    case ShapeKind::Rectangle: {
      Vec3 u, v;
      plane_axes(b.normal, u, v);
      const double du = std::max(0.0, std::abs(dot(rel, u)) - 0.5 * b.width);
      const double dv = std::max(0.0, std::abs(dot(rel, v)) - 0.5 * b.height);
      return {along, std::hypot(du, dv)};
    }
    case ShapeKind::Disc:
      return {along, std::max(0.0, across - b.radius)};
    case ShapeKind::Cylinder:
      return {across - b.radius, std::max(0.0, std::abs(along) - 0.5 * b.height)};
  }
  return {};
}

}  // namespace

double distance_to_surface(const BoundarySpec& b, const Vec3& p) {
  const SurfacePoint s = locate(b, p);
  return std::hypot(s.side, s.outside);
}

bool cuts_disc(const BoundarySpec& b, const Vec3& c, const Vec3& n, double R) {
  constexpr int kRings = 16, kAngles = 64;
  constexpr double kTol = 1e-12;  // m: a point this close counts as on neither side
  Vec3 u, v;
  plane_axes(n, u, v);
  bool below = false, above = false;
  for (int i = 0; i <= kRings; ++i) {
    const double rho = R * i / kRings;
    for (int j = 0; j < (i == 0 ? 1 : kAngles); ++j) {
      const double t = 2.0 * M_PI * j / kAngles;
      const SurfacePoint s = locate(b, c + u * (rho * std::cos(t)) + v * (rho * std::sin(t)));
      if (s.outside > 0.0) continue;
      below = below || s.side < -kTol;
      above = above || s.side > kTol;
    }
  }
  return below && above;
}

namespace config_detail {

std::optional<Vec3> air_behind(const Scene& s, const BoundarySpec& b) {
  if (b.shape == ShapeKind::Cylinder) return std::nullopt;
  const double dx = s.fluid.spacing;
  const Vec3 p = b.center - 1.5 * dx * b.normal;
  for (int a = 0; a < 3; ++a)
    if (!(p[a] - s.fluid.fill_min[a] > 0.5 * dx && s.fluid.fill_max[a] - p[a] > 0.5 * dx))
      return std::nullopt;
  return p;
}

namespace {

// What of the air must stay air inside a cylinder (receivers, the emitter's centre, the point
// sources' keyframes): the first such point's name, or "" when none is inside.
std::string held_inside(const Scene& s, const BoundarySpec& b) {
  const auto inside = [&](const Vec3& p) {
    const SurfacePoint q = locate(b, p);
    return q.side < 0.0 && q.outside == 0.0;
  };
  for (const auto& rec : s.receivers) {
    bool in = inside(rec.position);
    for (const Keyframe& k : rec.path) in = in || inside(k.x);
    if (in) return "[receiver." + rec.name + "]";
  }
  if (s.emitter.present && inside(s.emitter.center)) return "the [emitter] disc";
  for (const auto& src : s.sources)
    for (const Keyframe& k : src.path)
      if (inside(k.x)) return "[emitter." + src.name + "]";
  return "";
}

// The auto choice for one shape and its reason.
std::pair<BoundaryWall, std::string> auto_wall(const Scene& s, const BoundarySpec& b) {
  using enum BoundaryWall;
  if (b.path.size() > 1 || b.rotation.size() > 1) return {Tethered, "moves (path, rotation)"};
  if (!ghost_wall_material(s.material(b.material)))
    return {Tethered, "material '" + b.material + "' is a spring (stiffness, damping)"};
  if (b.shape == ShapeKind::Cylinder) {
    const std::string held = held_inside(s, b);
    if (!held.empty()) return {Tethered, held + " lies inside it (air inside)"};
    return {Ghost, "fixed cylinder, solid inside"};
  }
  if (const std::optional<Vec3> p = air_behind(s, b))
    return {Tethered, "air behind it at (" + format_vec(*p) + ") m, a plate in the air"};
  return {Ghost, std::string("fixed ") + to_string(b.shape) + " closing the air"};
}

}  // namespace

void resolve_boundary_walls(Scene& s) {
  for (BoundarySpec& b : s.boundaries) {
    if (b.wall_key != BoundaryWall::Auto) {
      b.wall = b.wall_key;
      b.wall_reason = std::string("wall = ") + to_string(b.wall_key) + " given";
      continue;
    }
    const auto [wall, reason] = auto_wall(s, b);
    b.wall = wall;
    b.wall_reason = "auto: " + reason;
  }
}

namespace {

// `p` must be inside the fill box, at least dx/2 from every face.
void check_in_air(const Reader& r, const Scene& s, const std::string& section,
                  const std::string& key, const Vec3& p) {
  const double margin = 0.5 * s.fluid.spacing - kDistanceTolerance * s.fluid.spacing;
  for (int a = 0; a < 3; ++a) {
    if (p[a] - s.fluid.fill_min[a] >= margin && s.fluid.fill_max[a] - p[a] >= margin) continue;
    r.fail(section, key,
           "must lie in the air: inside the fill box [" + format_vec(s.fluid.fill_min) + "] .. [" +
               format_vec(s.fluid.fill_max) + "] m ([fluid] fill_min/fill_max, default [room] " +
               "min/max) and at least dx/2 = " + format_number(0.5 * s.fluid.spacing) +
               " m from its faces");
  }
}

// A disc wider than the fill box's diagonal is larger than the room (a unit slip, e.g. 5 m in a
// 0.6 m room): an error. A disc whose rim (centre +- R across the normal) reaches beyond the box
// covers a whole cross-section (a piston in a duct, as the validation tubes use): a warning.
void check_emitter_fits(const Reader& r, Scene& s) {
  const EmitterSpec& e = s.emitter;
  if (!e.present) return;
  const double diagonal = norm(s.fluid.fill_max - s.fluid.fill_min);
  if (e.radius > diagonal) {
    r.fail("emitter", "radius",
           "the disc is larger than the room: its radius exceeds the fill box's diagonal " +
               format_number(diagonal) + " m ([" + format_vec(s.fluid.fill_min) + "] .. [" +
               format_vec(s.fluid.fill_max) + "] m)");
  }
  const char* axes = "xyz";
  for (int a = 0; a < 3; ++a) {
    const double reach = e.radius * std::sqrt(std::max(0.0, 1.0 - e.normal[a] * e.normal[a]));
    const double tol = 1e-12 * (1.0 + std::abs(e.center[a]));
    if (e.center[a] - reach >= s.fluid.fill_min[a] - tol &&
        e.center[a] + reach <= s.fluid.fill_max[a] + tol)
      continue;
    s.warnings.push_back("[emitter] radius = " + format_number(e.radius) + ": the disc reaches " +
                         format_number(e.center[a] - reach) + " .. " +
                         format_number(e.center[a] + reach) + " m along " + axes[a] +
                         ", beyond the fill box: it spans the room's whole cross-section there "
                         "(a piston in a duct); the part outside drives nothing");
    return;
  }
}

void check_emitter_uncut(const Reader& r, const Scene& s) {
  const EmitterSpec& e = s.emitter;
  if (!e.present) return;
  for (const auto& b : s.boundaries) {
    // A ghost wall has no tethers; a disc on it moves that part of it (ghost_walls.hpp).
    if (b.wall == BoundaryWall::Ghost || !cuts_disc(b, e.center, e.normal, e.radius)) continue;
    r.fail("emitter", "center",
           "[boundary." + b.name + "] passes through the emitter disc (radius " +
               format_number(e.radius) +
               " m): its particles would be tethered to two walls; move the disc or the surface");
  }
}

// Mirror walls (given `walls = mirror`) with faces off the lattice's dx/2 position (`auto` builds
// ghost walls there, which sit where the faces are).
void warn_room_faces(Scene& s) {
  if (!s.room.present || !s.derived.mirror_room) return;
  const double dx = s.fluid.spacing;
  const std::array<double, 6> gaps = room_face_gaps(s);
  std::string faces;
  for (int f = 0; f < 6; ++f) {
    if (!room_face_off_lattice(s, gaps[f])) continue;
    faces += (faces.empty() ? "" : ", ") + room_face_key(f).substr(9) + " " +
             format_number(gaps[f] * 1e3) + " mm";
  }
  if (faces.empty()) return;
  s.warnings.push_back(
      "[room] faces not dx/2 = " + format_number(0.5 * dx * 1e3) +
      " mm beyond the last lattice layer (" + faces +
      "; a side that is not a multiple of [fluid] spacing, or a fill box smaller than the room): "
      "their mirror walls act across the wrong gap, and absorbing faces absorb far less than "
      "configured; `walls = auto` (the default) builds ghost walls where the faces are "
      "(docs/scene-reference.md)");
}

// Mirror walls (given `walls = mirror`) under a ghost-walled panel lying on one of their faces:
// the panel's ghosts stand where the face's images are, and the air at the panel's edges grows
// (`auto` builds the box as ghost walls then, one solid with the panel).
void warn_panel_on_mirror_face(Scene& s) {
  if (!s.room.present || !s.derived.mirror_room) return;
  const std::string panel = panel_on_room_face(s);
  if (panel.empty()) return;
  s.warnings.push_back(
      "[boundary." + panel +
      "] is a ghost-walled panel lying on a face of the [room] box, whose walls are mirror walls "
      "([room] walls = mirror): its ghosts stand where the face's images are, and the air at the "
      "panel's edges grows over a long record (the energy watch warns); `walls = auto` (the "
      "default) builds the box as ghost walls, one solid with the panel (docs/theory/walls.md)");
}

// The disc lies on a wall: its normal along a [room] face's axis (or a plate's normal, or the
// normal of the nearest mesh face) and its centre within dx of that face (and within the plate's
// extent).
bool emitter_on_wall(const Scene& s) {
  const EmitterSpec& e = s.emitter;
  const double dx = s.fluid.spacing;
  constexpr double kParallel = 1.0 - 1e-6;
  if (s.room.present) {
    for (int a = 0; a < 3; ++a) {
      if (std::abs(e.normal[a]) < kParallel) continue;
      if (std::abs(e.center[a] - s.room.min[a]) <= dx ||
          std::abs(s.room.max[a] - e.center[a]) <= dx)
        return true;
    }
  }
  for (const auto& b : s.boundaries) {
    if (b.shape == ShapeKind::Cylinder || std::abs(dot(b.normal, e.normal)) < kParallel) continue;
    const SurfacePoint p = locate(b, e.center);
    if (std::abs(p.side) <= dx && p.outside == 0.0) return true;
  }
  for (const auto& g : s.geometries) {
    const ClosestPoint p = MeshQuery(*g.mesh).closest(e.center);
    if (p.distance <= dx && std::abs(dot(p.normal, e.normal)) >= kParallel) return true;
  }
  return false;
}

// A ghost-walled rectangle or disc closes the air: behind it lies solid (solid_sheet.hpp), and
// its ghosts mirror the air in front. Air behind it (air_behind) would see those ghosts and no
// wall: a warning (wall = auto makes such a plate tethered).
void warn_air_behind_ghost_shapes(Scene& s) {
  for (const auto& b : s.boundaries) {
    if (b.wall != BoundaryWall::Ghost) continue;
    const std::optional<Vec3> p = air_behind(s, b);
    if (!p) continue;
    s.warnings.push_back("[boundary." + b.name +
                         "] wall = ghost: the fill box holds air behind the surface (at " +
                         format_vec(*p) +
                         " m); a ghost-walled rectangle or disc is one-sided and must close the "
                         "air (lie on the fill box's boundary), else the air behind it sees the "
                         "front's ghosts: use wall = tethered for a plate in the air");
  }
}

void warn_free_emitter(Scene& s) {
  if (!s.emitter.present || emitter_on_wall(s)) return;
  s.warnings.push_back(
      "[emitter] center = " + format_vec(s.emitter.center) +
      ": the disc is free in the air (not within dx = " + format_number(s.fluid.spacing) +
      " m of a [room] face, [boundary] plate or mesh face parallel to it): a free disc scatters "
      "sound into the lattice's short-wave branch, which no wall absorbs; put it on a wall "
      "(docs/scene-reference.md)");
}

// The moving objects ([boundary] shapes and meshes): section name, fastest surface point (m/s).
std::vector<std::pair<std::string, double>> moving_objects(const Scene& s) {
  std::vector<std::pair<std::string, double>> objects;
  for (const auto& b : s.boundaries)
    if (b.path.size() > 1 || b.rotation.size() > 1)
      objects.emplace_back("boundary." + b.name, object_wall(b).max_surface_speed());
  for (const auto& g : s.geometries)
    if (g.moves()) objects.emplace_back("geometry." + g.name, object_wall(g).max_surface_speed());
  return objects;
}

// An object moving along a path leaves a wake in tension (p' down to -rho0 c v), where SPH is
// unstable (Swegle, Hicks & Attaway 1995): its particles pair up and its density stays at rho0.
// A warning, unless [fluid] background_pressure exceeds that tension.
void warn_moving_wake(Scene& s) {
  for (const auto& [section, v] : moving_objects(s)) {
    const double tension = s.fluid.rest_density * s.fluid.sound_speed * v;
    if (!(v > 0.0) || s.fluid.background_pressure > tension) continue;
    s.warnings.push_back(
        "[" + section + "] moves at up to " + format_number(v) +
        " m/s: the air behind it is in tension (p' down to -rho0 c v = -" + format_number(tension) +
        " Pa), where SPH is unstable: the wake's particles pair up and its density stays at "
        "rho0 instead of falling by v/c; [fluid] background_pressure above the tension lets it "
        "rarefy but disorders the lattice at force walls and the emitter disc "
        "(docs/limitations.md)");
  }
}

// Without the particle shifting the air a moving object pushes piles up ahead of it and carries
// sound at another speed (physics/shifting.hpp): a warning naming the key.
void warn_moving_without_shifting(Scene& s) {
  if (s.fluid.shifting > 0.0) return;
  for (const auto& [section, v] : moving_objects(s)) {
    if (!(v > 0.0)) continue;
    s.warnings.push_back("[" + section +
                         "] moves: the air it pushes piles up ahead of it and carries sound at "
                         "another speed (V15's moving reflector reads 1.2 % low); [fluid] "
                         "shifting = 2 keeps it in order (docs/limitations.md)");
    return;  // once per scene
  }
}

// A sustained total pressure (the background pressure; +-rho0 c v ahead of and behind a moving
// object) makes modes of the resting lattice grow (physics/lattice_stability.hpp). A warning when
// the fastest of them would grow by more than e^10 within the run.
void warn_lattice_growth(Scene& s) {
  const FluidSpec& f = s.fluid;
  double worst_v = 0.0;
  for (const auto& object : moving_objects(s)) worst_v = std::max(worst_v, object.second);
  if (f.background_pressure == 0.0 && worst_v == 0.0) return;
  const double swing = f.rest_density * f.sound_speed * worst_v;
  LatticeGrowth fastest;
  double at = 0.0;
  for (double p :
       {f.background_pressure, f.background_pressure + swing, f.background_pressure - swing}) {
    const LatticeGrowth g = lattice_growth(f.gradient_correction, f.kernel, f.h_over_dx, f.spacing,
                                           f.sound_speed, f.rest_density, p, 8);
    if (g.rate > fastest.rate) fastest = g, at = p;
  }
  const double growth = fastest.rate * s.time.duration;
  if (!(growth > 10.0)) return;
  s.warnings.push_back(
      "under a sustained pressure of " + format_number(std::round(at)) + " Pa (" +
      (worst_v > 0.0 ? "[fluid] background_pressure plus or minus rho0 c v of the fastest moving "
                       "object"
                     : "[fluid] background_pressure") +
      ") modes of the resting lattice grow with an e-folding time of about " +
      format_number(std::round(1e3 / fastest.rate * 100.0) / 100.0) + " ms, e^" +
      format_number(std::round(growth)) +
      " over the run: the air leaves its lattice sites (neighbour rebuilds become frequent, "
      "noise in the records) (docs/theory/method.md, lattice stability under pressure)");
}

// A path (keyframes of [SECTION] path): every keyframe, and the path sampled at 64 points per
// segment, inside the fill box at least dx/2 from its faces; the speed at most kMaxPathMach c.
// Each error names the keyframe (or the segment starting at it). The solids are checked in
// check_clear_of_solids (solid_clearance.cpp) and check_motion.
void check_path(const Reader& r, const Scene& s, const std::string& section,
                const std::vector<Keyframe>& keys, PathInterpolation interpolation) {
  if (keys.size() < 2) return;
  const double margin = 0.5 * s.fluid.spacing;
  const Path path(keys, interpolation);
  const auto where = [&](std::size_t k) { return "keyframe " + std::to_string(k + 1); };
  const auto check_point = [&](const Vec3& p, const std::string& what) {
    for (int a = 0; a < 3; ++a)
      if (!(p[a] - s.fluid.fill_min[a] >= margin && s.fluid.fill_max[a] - p[a] >= margin))
        r.fail(section, "path",
               what + " at (" + format_vec(p) + ") m leaves the air: the fill box [" +
                   format_vec(s.fluid.fill_min) + "] .. [" + format_vec(s.fluid.fill_max) +
                   "] m less dx/2 = " + format_number(margin) + " m");
  };
  for (std::size_t k = 0; k < keys.size(); ++k) check_point(keys[k].x, where(k));
  for (std::size_t k = 0; k + 1 < keys.size(); ++k)
    for (int i = 1; i < 64; ++i) {
      const double t = keys[k].t + (keys[k + 1].t - keys[k].t) * i / 64.0;
      check_point(path.position(t), "the segment from " + where(k));
    }
  int segment = 0;
  const double v = path.max_speed(&segment), limit = kMaxPathMach * s.fluid.sound_speed;
  if (v > limit)
    r.fail(section, "path",
           "the segment from " + where(static_cast<std::size_t>(segment)) + " moves at " +
               format_number(v) + " m/s, above the limit " + format_number(kMaxPathMach) +
               " c = " + format_number(limit) + " m/s");
}

// A moving object (a [boundary.NAME] shape or a [geometry.NAME] mesh with a path, a rotation or
// both): its fastest surface point (path speed plus turning rate times the farthest point's
// distance from the axis) at most kMaxPathMach c; and its surface, posed along the whole motion,
// at least dx/2 from every receiver and monopole (each where its own path has it then) and from
// the emitter disc's centre and rim. The motion is sampled at every keyframe of the object and of
// the points, and between them at steps that move no surface point and no point more than dx/4
// towards each other (at least 64 a span); a mesh is 0 m from a point inside its solid. Each
// error names the object's keyframe (of `key`: rotation, turn or path; or the segment starting
// at it), the time and the point.
void check_motion(const Reader& r, const Scene& s, const std::string& section,
                  const std::string& key, const Wall& w, const std::vector<AngleKeyframe>& rotation,
                  const std::vector<Keyframe>& path) {
  const auto where = [&](std::size_t k) { return "keyframe " + std::to_string(k + 1); };
  int segment = 0;
  const double rate = w.rotation.moving() ? w.rotation.max_rate(&segment) : 0.0;
  const double v = w.max_surface_speed(), limit = kMaxPathMach * s.fluid.sound_speed;
  if (rotation.size() > 1 && v > limit)
    r.fail(section, key,
           "the segment from " + where(static_cast<std::size_t>(segment)) + " turns at " +
               format_number(rate * 180.0 / M_PI) + " deg/s: its surface " +
               format_number(w.reach()) + " m from the axis moves at up to " + format_number(v) +
               " m/s, above the limit " + format_number(kMaxPathMach) +
               " c = " + format_number(limit) + " m/s");
  const double margin = 0.5 * s.fluid.spacing;
  // The points the surface must keep clear of: name and path (one keyframe: fixed).
  struct Point {
    std::string name;
    Path path;
  };
  std::vector<Point> points;
  std::vector<double> times;
  for (const AngleKeyframe& k : rotation) times.push_back(k.t);
  for (const Keyframe& k : path) times.push_back(k.t);
  double fastest = 0.0;  // m/s, the fastest point
  const auto add = [&](const std::string& name, const std::vector<Keyframe>& keys,
                       PathInterpolation interpolation) {
    points.push_back({name, Path(keys, interpolation)});
    fastest = std::max(fastest, points.back().path.max_speed());
    if (keys.size() > 1)
      for (const Keyframe& k : keys) times.push_back(k.t);
  };
  for (const auto& rec : s.receivers)
    add("[receiver." + rec.name + "]",
        rec.path.size() > 1 ? rec.path : std::vector<Keyframe>{Keyframe{0.0, rec.position}},
        rec.interpolation);
  for (const auto& src : s.sources) add("[emitter." + src.name + "]", src.path, src.interpolation);
  // The keyframes the errors name: the rotation's, else the path's.
  std::vector<double> named;
  for (const AngleKeyframe& k : rotation) named.push_back(k.t);
  if (named.empty())
    for (const Keyframe& k : path) named.push_back(k.t);
  std::sort(times.begin(), times.end());
  const EmitterSpec& e = s.emitter;
  Vec3 eu, ev;
  plane_axes(e.normal, eu, ev);
  const auto check_at = [&](double t) {
    const WallShape now = w.pose(t);
    const auto keyframe = [&]() {
      std::size_t k = 0;
      while (k + 1 < named.size() && named[k + 1] <= t) ++k;
      return t <= named.front() || t >= named.back()
                 ? where(t <= named.front() ? 0 : named.size() - 1)
                 : "the segment from " + where(k);
    };
    const auto fail = [&](const std::string& what, const Vec3& x, double d) {
      r.fail(section, key,
             keyframe() + ": at t = " + format_number(t) + " s its surface passes " +
                 format_number(d) + " m from " + what + " at (" + format_vec(x) +
                 ") m (closer than dx/2 = " + format_number(margin) + " m)");
    };
    for (const Point& p : points) {
      const Vec3 x = p.path.position(t);
      if (const double d = now.distance(x); d < margin) fail(p.name, x, d);
    }
    if (!e.present) return;
    if (const double d = now.distance(e.center); d < margin)
      fail("the emitter's centre", e.center, d);
    for (int j = 0; j < 16; ++j) {
      const double a = 2.0 * M_PI * j / 16;
      const Vec3 rim = e.center + eu * (e.radius * std::cos(a)) + ev * (e.radius * std::sin(a));
      if (const double d = now.distance(rim); d < margin) fail("the emitter disc's rim", rim, d);
    }
  };
  const double step = 0.25 * s.fluid.spacing / std::max(v + fastest, 1e-300);  // s
  for (std::size_t k = 0; k < times.size(); ++k) {
    check_at(times[k]);
    if (k + 1 == times.size() || !(times[k + 1] > times[k])) continue;
    const double span = times[k + 1] - times[k];
    const int n = std::clamp(static_cast<int>(std::ceil(span / step)), 64, 1 << 20);
    for (int i = 1; i < n; ++i) check_at(times[k] + span * i / n);
  }
}

// A [boundary] shape that moves: along a path, turning, or both, all by the same check.
void check_moving_boundary(const Reader& r, const Scene& s, const BoundarySpec& b) {
  if (b.path.size() < 2 && b.rotation.size() < 2) return;
  check_motion(r, s, "boundary." + b.name, b.rotation.size() > 1 ? "rotation" : "path",
               object_wall(b), b.rotation, b.path);
}

// A moving mesh object: its surface swept along the whole motion, as a moving [boundary].
void check_moving_mesh(const Reader& r, const Scene& s, const GeometrySpec& g) {
  if (!g.moves()) return;
  const std::string section = "geometry." + g.name;
  check_path(r, s, section, g.path, g.interpolation);
  check_motion(r, s, section, g.turn.size() > 1 ? "turn" : "path", object_wall(g), g.turn, g.path);
}

}  // namespace

void check_geometry(const Reader& r, Scene& s) {
  for (const auto& rec : s.receivers)
    check_in_air(r, s, "receiver." + rec.name, "position", rec.position);
  if (s.emitter.present) check_in_air(r, s, "emitter", "center", s.emitter.center);
  for (const auto& rec : s.receivers)
    check_path(r, s, "receiver." + rec.name, rec.path, rec.interpolation);
  for (const auto& src : s.sources) {
    if (src.path.size() == 1)
      check_in_air(r, s, "emitter." + src.name, "position", src.path.front().x);
    check_path(r, s, "emitter." + src.name, src.path, src.interpolation);
  }
  for (const auto& b : s.boundaries) {
    check_path(r, s, "boundary." + b.name, b.path, b.interpolation);
    check_moving_boundary(r, s, b);
  }
  for (const auto& g : s.geometries) check_moving_mesh(r, s, g);
  check_clear_of_solids(r, s);
  check_emitter_fits(r, s);
  check_emitter_uncut(r, s);
  warn_room_faces(s);
  warn_panel_on_mirror_face(s);
  warn_free_emitter(s);
  warn_moving_wake(s);
  warn_moving_without_shifting(s);
  warn_lattice_growth(s);
  warn_air_behind_ghost_shapes(s);
}

}  // namespace config_detail
}  // namespace sphreverb
