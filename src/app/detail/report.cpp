#include "app/detail/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "sphreverb/io/checkpoint.hpp"
#include "sphreverb/io/output.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/model/mesh_check.hpp"
#include "sphreverb/model/point_source.hpp"
#include "sphreverb/physics/dispersion.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/solver/assembly.hpp"
#include "sphreverb/solver/cost.hpp"
#include "sphreverb/solver/covered_faces.hpp"
#include "sphreverb/solver/hybrid_assembly.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb::app {

namespace {

// "  room walls ..." : how the [room] faces are built and what they are.
std::string room_walls_line(const Scene& s) {
  if (!s.room.present) return "";
  std::ostringstream o;
  o.precision(4);
  const Derived& d = s.derived;
  o << "  room walls           "
    << (d.mirror_room           ? "mirror"
        : !d.room_panel.empty() ? "ghost walls of the box ([boundary." + d.room_panel +
                                      "] is a ghost panel lying on a face: one solid with it)"
        : d.ghost_room ? "ghost walls of the box (its faces are off the lattice's dx/2 position)"
                       : "tethered force walls")
    << ":";
  for (int f = 0; f < 6; ++f) {
    o << " " << room_face_key(f).substr(9) << " " << s.room.face_material[f];
    if (d.mirror_room && d.room_admittance[f] > 0.0)
      o << " (R = " << 1.0 / d.room_admittance[f] << " Pa s/m)";
    if (d.mirror_room && d.room_reacting[f].mass > 0.0)
      o << " (R = " << d.room_reacting[f].resistance << " Pa s/m, M = " << d.room_reacting[f].mass
        << " kg/m^2, K = " << d.room_reacting[f].stiffness << " Pa/m)";
  }
  o << "\n";
  return o.str();
}

// "  wall boundary.NAME ..." lines: each [boundary] shape's wall treatment and why.
std::string boundary_walls_lines(const Scene& s) {
  std::ostringstream o;
  for (const BoundarySpec& b : s.boundaries)
    o << "  wall boundary." << b.name << "  " << to_string(b.wall) << " (" << b.wall_reason
      << ")\n";
  return o.str();
}

// "  hyperdiffusion ..." (and "  hyperviscosity ..." where on) with the T60 cap each filter alone
// puts on a plane wave at f_max (interactions.hpp).
std::string hyperdiffusion_line(const Scene& s) {
  const FluidSpec& f = s.fluid;
  const double k = 2.0 * std::numbers::pi * s.derived.f_max / f.sound_speed;
  const auto cap = [&](double eps) {
    return 2.0 * std::log(1e3) / (eps * f.sound_speed * std::pow(f.spacing, 3) * std::pow(k, 4));
  };
  std::ostringstream o;
  o.precision(3);
  if (f.hyperdiffusion <= 0.0)
    o << "  hyperdiffusion       off\n";
  else
    o << "  hyperdiffusion       " << f.hyperdiffusion << " (every " << kHyperdiffusionEvery
      << " steps): T60 cap " << cap(f.hyperdiffusion) << " s at f_max, ~f^-4 below\n";
  if (const double eps = hyperviscosity_of(s); eps > 0.0)
    o << "  hyperviscosity       " << eps << (f.hyperviscosity_auto ? " (auto: " : " (")
      << "the same filter on the velocity): T60 cap " << cap(eps)
      << " s at f_max in the air, more at mesh walls (docs/limitations.md)\n";
  return o.str();
}

// "  checkpoints ...": sizes at the end of stage 1 (all the input still to play) and at the end
// of the run (every receiver record), and the cadence.
std::string checkpoints_line(const Scene& s, const Decomposition& dec) {
  const Derived& d = s.derived;
  const bool builtin = s.emitter.input == "impulse" || s.emitter.input == "sweep";
  const double input = static_cast<double>(d.samples);  // samples of a built-in input
  const double first = checkpoint_bytes(s, dec.particles, 0, builtin ? input : 0.0);
  const double last = checkpoint_bytes(s, dec.particles, d.steps, 0.0);
  std::ostringstream o;
  o.precision(4);
  o << "  checkpoints          ~" << first * 1e-6 << " MB"
    << (builtin ? "" : " plus 8 bytes per input sample still to play") << " after stage 1, ~"
    << last * 1e-6 << " MB at the end (receiver records grow "
    << 8.0 * static_cast<double>(s.receivers.size()) << " bytes per step)";
  if (s.output.checkpoint_every > 0)
    o << ", every " << std::max<std::int64_t>(1, std::llround(s.output.checkpoint_every / d.dt))
      << " steps (" << s.output.checkpoint_every << " s)";
  o << "; " << s.output.keep_checkpoints << " kept\n";
  return o.str();
}

// "  mesh ..." lines: each [geometry.NAME] mesh as read (after its transform).
std::string meshes_report(const Scene& s) {
  std::ostringstream o;
  o.precision(4);
  for (const GeometrySpec& g : s.geometries) {
    const MeshFacts f = mesh_facts(*g.mesh);
    o << "  mesh geometry." << g.name << "  " << to_string(g.role) << ", " << g.file << ": "
      << f.triangles << " triangles, " << f.vertices << " vertices, " << f.surfaces.size()
      << " surfaces, volume " << f.volume << " m^3, from (" << f.min.x << " " << f.min.y << " "
      << f.min.z << ") to (" << f.max.x << " " << f.max.y << " " << f.max.z << ") m\n";
  }
  return o.str();
}

// The particle count, or "~N +- sigma (sampled ...)" when the meshes' sites were sampled.
std::string particles_text(const Decomposition& dec) {
  if (dec.sampled_sites == 0) return std::to_string(dec.particles);
  std::ostringstream o;
  o.precision(2);
  o << "~" << dec.particles << " +- " << std::max(1.0, dec.particles_sigma)
    << " (one standard deviation: the meshes' sites sampled, see mesh set-up)";
  return o.str();
}

// "  mesh set-up ...": the time to read and check the mesh files and to classify the lattice.
std::string mesh_setup_line(const Scene& s, const Decomposition& dec) {
  if (s.geometries.empty()) return "";
  std::ostringstream o;
  o.precision(3);
  double read = 0.0;
  for (const GeometrySpec& g : s.geometries) read += g.read_seconds;
  const Lattice lattice = Lattice::filling(s.fluid.fill_min, s.fluid.fill_max, s.fluid.spacing);
  o << "  mesh set-up          " << s.geometries.size() << " mesh(es) read and checked in " << read
    << " s; ";
  if (dec.sampled_sites > 0)
    o << dec.sampled_sites << " of " << static_cast<double>(lattice.sites())
      << " lattice sites sampled (one per block of " << dec.sample_block << "^3) in "
      << dec.classify_seconds << " s; `run` classifies every site\n";
  else
    o << static_cast<double>(lattice.sites()) << " lattice sites classified in "
      << dec.classify_seconds << " s\n";
  return o.str();
}

}  // namespace

