// Derived quantities of the scene (derived.hpp): smoothing length, particle mass, wall
// parameters from absorption (material.hpp), the room's wall kind, time-step bounds, substeps,
// hyperdiffusion limit and highest usable frequency (dispersion.hpp).
#include "sphreverb/config/derived.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "detail/passes.hpp"
#include "sphreverb/config/checks.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/config/schema.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "sphreverb/physics/dispersion.hpp"

namespace sphreverb {

using config_detail::format_number;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// The largest substep count: the upper end of [time] substeps in the schema.
int max_substeps() {
  static const int n = static_cast<int>(find_key(*classify_section("time"), "substeps")->range.hi);
  return n;
}
}  // namespace

double substeps_estimate(double rate, double dt_bound) {
  return std::max(1.0, std::ceil(1.0 / (rate * dt_bound)));
}

std::optional<int> smallest_substeps(double rate, double dt_bound, int max_substeps) {
  if (!(dt_bound > 0.0) || !(rate > 0.0)) return std::nullopt;  // also NaN
  const auto fits = [&](double n) { return 1.0 / (rate * n) <= dt_bound * (1.0 + 1e-12); };
  double needed = substeps_estimate(rate, dt_bound);
  // Beyond max_substeps + 1 the search below is pointless; beyond 2^53 it would never end
  // (needed - 1 == needed).
  if (!(needed <= max_substeps + 1.0)) return std::nullopt;
  while (needed > 1.0 && fits(needed - 1.0)) needed -= 1.0;
  while (!fits(needed)) needed += 1.0;
  if (needed > max_substeps) return std::nullopt;
  return static_cast<int>(needed);
}

bool room_face_off_lattice(const Scene& s, double gap) {
  const double dx = s.fluid.spacing;
  return gap < 2.0 * s.fluid.h_over_dx * dx && std::abs(gap - 0.5 * dx) > kRoomFaceTolerance * dx;
}

bool room_faces_on_lattice(const Scene& s) {
  const std::array<double, 6> gaps = room_face_gaps(s);
  return std::none_of(gaps.begin(), gaps.end(),
                      [&](double g) { return room_face_off_lattice(s, g); });
}

int room_face_under(const Scene& s, const BoundarySpec& b, double tolerance) {
  if (!s.room.present || b.path.size() > 1 || b.rotation.size() > 1) return -1;
  if (b.shape != ShapeKind::Rectangle && b.shape != ShapeKind::Disc) return -1;
  const Vec3 n = normalized(b.normal);
  for (int axis = 0; axis < 3; ++axis) {
    if (!(std::abs(n[axis]) > 1.0 - 1e-9)) continue;
    if (std::abs(b.center[axis] - s.room.min[axis]) <= tolerance) return 2 * axis;
    if (std::abs(b.center[axis] - s.room.max[axis]) <= tolerance) return 2 * axis + 1;
  }
  return -1;
}

std::array<double, 6> room_face_gaps(const Scene& s) {
  std::array<double, 6> gaps{};
  const double dx = s.fluid.spacing;
  for (int a = 0; a < 3; ++a) {
    const double length = s.fluid.fill_max[a] - s.fluid.fill_min[a];
    const double n = std::floor(length / dx + 1e-9);
    const double first = s.fluid.fill_min[a] + 0.5 * (length - n * dx) + 0.5 * dx;
    const double last = first + (n - 1.0) * dx;
    gaps[2 * a] = first - s.room.min[a];
    gaps[2 * a + 1] = s.room.max[a] - last;
  }
  return gaps;
}

