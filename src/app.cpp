#include "sphreverb/app.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>

#include "detail/json.hpp"
#include "sphreverb/dispersion.hpp"
#include "sphreverb/kernel.hpp"
#include "sphreverb/log.hpp"
#include "sphreverb/output.hpp"
#include "sphreverb/scene.hpp"
#include "sphreverb/signal.hpp"
#include "sphreverb/simulation.hpp"
#include "sphreverb/version.hpp"

namespace sphreverb {

namespace {

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
int size_of(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

// Runs f on rank 0 only; the outcome (ok, or the error message) is broadcast, and every rank
// throws the same error if rank 0 failed. Collective over comm.
template <class Error, class Fn>
void on_root(MPI_Comm comm, Fn&& f) {
  std::string error;
  if (rank_of(comm) == 0) {
    try {
      f();
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "unknown error";
    }
  }
  int n = static_cast<int>(error.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, comm);
  error.resize(static_cast<std::size_t>(n));
  MPI_Bcast(error.data(), n, MPI_CHAR, 0, comm);
  if (n > 0) throw Error(error);
}

// The input at the run's sample rate (rank 0).
Signal load_input(const Scene& s) {
  const EmitterSpec& e = s.emitter;
  const double rate = s.time.sample_rate, duration = s.time.duration;
  if (e.input == "impulse") return make_impulse(rate, duration);
  if (e.input == "sweep") return make_sweep(rate, duration, 20.0, std::min(20000.0, 0.45 * rate));
  Signal in = read_wav(e.input);
  if (in.rate != rate) {
    logger("io")->info("input {}: resampling {} Hz -> {} Hz", e.input, in.rate, rate);
    in = resample(in, rate);
  }
  return in;
}

// Bytes per particle of the solver's storage, estimated for `check` (owned particles; halo
// copies and ghosts add their share through `copies`).
double bytes_per_particle(const Scene& s, double copies) {
  const double list_radius = s.derived.halo_width / s.fluid.spacing;
  const double listed = 4.0 / 3.0 * std::numbers::pi * list_radius * list_radius * list_radius;
  const double fields = 15 * 8.0, rebuild_copy = 3 * 8.0, scratch = 8.0;
  return fields * (1.0 + copies) + rebuild_copy + scratch * (1.0 + copies) + 4.0 * (listed + 1.0);
}

std::string describe(const Scene& s, const Decomposition& dec, int ranks) {
  const Derived& d = s.derived;
  const double slab = (s.fluid.fill_max[dec.axis] - s.fluid.fill_min[dec.axis]) / ranks;
  const double copies = (ranks > 1 ? 2.0 : 0.0) * d.halo_width / slab;
  const double per_rank = static_cast<double>(dec.particles) / ranks;
  std::ostringstream o;
  o.precision(4);
  o << "scene " << s.path << "\n"
    << "  particles            " << dec.particles << " (spacing " << s.fluid.spacing * 1e3
    << " mm, h = " << d.h * 1e3 << " mm, " << to_string(s.fluid.kernel) << ")\n"
    << "  time step            " << d.dt * 1e6 << " us = 1/(" << s.time.sample_rate << " Hz x "
    << d.substeps << " substeps); CFL bound " << d.dt_cfl * 1e6 << " us";
  if (std::isfinite(d.dt_wall)) o << ", wall bound " << d.dt_wall * 1e6 << " us";
  o << "\n"
    << "  steps                " << d.steps << " for " << s.time.duration * 1e3 << " ms ("
    << d.samples << " samples), plus stage 1 (at most " << s.equilibrium.max_steps << ")\n"
    << "  particle-steps       " << static_cast<double>(dec.particles * d.steps) << "\n"
    << "  highest usable freq. " << d.f_max << " Hz (" << d.ppw_min
    << " spacings per wavelength, where the measured phase-speed error of "
    << to_string(s.fluid.kernel) << " at h/dx = " << s.fluid.h_over_dx << " reaches "
    << 100 * kFmaxPhaseError << " %, V1); "
    << (s.output.lowpass ? "output low-passed at "
                         : "output NOT low-passed there ([output] "
                           "lowpass = false), anti-aliased at ")
    << output_cutoff(s) << " Hz\n"
    << "  ranks                " << ranks << " of at most " << dec.max_ranks << " (slabs along "
    << "xyz"[dec.axis] << ", each >= " << d.halo_width * 1e3 << " mm)\n"
    << "  memory per rank      ~" << per_rank * bytes_per_particle(s, copies) / 1048576.0
    << " MiB (" << bytes_per_particle(s, copies) << " bytes per particle)\n";
  return o.str();
}

void write_summary(const std::string& path, const Scene& s, Simulation& sim, const StageStats& st1,
                   const StageStats& st2, const std::vector<ReceiverOutput>& outs,
                   const std::vector<GroupOutput>& groups, double wall_total, double npp,
                   const std::vector<std::int64_t>& per_rank) {
  const Derived& d = s.derived;
  detail::Json j;
  j.begin_object();
  j.field("particles", sim.global_particles());
  j.field("steps", st2.steps);
  j.field("wall_seconds", st2.wall_seconds);
  j.field("particle_steps_per_second",
          st2.wall_seconds > 0
              ? static_cast<double>(sim.global_particles() * st2.steps) / st2.wall_seconds
              : 0.0);
  j.field("neighbours_per_particle", npp);
  j.field("ranks", static_cast<int>(per_rank.size()));
  j.array("particles_per_rank", per_rank);
  j.field("rebuilds", sim.rebuilds());
  j.field("total_wall_seconds", wall_total);
  j.key("equilibrium").begin_object();
  j.field("steps", st1.steps).field("wall_seconds", st1.wall_seconds);
  j.field("kinetic_energy_J", st1.final_energy).end_object();
  j.key("derived").begin_object();
  j.field("h_m", d.h).field("support_m", d.support).field("particle_mass_kg", d.particle_mass);
  j.field("dt_s", d.dt).field("substeps", d.substeps).field("samples", d.samples);
  j.field("f_max_Hz", d.f_max).field("lowpass_Hz", output_cutoff(s));
  j.field("ppw_at_f_max", d.ppw_min).field("phase_error_at_f_max", kFmaxPhaseError);
  j.field("lowpass", s.output.lowpass).end_object();
  j.key("receivers").begin_array();
  for (const ReceiverOutput& o : outs) {
    j.begin_object().field("name", o.name).field("wav", o.wav).field("raw_wav", o.raw_wav);
    j.field("samples", o.samples).field("peak_Pa", o.peak_pascal);
    j.field("reference_density_kg_m3", o.reference_density).end_object();
  }
  j.end_array();
  j.key("groups").begin_array();
  for (const GroupOutput& g : groups) {
    j.begin_object().field("name", g.name).field("wav", g.wav).field("raw_wav", g.raw_wav);
    j.array("channels", g.channels).end_object();
  }
  j.end_array();
  if (s.output.energy) j.field("energy_csv", std::string("energy.csv"));
  j.key("versions").begin_object();
  for (const auto& [name, v] : versions()) j.field(name, v);
  j.end_object();
  j.field("scene_path", s.path);
  j.key("scene_overrides").begin_object();
  for (const auto& [k, v] : s.overrides) j.field(k, v);
  j.end_object();
  j.field("scene", s.text);
  j.end_object();
  write_file_atomically(path, j.str());
}

}  // namespace

int check_command(const Command& cmd, MPI_Comm comm) {
  setup_logging(rank_of(comm));
  try {
    const Scene scene = load_scene(cmd.scene, cmd.overrides);
    const Decomposition dec = Decomposition::of(scene);
    const int ranks = cmd.ranks > 0 ? cmd.ranks : size_of(comm);
    if (rank_of(comm) == 0) std::cout << describe(scene, dec, ranks);
    if (ranks > dec.max_ranks) {
      if (rank_of(comm) == 0)
        logger("run")->error(
            "{}: too thin for {} ranks: at most {} (each slab must be at least "
            "{} m thick)",
            cmd.scene, ranks, dec.max_ranks, scene.derived.halo_width);
      return kExitBadInput;
    }
    return kExitOk;
  } catch (const std::exception& e) {
    if (rank_of(comm) == 0) logger("run")->error("{}", e.what());
    return kExitBadInput;
  }
}

int run_command(const Command& cmd, MPI_Comm comm) {
  const int rank = rank_of(comm);
  const auto start = std::chrono::steady_clock::now();
  setup_logging(rank);
  int code = kExitBadInput;
  try {
    const Scene scene = load_scene(cmd.scene, cmd.overrides);
    const std::string dir = cmd.out.empty() ? scene.output.dir : cmd.out;
    on_root<SceneError>(comm, [&] {
      std::filesystem::create_directories(dir);
      const std::string probe = dir + "/.sphreverb-write-test";
      if (!std::ofstream(probe)) throw SceneError(dir + ": output directory is not writable");
      std::filesystem::remove(probe);
      // A previous run's outputs must not pass for this run's while it is under way.
      for (const ReceiverSpec& r : scene.receivers)
        for (const std::string& name : {r.name, r.group})
          if (!name.empty())
            for (const std::string& f : {name + ".wav", name + ".raw.wav"})
              std::filesystem::remove(dir + "/" + f);
      std::filesystem::remove(dir + "/energy.csv");
      std::filesystem::remove(dir + "/summary.json");
    });
    setup_logging(rank, dir + "/sphreverb.log");
    auto log = logger("run");
    log->info("sphreverb {} on {} rank(s): {}", SPHREVERB_VERSION, size_of(comm), scene.path);

    Signal input;
    on_root<SignalError>(comm, [&] { input = load_input(scene); });

    code = kExitRunFailed;
    Simulation sim(scene, comm);  // DecompositionError: bad input
    if (rank == 0) {
      std::istringstream lines(describe(scene, sim.decomposition(), size_of(comm)));
      for (std::string line; std::getline(lines, line);) log->info("{}", line);
    }
    const StageStats st1 = sim.equilibrate();
    const StageStats st2 = sim.record(input);
    const double npp = sim.neighbours_per_particle();
    const std::vector<std::int64_t> per_rank = sim.particles_per_rank();
    const double rate =
        st2.wall_seconds > 0
            ? static_cast<double>(sim.global_particles() * st2.steps) / st2.wall_seconds
            : 0.0;
    log->info(
        "stage 2: {} steps in {:.2f} s: {:.3g} particle-steps/s ({:.3g} per rank), {} "
        "neighbour rebuilds, {:.1f} neighbours per particle",
        st2.steps, st2.wall_seconds, rate, rate / size_of(comm), sim.rebuilds(), npp);
    on_root<CollectiveError>(comm, [&] {
      const auto outs = write_receiver_wavs(scene, sim.receivers(), dir);
      const auto groups = write_group_wavs(scene, outs, dir);
      for (const GroupOutput& g : groups)
        log->info("wrote {}/{} and {} ({} channels)", dir, g.wav, g.raw_wav, g.channels.size());
      if (scene.output.energy) write_energy_csv(dir + "/energy.csv", sim.energy());
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      write_summary(dir + "/summary.json", scene, sim, st1, st2, outs, groups, wall, npp, per_rank);
      for (const ReceiverOutput& o : outs)
        log->info("wrote {}/{} and {} ({} samples, peak {:.3g} Pa)", dir, o.wav, o.raw_wav,
                  o.samples, o.peak_pascal);
    });
    log->info("done in {:.1f} s",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return kExitOk;
  } catch (const SceneError& e) {  // every rank parsed the same file, or rank 0 broadcast it
    if (rank == 0) logger("run")->error("{}", e.what());
    return kExitBadInput;
  } catch (const SignalError& e) {
    if (rank == 0) logger("run")->error("{}", e.what());
    return kExitBadInput;
  } catch (const DecompositionError& e) {
    if (rank == 0) logger("run")->error("{}: {}", cmd.scene, e.what());
    return kExitBadInput;
  } catch (const CollectiveError& e) {
    if (rank == 0) logger("run")->error("{}", e.what());
    return code;
  } catch (const std::exception& e) {
    // Raised on this rank alone: the others may wait in a collective, so end the whole job.
    logger("run")->critical("rank {}: {}", rank, e.what());
    if (size_of(comm) > 1) MPI_Abort(comm, kExitRunFailed);
    return kExitRunFailed;
  }
}

}  // namespace sphreverb