std::string surfaces_report(const Scene& s) {
  std::ostringstream o;
  o.precision(4);
  o << meshes_report(s);
  const std::vector<SceneSurface> surfaces = exposed_surfaces(s);
  std::size_t width = 20;
  for (const SceneSurface& f : surfaces) width = std::max(width, f.name.size() + 2);
  o << "  surfaces             " << surfaces.size()
    << " (area the air sees, of one side; a plate in the air counts twice, one on a "
       "room face once, in the face's place)\n";
  for (const SceneSurface& f : surfaces) {
    o << "    " << f.name << std::string(width - f.name.size(), ' ') << f.area << " m^2";
    if (f.sides == 2) o << " x 2";
    o << "  " << f.material << "\n";
  }
  o << "  area per material   ";
  const char* sep = " ";
  for (const auto& [material, area] : area_per_material(s)) {
    o << sep << material << " " << area << " m^2";
    sep = ", ";
  }
  o << "\n";
  bool known = false;
  const Reverberation r = scene_reverberation(s, known);
  o << "  air volume           " << air_volume(s) << " m^3";
  if (!s.geometries.empty()) o << " (the room less its objects, from the meshes)";
  o << "\n";
  if (!known) {
    o << "  reverberation        not estimated: a material is given by stiffness and damping, "
         "not by its absorption\n";
    return o.str();
  }
  const auto row = [&](const char* label, const std::array<double, 6>& v, int digits) {
    o << label;
    for (double x : v) {
      std::ostringstream cell;
      cell.precision(digits);
      if (std::isinf(x))
        cell << "inf";
      else
        cell << std::fixed << x;
      o << " " << std::string(cell.str().size() < 7 ? 7 - cell.str().size() : 0, ' ') << cell.str();
    }
    o << "\n";
  };
  std::array<double, 6> bands{};
  for (std::size_t b = 0; b < bands.size(); ++b) bands[b] = kOctaveBands[b];
  o << "  diffuse field        surface " << r.area << " m^2, c = " << s.fluid.sound_speed
    << " m/s, no air absorption; octaves above f_max = " << s.derived.f_max
    << " Hz are beyond the resolution\n";
  row("    octave (Hz)      ", bands, 0);
  o << "    the SPH walls as fitted at this spacing (the SPH band, below the crossover):\n";
  row("    mean alpha random", r.mean_alpha, 3);
  row("    Sabine T60 (s)   ", r.sabine, 3);
  row("    Eyring T60 (s)   ", r.eyring, 3);
  bool tables_known = false;
  const Reverberation t = table_reverberation(s, tables_known);
  if (tables_known) {
    o << "    the materials' tables (absorption_octaves; the geometric band, above the "
         "crossover):\n";
    row("    mean alpha random", t.mean_alpha, 3);
    row("    Sabine T60 (s)   ", t.sabine, 3);
    row("    Eyring T60 (s)   ", t.eyring, 3);
  }
  for (const MaterialSpec& m : s.materials) {
    if (m.absorption.size() != kOctaveBands.size()) continue;
    std::array<double, 6> given{};
    std::copy(m.absorption.begin(), m.absorption.end(), given.begin());
    o << "  material " << m.name << " (normal incidence, fit rms " << m.fit_rms << ")\n";
    row("    alpha_n requested", given, 3);
    row("    alpha_n fitted   ", m.fitted, 3);
  }
  return o.str();
}