namespace config_detail {
namespace {

struct MaterialUse {
  std::string section, key, name;
};

std::vector<MaterialUse> material_uses(const Scene& s) {
  std::vector<MaterialUse> uses;
  if (s.room.present) {
    uses.push_back({"room", "material", s.room.material});
    for (int f = 0; f < 6; ++f) uses.push_back({"room", room_face_key(f), s.room.face_material[f]});
  }
  for (const auto& b : s.boundaries) uses.push_back({"boundary." + b.name, "material", b.material});
  if (s.emitter.present) uses.push_back({"emitter", "material", s.emitter.material});
  return uses;
}

// Absorbing materials: the wall per unit area from alpha (material.hpp), shared among the n_t
// tethered layers; the layers' own mass n_t rho0 dx is part of the wall's moving mass.
void derive_materials(Scene& s) {
  const FluidSpec& f = s.fluid;
  const Derived& d = s.derived;
  const double dx = f.spacing;
  const int layers = tethered_layers(f.h_over_dx);
  const double layer_mass = layers * f.rest_density * dx;
  const double rho_c = f.rest_density * f.sound_speed;
  for (auto& m : s.materials) {
    if (m.rigid) {
      m.stiffness = d.rigid_stiffness;
    } else if (m.absorption.size() == 1) {
      m.impedance = wall_for_absorption(m.absorption[0], rho_c, layer_mass);
    } else if (m.absorption.size() == kOctaveBands.size()) {
      std::array<double, 6> bands{};
      std::copy(m.absorption.begin(), m.absorption.end(), bands.begin());
      const BandFit fit = fit_bands(bands, rho_c, layer_mass, 0.5 / (2.0 * M_PI * d.dt_cfl));
      m.impedance = fit.wall;
      m.fit_rms = fit.rms_error;
      m.fitted = fit.fitted;
      if (fit.rms_error > kMaterialFitWarn) {
        // The layer mass and the resonance bound scale with the spacing: refit at finer ones.
        m.fitting_spacing = 0.0;
        for (const double k : {1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0}) {
          const BandFit finer =
              fit_bands(bands, rho_c, layer_mass / k, k * 0.5 / (2.0 * M_PI * d.dt_cfl));
          if (finer.rms_error <= kMaterialFitWarn) {
            m.fitting_spacing = dx / k;
            break;
          }
        }
      }
    }
    if (!m.rigid && !m.absorption.empty()) {
      m.stiffness = m.impedance.stiffness / layers;
      m.damping = m.impedance.resistance / layers;
      m.mass = std::max(0.0, m.impedance.mass - layer_mass) / layers;
    }
  }
}

// "0.010 0.032 ..." (3 decimals) for messages.
std::string alpha_list(const std::array<double, 6>& a) {
  std::string out;
  for (const double v : a) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    out += (out.empty() ? "" : " ") + std::string(buf);
  }
  return out;
}

// A warning per band material a surface uses whose fitted wall misses its table by more than
// kMaterialFitWarn (rms over the bands): the SPH part then hears another material than the
// geometric part and the diffuse-field estimates from the table.
void warn_material_fits(Scene& s) {
  std::vector<std::string> used;
  for (const auto& use : material_uses(s)) used.push_back(use.name);
  for (const auto& g : s.geometries)
    used.insert(used.end(), g.surface_material.begin(), g.surface_material.end());
  for (const auto& m : s.materials) {
    if (m.absorption.size() != kOctaveBands.size() || !(m.fit_rms > kMaterialFitWarn)) continue;
    if (std::find(used.begin(), used.end(), m.name) == used.end()) continue;
    std::array<double, 6> given{};
    std::copy(m.absorption.begin(), m.absorption.end(), given.begin());
    std::string w = "[material." + m.name + "] absorption_bands " + alpha_list(given) +
                    " (125 Hz-4 kHz): the SPH wall fitted at spacing " +
                    format_number(s.fluid.spacing * 1e3) + " mm (one mass-spring-damper) gives " +
                    alpha_list(m.fitted) + ", rms error " +
                    format_number(std::round(m.fit_rms * 1e3) / 1e3) + " (above " +
                    format_number(kMaterialFitWarn) +
                    "): below the crossover the run hears that wall, not the table; ";
    w += m.fitting_spacing > 0.0
             ? "a spacing of " + format_number(std::floor(m.fitting_spacing * 1e4) / 10.0) +
                   " mm or finer fits within " + format_number(kMaterialFitWarn)
             : "no spacing down to a tenth of this one fits within " +
                   format_number(kMaterialFitWarn) + " (one resonator cannot follow this curve)";
    s.warnings.push_back(w);
  }
}

// The mirror face the emitter disc lies on (mirror_walls.hpp: a velocity boundary of it), or -1:
// a rigid disc whose normal is along an axis and whose centre is at most one spacing from a face
// normal to it. A disc of another material keeps its force wall (its spring and damper).
int emitter_mirror_face(const Scene& s) {
  const EmitterSpec& e = s.emitter;
  if (!s.derived.mirror_room || !s.material(e.material).rigid || !(e.radius > 0.0)) return -1;
  const double reach = s.fluid.spacing * (1.0 + 1e-9);
  for (int a = 0; a < 3; ++a) {
    if (!(std::abs(e.normal[a]) > 1.0 - 1e-9)) continue;
    if (e.center[a] - s.room.min[a] <= reach) return 2 * a;
    if (s.room.max[a] - e.center[a] <= reach) return 2 * a + 1;
  }
  return -1;
}

// The room's walls: mirror particles for a rigid, resistive (one broadband alpha) or
// band-fitted material, else force walls. A resistive mirror wall is Z = R alone (no layer mass,
// no spring: the ghost images sit on the geometric face), so it absorbs alpha at every frequency;
// a band-fitted one is the fitted Z = R + j(wM - K/w) itself, a face element per first-layer
// particle (mirror_walls.hpp). `auto` takes mirror walls unless a face's material is given by
// stiffness and damping (the spring form), which only force walls carry.
void derive_room_walls(const Reader& r, Scene& s) {
  Derived& d = s.derived;
  if (!s.room.present) return;
  const auto bands = [](const MaterialSpec& m) {
    return !m.rigid && m.absorption.size() == kOctaveBands.size();
  };
  const auto mirrorable = [&](const MaterialSpec& m) {
    return m.rigid || m.absorption.size() == 1 || bands(m);
  };
  const bool explicit_particles =
      s.room.walls == RoomWalls::Mirror || s.room.walls == RoomWalls::Ghost;
  for (int face = 0; face < 6; ++face) {
    const MaterialSpec& m = s.material(s.room.face_material[face]);
    if (explicit_particles && !mirrorable(m))
      r.fail("room", "walls",
             std::string(s.room.walls == RoomWalls::Mirror ? "mirror" : "ghost") +
                 " walls need rigid materials, one broadband `absorption` or "
                 "`absorption_bands`; material '" +
                 m.name + "' (" + room_face_key(face) +
                 ") is given by stiffness/damping (use tethered or auto)");
  }
  d.mirror_room = s.room.walls == RoomWalls::Mirror;
  d.ghost_room = s.room.walls == RoomWalls::Ghost;
  if (s.room.walls == RoomWalls::Auto) {
    bool particles = true;
    for (const std::string& name : s.room.face_material)
      particles = particles && mirrorable(s.material(name));
    // Mirror images are exact where each face lies dx/2 beyond the last lattice layer; elsewhere
    // the box's faces are ghost walls, which sit where the faces are.
    const bool on_lattice = room_faces_on_lattice(s);
    d.mirror_room = particles && on_lattice;
    d.ghost_room = particles && !on_lattice;
    // A ghost-walled panel lying on a mirror face would put its ghosts where the face's images
    // are: the air next to the panel then saw the wall twice (images and ghosts at the same
    // sites, reflected about different normals at the panel's edges), and the lattice there grew
    // (walls.md, "Panels on a [room] face"). The box is then ghost-walled too, one solid with the
    // panel.
    if (d.mirror_room)
      if (const std::string panel = panel_on_room_face(s); !panel.empty())
        d.mirror_room = false, d.ghost_room = true, d.room_panel = panel;
  }
  for (int face = 0; face < 6 && d.mirror_room; ++face) {
    const MaterialSpec& m = s.material(s.room.face_material[face]);
    if (bands(m))
      d.room_reacting[face] = m.impedance;
    else
      d.room_admittance[face] = m.rigid ? 0.0 : 1.0 / m.impedance.resistance;
  }
  d.emitter_face = emitter_mirror_face(s);
}

// The emitter disc lies on a ghost-walled surface (a face of a fixed mesh, or a ghost-walled
// rectangle or disc), within dx of it and parallel to it: the ghosts behind it make it a velocity
// boundary of that surface (ghost_walls.hpp), not a force wall. The solver decides the same on
// its solid geometry (emitter_on_ghost_wall, assembly.hpp).
bool emitter_on_ghost_surface(const Scene& s) {
  const EmitterSpec& e = s.emitter;
  if (!(e.radius > 0.0)) return false;
  const double dx = s.fluid.spacing;
  constexpr double kParallel = 0.99;  // ghost_walls.cpp's
  const Vec3 n = normalized(e.normal);
  for (const auto& g : s.geometries) {
    if (g.moves() || !g.mesh) continue;
    const ClosestPoint p = MeshQuery(*g.mesh).closest(e.center);
    if (p.distance <= dx && std::abs(dot(p.normal, n)) > kParallel) return true;
  }
  for (const auto& b : s.boundaries) {
    if (b.wall != BoundaryWall::Ghost || b.shape == ShapeKind::Cylinder) continue;
    if (!(std::abs(dot(normalized(b.normal), n)) > kParallel)) continue;
    if (distance_to_surface(b, e.center) <= dx) return true;
  }
  if (s.derived.ghost_room)
    for (int a = 0; a < 3; ++a)
      if (std::abs(n[a]) > kParallel &&
          (e.center[a] - s.room.min[a] <= dx || s.room.max[a] - e.center[a] <= dx))
        return true;
  return false;
}

// Some wall of the scene is a force wall: a tethered room, a tethered boundary, a moving mesh
// object, or the emitter disc (if any) where it is no velocity boundary of a mirror face or a
// ghost wall.
bool has_force_walls(const Scene& s) {
  const Derived& d = s.derived;
  return (s.room.present && !d.mirror_room && !d.ghost_room) ||
         (s.emitter.present && d.emitter_face < 0 && !emitter_on_ghost_surface(s)) ||
         std::any_of(s.boundaries.begin(), s.boundaries.end(),
                     [](const BoundarySpec& b) { return b.wall == BoundaryWall::Tethered; }) ||
         std::any_of(s.geometries.begin(), s.geometries.end(),
                     [](const GeometrySpec& g) { return g.moves(); });
}

// The time step: dt_wall from the stiffest force-wall spring, substeps from min(dt_cfl, dt_wall).
void derive_time_step(const Reader& r, Scene& s) {
  const FluidSpec& f = s.fluid;
  Derived& d = s.derived;
  const double areal_mass = f.rest_density * f.spacing;
  d.dt_wall = kInf;
  for (const auto& use : material_uses(s)) {
    const MaterialSpec& m = s.material(use.name);
    if (m.rigid || (use.section == "room" && (d.mirror_room || d.ghost_room))) continue;
    // The damper is integrated implicitly (boundary.hpp) and sets no bound; the spring acts on
    // the tethered particle's areal mass plus the material's added mass.
    const double omega = std::sqrt(m.stiffness / (areal_mass + m.mass));
    if (omega > 0.0) d.dt_wall = std::min(d.dt_wall, 0.5 / omega);
  }
  const double dt_bound = std::min(d.dt_cfl, d.dt_wall);
  const double rate = s.time.sample_rate;
  const std::string bound_text =
      "dt <= " + format_number(dt_bound) + " s (" +
      (d.dt_wall < d.dt_cfl ? "stiffest wall material"
                            : "CFL bound C h / c with [time] cfl = " + format_number(s.time.cfl) +
                                  ", [fluid] spacing = " + format_number(f.spacing) +
                                  " m, h_over_dx = " + format_number(f.h_over_dx) +
                                  ", sound_speed = " + format_number(f.sound_speed) + " m/s") +
      ")";
  const std::optional<int> needed = smallest_substeps(rate, dt_bound, max_substeps());
  if (!needed) {
    r.fail("time", "substeps",
           "the stability bound " + bound_text + " needs " +
               format_number(substeps_estimate(rate, dt_bound)) +
               " substeps per sample at sample_rate " + format_number(rate) + " Hz, more than " +
               std::to_string(max_substeps()));
  }
  if (s.time.substeps == 0) {
    d.substeps = *needed;
  } else {
    if (s.time.substeps < *needed) {
      r.fail("time", "substeps",
             "too few for the stability bound " + bound_text + " at sample_rate " +
                 format_number(rate) + " Hz: at least " + format_number(*needed) +
                 " needed (or 0 for automatic)");
    }
    d.substeps = s.time.substeps;
  }
  d.dt = 1.0 / (rate * d.substeps);
  d.samples = std::llround(s.time.duration * rate);
  if (d.samples < 1) {
    r.fail("time", "duration",
           "shorter than one sample at sample_rate " + format_number(rate) + " Hz");
  }
  d.steps = d.samples * d.substeps;
}

void check_filters(const Reader& r, const Scene& s) {
  const FluidSpec& f = s.fluid;
  const Derived& d = s.derived;
  // Forward Euler every n steps on the fastest mode, eps c lambda_max^2 / dx: rate x n dt <= 1
  // (stable to 2). The same limit for the density's filter and the velocity's.
  const auto filter_limit = [&](const char* key, double eps) {
    if (!(eps > 0.0)) return;
    const double lam = laplacian_symbol_max(f.kernel, f.h_over_dx);
    const double interval = kHyperdiffusionEvery * d.dt;
    const double eps_max = f.spacing / (f.sound_speed * lam * lam * interval);
    if (eps > eps_max)
      r.fail("fluid", key,
             "unstable at dt = " + format_number(d.dt) + " s: at most " + format_number(eps_max) +
                 " (the zone-corner rate eps c lambda^2 / dx, lambda = " + format_number(lam) +
                 " / dx^2, times the filter's interval " + std::to_string(kHyperdiffusionEvery) +
                 " dt must stay below 1)");
  };
  filter_limit("hyperdiffusion", f.hyperdiffusion);
  filter_limit("hyperviscosity", f.hyperviscosity);
  if (f.gradient_correction == GradientCorrection::FourthOrder && f.h_over_dx <= 1.0 + 1e-9) {
    r.fail("fluid", "gradient_correction",
           "fourth_order needs h_over_dx > 1 (the support 2h must reach the second lattice "
           "neighbour along an axis); use first_moment at h_over_dx = " +
               format_number(f.h_over_dx));
  }
}

}  // namespace

void check_materials(const Reader& r, const Scene& s) {
  std::vector<std::string> names;
  for (const auto& m : s.materials) names.push_back(m.name);
  for (const auto& use : material_uses(s)) {
    if (std::find(names.begin(), names.end(), use.name) == names.end()) {
      r.fail(use.section, use.key,
             "unknown material (defined: " + join(names) + "; add a [material." + use.name +
                 "] section)");
    }
  }
}

// passes.hpp: the NAME of the first ghost-walled [boundary] rectangle or disc lying on a face of
// the [room] box (its plane that of the face within 1e-6 dx, its normal along the face's axis); ""
// if none.
std::string panel_on_room_face(const Scene& s) {
  for (const BoundarySpec& b : s.boundaries)
    if (b.wall == BoundaryWall::Ghost && room_face_under(s, b, 1e-6 * s.fluid.spacing) >= 0)
      return b.name;
  return "";
}

void derive(const Reader& r, Scene& s) {
  const FluidSpec& f = s.fluid;
  Derived& d = s.derived;
  const double dx = f.spacing;
  d.h = f.h_over_dx * dx;
  d.support = 2.0 * d.h;
  d.skin = f.skin * dx;
  d.halo_width = d.support + d.skin;
  d.particle_mass = f.rest_density * dx * dx * dx;
  d.dt_cfl = s.time.cfl * d.h / f.sound_speed;
  // A wall spring k (Pa/m) acts on the air column rho0 dx behind unit area: omega^2 = k/(rho0 dx).
  // Rigid walls get the stiffness whose bound 0.5/omega equals dt_cfl.
  d.rigid_stiffness = f.rest_density * dx * std::pow(0.5 / d.dt_cfl, 2);
  derive_materials(s);
  warn_material_fits(s);
  derive_room_walls(r, s);
  d.ghost_walls = d.ghost_room ||
                  std::any_of(s.geometries.begin(), s.geometries.end(),
                              [](const GeometrySpec& g) { return !g.moves(); }) ||
                  std::any_of(s.boundaries.begin(), s.boundaries.end(),
                              [](const BoundarySpec& b) { return b.wall == BoundaryWall::Ghost; });
  d.halo_depth = d.halo_width + (d.ghost_walls ? 3.0 * dx : 0.0);
  derive_time_step(r, s);
  check_filters(r, s);
  d.ppw_min = ppw_for_phase_error(f.gradient_correction, f.kernel, f.h_over_dx, kFmaxPhaseError);
  d.f_max_bulk = f.sound_speed / (d.ppw_min * dx);
  // The force walls' valid band, where there are any (the mirror and ghost walls are exact well
  // above it, V6 and V12; the disc on a mirror face is a velocity boundary of it).
  d.f_max_walls = has_force_walls(s) ? f.sound_speed / (kForceWallPpw * dx) : kInf;
  d.f_max = std::min(d.f_max_bulk, d.f_max_walls);
}

void check_fill_box(const Reader& r, const Scene& s) {
  const FluidSpec& f = s.fluid;
  const double need = 2.0 * s.derived.halo_width;
  const bool explicit_fill = r.has("fluid", "fill_min") || r.has("fluid", "fill_max");
  const char* axes[] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const double side = f.fill_max[a] - f.fill_min[a];
    if (side >= need) continue;
    const std::string what =
        "room/fill box is thinner than 2 x halo_width = " + format_number(need) + " m along " +
        axes[a] + " (side " + format_number(side) +
        " m; halo_width = 2 h + skin at [fluid] spacing = " + format_number(f.spacing) +
        " m); enlarge the box or reduce [fluid] spacing";
    if (explicit_fill) {
      r.fail("fluid", r.has("fluid", "fill_max") ? "fill_max" : "fill_min", what);
    }
    r.fail("room", "max", what);
  }
}

}  // namespace config_detail
}  // namespace sphreverb