double checkpoint_bytes(const Scene& s, std::int64_t particles, std::int64_t acoustic_steps,
                        double input_samples_left) {
  const double records =
      static_cast<double>(s.receivers.size()) * static_cast<double>(acoustic_steps + 1);
  return static_cast<double>(particles) * kCheckpointBytesPerParticle + 8.0 * records +
         8.0 * input_samples_left + static_cast<double>(s.text.size()) + kCheckpointOverhead;
}

// [hybrid]: the crossover and the geometric part's estimated cost: every ray runs the whole
// record, one AABB-tree query per mean free path 4V/S (V = hybrid_volume, S the [room] box's area
// or else the traced surfaces'), at the 2 us per query measured in docs/theory/geometric.md;
// every source traces the [hybrid] rays. An estimate, not a bound: 4V/S is the mean over the
// rays, and a ray caught in a corner or a narrow part takes shorter segments (rays that fade
// below the energy floor or leave through a gap take fewer).
std::string hybrid_line(const Scene& s, int ranks) {
  if (!s.hybrid.present) return "";
  // What the run does: the rays it traces (none when phased images cover the record), and
  // whether a box's images are phased.
  const HybridPlan plan = make_hybrid_plan(s);
  const double volume = hybrid_volume(s);
  const double area = hybrid_area(s, plan);
  const double length = static_cast<double>(s.derived.samples) / s.time.sample_rate;
  const bool phased = plan.phased_images;
  const std::size_t sources = plan.sources.size();
  const std::uint64_t rays = plan.rays.rays * sources;
  const double segments =
      static_cast<double>(rays) *
      std::max(1.0, s.fluid.sound_speed * length / (4.0 * volume / std::max(area, 1e-12)));
  std::ostringstream o;
  o.precision(3);
  o << "  hybrid               crossover " << s.hybrid.crossover << " Hz ("
    << s.hybrid.crossover_basis << "; overlap octave " << 0.5 * s.hybrid.crossover << "-"
    << s.hybrid.crossover << " Hz); ";
  if (sources == 0) {
    o << "no sounding source: the geometric part is silent\n";
    return o.str();
  }
  if (sources != 1) o << sources << " sources; ";
  if (rays > 0)
    o << rays << " rays, ~" << segments << " ray segments (one per mean free path 4V/S), ~"
      << segments * 2e-6 / ranks << " s on each of " << ranks << " ranks; ";
  else
    o << "no rays; ";
  if (!plan.box_images && !plan.poly_images) {
    o << "no image sources\n";
    return o.str();
  }
  o << (phased ? "phased" : "octave-band") << (plan.poly_images ? " polyhedral" : "")
    << " image sources up to " << std::min(s.hybrid.image_time, length) * 1e3 << " ms";
  if (plan.poly_images) {
    // The enumeration's work before it runs: the unpruned candidate count, and the images the
    // reach holds (about 4/3 pi (c t)^3 / V, fewer at the order limit).
    const double reach = s.fluid.sound_speed * std::min(s.hybrid.image_time, length);
    o << ", order <= " << s.hybrid.image_order << " (" << plan.faces.size()
      << " faces, <= " << candidate_bound(plan.faces.size(), static_cast<int>(s.hybrid.image_order))
      << " candidates per source and receiver; the reach holds ~"
      << 4.0 / 3.0 * std::numbers::pi * reach * reach * reach / volume << " images of every order)";
    if (candidate_bound(plan.faces.size(), static_cast<int>(s.hybrid.image_order)) >
        kManyImageCandidates)
      o << "; many candidates: a smaller image_order is faster";
    o << "\n";
    return o.str();
  }
  if (phased) {
    // images ~ 4/3 pi (c t)^3 / V per receiver, each over the FFT bins up to the phased limit
    const double reach = s.fluid.sound_speed * std::min(s.hybrid.image_time, length);
    const double images = 4.0 / 3.0 * std::numbers::pi * reach * reach * reach / volume;
    o << " (~" << images << " per source and receiver)";
  }
  o << "\n";
  return o.str();
}

std::string describe(const Scene& s, const Decomposition& dec, int ranks) {
  const Derived& d = s.derived;
  const CostEstimate cost = estimate_cost(s, dec, ranks);
  std::ostringstream o;
  o.precision(4);
  o << "scene " << s.path << "\n"
    << "  particles            " << particles_text(dec) << " (spacing " << s.fluid.spacing * 1e3
    << " mm, h = " << d.h * 1e3 << " mm, " << to_string(s.fluid.kernel) << ")\n"
    << "  time step            " << d.dt * 1e6 << " us = 1/(" << s.time.sample_rate << " Hz x "
    << d.substeps << " substeps); CFL bound " << d.dt_cfl * 1e6 << " us";
  if (std::isfinite(d.dt_wall)) o << ", wall bound " << d.dt_wall * 1e6 << " us";
  o << "\n"
    << "  steps                " << d.steps << " for " << s.time.duration * 1e3 << " ms ("
    << d.samples << " samples), plus stage 1 (at most " << s.equilibrium.max_steps << ")\n"
    << "  particle-steps       " << cost.particle_steps << "\n"
    << "  highest usable freq. " << d.f_max << " Hz, the lower of the air's " << d.f_max_bulk
    << " Hz (" << d.ppw_min << " spacings per wavelength, where the phase-speed error of "
    << to_string(s.fluid.kernel) << " at h/dx = " << s.fluid.h_over_dx << " with the "
    << to_string(s.fluid.gradient_correction) << " gradient reaches " << 100 * kFmaxPhaseError
    << " %, V1)";
  if (std::isfinite(d.f_max_walls))
    o << " and the force walls' " << d.f_max_walls << " Hz (" << kForceWallPpw
      << " spacings per wavelength, V6); ";
  else
    o << (s.emitter.present ? "; no force wall (mirror or ghost walls, the emitter disc a "
                              "velocity boundary of its face); "
                            : "; no force wall (mirror or ghost walls, no emitter disc); ");
  o << (s.output.lowpass ? "output low-passed at "
                         : "output NOT low-passed there ([output] "
                           "lowpass = false), anti-aliased at ")
    << output_cutoff(s) << " Hz\n"
    << room_walls_line(s) << boundary_walls_lines(s) << hyperdiffusion_line(s)
    << "  ranks                " << ranks << " of at most " << dec.max_ranks << " (slabs along "
    << "xyz"[dec.axis] << ", each >= " << dec.min_slab * 1e3 << " mm, the halo depth)\n"
    << "  memory per rank      ~" << cost.bytes_per_rank / 1048576.0 << " MiB ("
    << cost.bytes_per_particle << " bytes per particle, the fullest rank's)\n"
    << checkpoints_line(s, dec) << hybrid_line(s, ranks) << mesh_setup_line(s, dec);
  for (const auto& n : s.notes) o << "  note: " << n << "\n";
  for (const auto& w : s.warnings) o << "  warning: " << w << "\n";
  return o.str();
}

std::vector<std::string> source_level_warnings(const Scene& s, const std::vector<Signal>& inputs) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < s.sources.size() && k < inputs.size(); ++k) {
    const SourceSpec& src = s.sources[k];
    const double sigma = src.width * s.fluid.spacing;
    const double volume =
        source_peak_volume(inputs[k], make_source_drive_params(s, k), s.derived.steps);
    const double ratio = source_displacement_ratio(volume, sigma);
    if (!(ratio > kSourceDisplacementWarn)) continue;
    std::ostringstream o;
    o << std::setprecision(3) << "[emitter." << src.name << "] level = " << src.level
      << " Pa with its input injects up to " << volume * 1e6 << " cm^3, pushing the air at its "
      << "Gaussian by ~" << ratio << " of its width s = " << sigma * 1e3 << " mm (above "
      << kSourceDisplacementWarn << "): the record departs from linear in the level by about "
      << "that fraction within 25 ms and more later, and from ~0.02 the air around the source can "
         "leave its lattice sites (docs/limitations.md); lower level (the outputs scale "
         "linearly) or raise width";
    out.push_back(o.str());
  }
  return out;
}

}  // namespace sphreverb::app
