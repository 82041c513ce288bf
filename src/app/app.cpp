#include "sphreverb/app/app.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "io/detail/json.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/io/checkpoint.hpp"
#include "sphreverb/physics/dispersion.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/physics/material.hpp"
#include "sphreverb/io/output.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/audio/resample.hpp"
#include "sphreverb/audio/test_signals.hpp"
#include "sphreverb/audio/wav.hpp"
#include "sphreverb/solver/cost.hpp"
#include "sphreverb/solver/simulation.hpp"
#include "sphreverb/solver/simulation_state.hpp"
#include "sphreverb/io/snapshot.hpp"
#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/core/timing.hpp"
#include "sphreverb/core/version.hpp"

namespace sphreverb {

namespace {

using detail::rank_of;
using detail::size_of;

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
  Signal in = read_wav(e.input, "[emitter] input");
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

// "  room walls ..." for `check` and the log: how the [room] faces are built and what they are.
std::string room_walls_line(const Scene& s) {
  if (!s.room.present) return "";
  std::ostringstream o;
  o.precision(4);
  const Derived& d = s.derived;
  o << "  room walls           " << (d.mirror_room ? "mirror" : "tethered force walls") << ":";
  for (int f = 0; f < 6; ++f) {
    o << " " << room_face_key(f).substr(9) << " " << s.room.face_material[f];
    if (d.mirror_room && d.room_admittance[f] > 0.0)
      o << " (R = " << 1.0 / d.room_admittance[f] << " Pa s/m)";
  }
  o << "\n";
  return o.str();
}

// "  hyperdiffusion ..." with the T60 cap it puts on a plane wave at f_max (interactions.hpp).
std::string hyperdiffusion_line(const Scene& s) {
  const FluidSpec& f = s.fluid;
  if (f.hyperdiffusion <= 0.0) return "  hyperdiffusion       off\n";
  const double k = 2.0 * std::numbers::pi * s.derived.f_max / f.sound_speed;
  const double rate = f.hyperdiffusion * f.sound_speed * std::pow(f.spacing, 3) * std::pow(k, 4);
  std::ostringstream o;
  o.precision(3);
  o << "  hyperdiffusion       " << f.hyperdiffusion << " (every " << kHyperdiffusionEvery
    << " steps): T60 cap " << 2.0 * std::log(1e3) / rate << " s at f_max, ~f^-4 below\n";
  return o.str();
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
    << "  highest usable freq. " << d.f_max << " Hz, the lower of the air's " << d.f_max_bulk
    << " Hz (" << d.ppw_min << " spacings per wavelength, where the phase-speed error of "
    << to_string(s.fluid.kernel) << " at h/dx = " << s.fluid.h_over_dx << " with the "
    << to_string(s.fluid.gradient_correction) << " gradient reaches " << 100 * kFmaxPhaseError
    << " %, V1) and the force walls' " << d.f_max_walls << " Hz (" << kForceWallPpw
    << " spacings per wavelength, V6); "
    << (s.output.lowpass ? "output low-passed at "
                         : "output NOT low-passed there ([output] "
                           "lowpass = false), anti-aliased at ")
    << output_cutoff(s) << " Hz\n"
    << room_walls_line(s) << hyperdiffusion_line(s) << "  ranks                " << ranks
    << " of at most " << dec.max_ranks << " (slabs along "
    << "xyz"[dec.axis] << ", each >= " << d.halo_width * 1e3 << " mm)\n"
    << "  memory per rank      ~" << per_rank * bytes_per_particle(s, copies) / 1048576.0
    << " MiB (" << bytes_per_particle(s, copies) << " bytes per particle)\n";
  o << "  checkpoints          ~"
    << static_cast<double>(dec.particles) * kCheckpointBytesPerParticle * 1e-6
    << " MB each";
  if (s.output.checkpoint_every > 0)
    o << ", every " << std::max<std::int64_t>(1, std::llround(s.output.checkpoint_every / d.dt))
      << " steps (" << s.output.checkpoint_every << " s)";
  o << ", at the end of stage 1 and of the run; " << s.output.keep_checkpoints << " kept\n";
  for (const auto& w : s.warnings) o << "  warning: " << w << "\n";
  return o.str();
}

// Stage 2's phase times (mean and max over ranks) and the peak memory (VmHWM) of every rank,
// reduced onto every rank. Collective.
struct CostReport {
  std::array<double, static_cast<std::size_t>(Phase::Count)> mean{}, max{};
  double peak_total = 0.0, peak_max = 0.0, baseline_total = 0.0;
  static CostReport of(const Simulation& sim, double baseline, MPI_Comm comm) {
    CostReport r;
    const auto& mine = sim.timings().all();
    MPI_Allreduce(mine.data(), r.mean.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_SUM,
                  comm);
    MPI_Allreduce(mine.data(), r.max.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX,
                  comm);
    for (double& m : r.mean) m /= size_of(comm);
    double mem[2] = {static_cast<double>(peak_resident_bytes()), baseline};
    MPI_Allreduce(MPI_IN_PLACE, mem, 2, MPI_DOUBLE, MPI_SUM, comm);
    r.peak_total = mem[0], r.baseline_total = mem[1];
    r.peak_max = static_cast<double>(peak_resident_bytes());
    MPI_Allreduce(MPI_IN_PLACE, &r.peak_max, 1, MPI_DOUBLE, MPI_MAX, comm);
    return r;
  }
  // Solver bytes per particle: the ranks' peak resident memory above what they held before the
  // simulation was built (MPI, libraries, the scene and the input signal).
  double bytes_per_particle(std::int64_t particles) const {
    return particles > 0 ? (peak_total - baseline_total) / static_cast<double>(particles) : 0.0;
  }
};

void write_summary(const std::string& path, const Scene& s, Simulation& sim, const StageStats& st1,
                   const StageStats& st2, const std::vector<ReceiverOutput>& outs,
                   const std::vector<GroupOutput>& groups, double wall_total, double npp,
                   const std::vector<std::int64_t>& per_rank, const CostReport& cost) {
  const Derived& d = s.derived;
  detail::Json j;
  j.begin_object();
  j.field("particles", sim.global_particles());
  j.field("steps", st2.steps);
  j.field("wall_seconds", st2.wall_seconds);
  j.field("particle_steps_per_second",
          st2.wall_seconds > 0
              ? static_cast<double>(sim.global_particles() * st2.steps_run) / st2.wall_seconds
              : 0.0);
  j.field("neighbours_per_particle", npp);
  j.field("ranks", static_cast<int>(per_rank.size()));
  j.array("particles_per_rank", per_rank);
  j.field("rebuilds", sim.rebuilds());
  j.field("total_wall_seconds", wall_total);
  j.key("phases").begin_object();  // stage 2, seconds per rank (mean and max over ranks)
  for (std::size_t k = 0; k < kPhaseNames.size(); ++k) {
    j.key(std::string(kPhaseNames[k])).begin_object();
    j.field("seconds", cost.mean[k]).field("max_seconds", cost.max[k]);
    j.field("fraction", st2.wall_seconds > 0 ? cost.mean[k] / st2.wall_seconds : 0.0);
    j.end_object();
  }
  j.end_object();
  j.key("memory").begin_object();
  j.field("peak_bytes_total", cost.peak_total).field("peak_bytes_max_rank", cost.peak_max);
  j.field("baseline_bytes_total", cost.baseline_total);
  j.field("bytes_per_particle", cost.bytes_per_particle(sim.global_particles()));
  j.end_object();
  j.key("equilibrium").begin_object();
  j.field("steps", st1.steps).field("wall_seconds", st1.wall_seconds);
  j.field("kinetic_energy_J", st1.final_energy).end_object();
  j.key("derived").begin_object();
  j.field("h_m", d.h).field("support_m", d.support).field("particle_mass_kg", d.particle_mass);
  j.field("dt_s", d.dt).field("substeps", d.substeps).field("samples", d.samples);
  j.field("f_max_Hz", d.f_max).field("lowpass_Hz", output_cutoff(s));
  j.field("f_max_bulk_Hz", d.f_max_bulk).field("f_max_walls_Hz", d.f_max_walls);
  j.field("ppw_at_f_max", d.ppw_min).field("phase_error_at_f_max", kFmaxPhaseError);
  j.field("lowpass", s.output.lowpass);
  j.field("room_walls", !s.room.present ? "none" : (d.mirror_room ? "mirror" : "tethered"));
  j.field("hyperdiffusion", s.fluid.hyperdiffusion).end_object();
  // Every material given by its absorption: the wall model's normal-incidence alpha at the band
  // centres (what the tethered wall is built to give; V6 measures the discrete wall against it).
  j.key("materials").begin_object();
  for (const MaterialSpec& m : s.materials) {
    if (m.rigid || m.absorption.empty()) continue;
    std::vector<double> model;
    for (double f : kOctaveBands) {
      const double w = 2.0 * std::numbers::pi * f;
      model.push_back(
          normal_absorption(m.impedance.at(w) / (s.fluid.rest_density * s.fluid.sound_speed)));
    }
    j.key(m.name).begin_object();
    j.array("absorption", m.absorption).array("model_absorption_at_bands", model);
    j.field("fit_rms", m.fit_rms).end_object();
  }
  j.end_object();
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
    if (rank_of(comm) == 0)
      std::cout << describe(scene, dec, ranks)
                << cost_report(scene, estimate_cost(scene, dec, ranks));
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

namespace {

// The run stopped at a step boundary on a signal, after writing a checkpoint (every rank).
class Interrupted : public CollectiveError {
 public:
  using CollectiveError::CollectiveError;
};

// Writes checkpoints at the cadence, at the end of stage 1 and of the run, and on a stop signal
// (then stops the run by throwing Interrupted). Hooked into Simulation::on_step.
class Checkpointer {
 public:
  Checkpointer(const Scene& scene, std::string dir, Simulation& sim, const Signal& input,
               MPI_Comm comm)
      : scene_(scene), dir_(std::move(dir)), sim_(sim), input_(input), comm_(comm) {
    const double every = scene.output.checkpoint_every;
    every_ = every > 0 ? std::max<std::int64_t>(1, std::llround(every / scene.derived.dt)) : 0;
    const double snap = scene.output.snapshot_every;
    snap_every_ = snap > 0 ? std::max<std::int64_t>(1, std::llround(snap / scene.derived.dt)) : 0;
  }
  // Collective, at a step boundary.
  void after_step() {
    const std::int64_t step = sim_.total_steps();
    const bool stop = sim_.stop_agreed();  // agreed in the step's rebuild check
    if (every_ > 0 && step % every_ == 0) write("cadence");
    if (snap_every_ > 0 && step % snap_every_ == 0) {
      const CheckpointWritten w = write_snapshot(dir_, scene_, sim_.particles(), step, comm_);
      total_seconds_ += w.seconds;
      logger("io")->debug("snapshot {}: {:.3g} MB in {:.3f} s", w.path,
                          static_cast<double>(w.bytes) * 1e-6, w.seconds);
    }
    if (stop) {
      write("signal");
      throw Interrupted("stopped by signal " + std::to_string(sim_.stop_signal_agreed()) +
                        " at step " + std::to_string(step) + ": checkpoint " + last_path_ +
                        "; continue with: sphreverb restart " + last_path_);
    }
  }
  // Collective: a checkpoint of the current state, unless this step has one already.
  void write(const char* why) {
    const std::int64_t step = sim_.total_steps();
    if (step == last_step_) return;
    const CheckpointWritten w =
        write_checkpoint(dir_, scene_, sim_.export_run_state(), sim_.particles(), input_, comm_);
    last_step_ = step, last_path_ = w.path;
    total_seconds_ += w.seconds, total_bytes_ += static_cast<double>(w.bytes), ++count_;
    logger("io")->info("checkpoint {} ({}): {:.3g} MB in {:.3f} s ({:.3g} MB/s)", w.path, why,
                       static_cast<double>(w.bytes) * 1e-6, w.seconds,
                       w.seconds > 0 ? static_cast<double>(w.bytes) * 1e-6 / w.seconds : 0.0);
  }
  double seconds() const { return total_seconds_; }
  double bytes() const { return total_bytes_; }
  int count() const { return count_; }

 private:
  const Scene& scene_;
  std::string dir_;
  Simulation& sim_;
  const Signal& input_;
  MPI_Comm comm_;
  std::int64_t every_ = 0, snap_every_ = 0, last_step_ = -1;
  std::string last_path_;
  double total_seconds_ = 0.0, total_bytes_ = 0.0;
  int count_ = 0;
};

// Rank 0 (collective outcome): the output directory exists and is writable, and a previous
// run's outputs of the same names are gone; `fresh` (a new run) also removes old checkpoints.
void prepare_output(const Scene& scene, const std::string& dir, bool fresh, MPI_Comm comm) {
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
    const std::string cdir = dir + "/checkpoints";
    const std::string sdir = dir + "/snapshots";
    if (fresh && std::filesystem::is_directory(sdir))
      for (const auto& e : std::filesystem::directory_iterator(sdir)) {
        const std::string f = e.path().filename().string();
        if (f.rfind("snap_", 0) == 0 || f.rfind(".snap_", 0) == 0 || f == "snapshots.xmf")
          std::filesystem::remove(e.path());
      }
    if (fresh && std::filesystem::is_directory(cdir))
      for (const auto& e : std::filesystem::directory_iterator(cdir)) {
        const std::string f = e.path().filename().string();
        if (f.rfind("step_", 0) == 0 || f.rfind(".step_", 0) == 0 || f == "checkpoints.xmf")
          std::filesystem::remove(e.path());
      }
  });
}

// Stages 1 and 2 from wherever `sim` stands, with checkpoints, then the WAVs and summary.json.
int continue_run(const Scene& scene, const std::string& dir, Simulation& sim, const Signal& input,
                 MPI_Comm comm, std::chrono::steady_clock::time_point start, double baseline) {
  auto log = logger("run");
  const int rank = rank_of(comm);
  if (rank == 0) {
    std::istringstream lines(describe(scene, sim.decomposition(), size_of(comm)));
    for (std::string line; std::getline(lines, line);) log->info("{}", line);
  }
  Checkpointer ckpt(scene, dir, sim, input, comm);
  sim.on_step([&] { ckpt.after_step(); });
  sim.on_stop_probe(stop_signal);
  const bool stage1_pending = sim.run_state().stage == 1;
  const StageStats st1 = sim.equilibrate();
  if (stage1_pending) ckpt.write("end of stage 1");
  const StageStats st2 = sim.record(input);
  ckpt.write("end of run");
  sim.on_step({});
  const double npp = sim.neighbours_per_particle();
  const std::vector<std::int64_t> per_rank = sim.particles_per_rank();
  const double rate =
      st2.wall_seconds > 0
          ? static_cast<double>(sim.global_particles() * st2.steps_run) / st2.wall_seconds
          : 0.0;
  log->info(
      "stage 2: {} steps in {:.2f} s: {:.3g} particle-steps/s ({:.3g} per rank), {} "
      "neighbour rebuilds, {:.1f} neighbours per particle",
      st2.steps_run, st2.wall_seconds, rate, rate / size_of(comm), sim.rebuilds(), npp);
  const CostReport cost = CostReport::of(sim, baseline, comm);
  {
    std::ostringstream split;
    split.precision(3);
    for (std::size_t k = 0; k < kPhaseNames.size(); ++k)
      split << (k ? ", " : "") << kPhaseNames[k] << " " << std::fixed << cost.mean[k] << " s ("
            << std::setprecision(1)
            << (st2.wall_seconds > 0 ? 100.0 * cost.mean[k] / st2.wall_seconds : 0.0) << " %)"
            << std::setprecision(3);
    log->info("stage 2 phases (mean per rank): {}", split.str());
    log->info(
        "peak memory: {:.1f} MiB on the largest rank, {:.0f} bytes per particle above "
        "the start-up baseline",
        cost.peak_max / 1048576.0, cost.bytes_per_particle(sim.global_particles()));
  }
  const double wall_so_far =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  log->info("checkpoints: {} written, {:.3g} MB, {:.3f} s ({:.2f} % of the wall time)",
            ckpt.count(), ckpt.bytes() * 1e-6, ckpt.seconds(),
            wall_so_far > 0 ? 100.0 * ckpt.seconds() / wall_so_far : 0.0);
  on_root<CollectiveError>(comm, [&] {
    const auto outs = write_receiver_wavs(scene, sim.receivers(), dir);
    const auto groups = write_group_wavs(scene, outs, dir);
    for (const GroupOutput& g : groups)
      log->info("wrote {}/{} and {} ({} channels)", dir, g.wav, g.raw_wav, g.channels.size());
    if (scene.output.energy) write_energy_csv(dir + "/energy.csv", sim.energy());
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_summary(dir + "/summary.json", scene, sim, st1, st2, outs, groups, wall, npp, per_rank,
                  cost);
    for (const ReceiverOutput& o : outs)
      log->info("wrote {}/{} and {} ({} samples, peak {:.3g} Pa)", dir, o.wav, o.raw_wav, o.samples,
                o.peak_pascal);
  });
  log->info("done in {:.1f} s",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return kExitOk;
}

// The exit code of an exception escaping a command; `code` is the code for collective failures.
int exit_code_of(const std::exception_ptr& ep, int code, const std::string& scene_path,
                 MPI_Comm comm) {
  const int rank = rank_of(comm);
  try {
    std::rethrow_exception(ep);
  } catch (const Interrupted& e) {
    if (rank == 0) logger("run")->warn("{}", e.what());
    return kExitCheckpointed;
  } catch (const CheckpointError& e) {
    if (rank == 0) logger("run")->error("{}", e.what());
    return kExitBadInput;
  } catch (const SceneError& e) {  // every rank parsed the same file, or rank 0 broadcast it
    if (rank == 0) logger("run")->error("{}", e.what());
    return kExitBadInput;
  } catch (const SignalError& e) {
    if (rank == 0) logger("run")->error("{}", e.what());
    return kExitBadInput;
  } catch (const DecompositionError& e) {
    if (rank == 0) logger("run")->error("{}: {}", scene_path, e.what());
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

}  // namespace

int run_command(const Command& cmd, MPI_Comm comm) {
  const int rank = rank_of(comm);
  const auto start = std::chrono::steady_clock::now();
  setup_logging(rank);
  install_stop_handlers();
  int code = kExitBadInput;
  try {
    const Scene scene = load_scene(cmd.scene, cmd.overrides);
    const std::string dir = cmd.out.empty() ? scene.output.dir : cmd.out;
    prepare_output(scene, dir, true, comm);
    setup_logging(rank, dir + "/sphreverb.log");
    logger("run")->info("sphreverb {} on {} rank(s): {}", SPHREVERB_VERSION, size_of(comm),
                        scene.path);

    Signal input;
    on_root<SignalError>(comm, [&] { input = load_input(scene); });

    refuse_if_out_of_memory(scene, Decomposition::of(scene), comm);  // DecompositionError
    code = kExitRunFailed;
    const double baseline = static_cast<double>(resident_bytes());
    Simulation sim(scene, comm);  // DecompositionError: bad input
    return continue_run(scene, dir, sim, input, comm, start, baseline);
  } catch (...) {
    return exit_code_of(std::current_exception(), code, cmd.scene, comm);
  }
}

int restart_command(const Command& cmd, MPI_Comm comm) {
  const int rank = rank_of(comm);
  const auto start = std::chrono::steady_clock::now();
  setup_logging(rank);
  install_stop_handlers();
  int code = kExitBadInput;
  try {
    for (const auto& [key, value] : cmd.overrides)
      if (key != "time.duration" && key.rfind("output.", 0) != 0)
        throw SceneError(cmd.scene +
                         ": restart accepts --time.duration and --output.KEY "
                         "overrides only, not --" +
                         key + " (the physics must not change)");
    Checkpoint ckpt = read_checkpoint(cmd.scene, comm);
    std::map<std::string, std::string> overrides = ckpt.overrides;
    for (const auto& [key, value] : cmd.overrides) overrides[key] = value;
    const Scene scene = parse_scene(ckpt.scene_text, ckpt.scene_path, overrides);
    // Default output: the run directory the checkpoint lives in (DIR/checkpoints/step_N.h5).
    std::string dir = cmd.out;
    if (dir.empty()) {
      const std::filesystem::path parent = std::filesystem::path(cmd.scene).parent_path();
      dir = parent.filename() == "checkpoints"
                ? (parent.parent_path().empty() ? std::string(".") : parent.parent_path().string())
                : scene.output.dir;
    }
    prepare_output(scene, dir, false, comm);
    setup_logging(rank, dir + "/sphreverb.log");
    auto log = logger("run");
    log->info(
        "sphreverb {} on {} rank(s): restart from {} (step {}, t = {:.6g} s, written by "
        "sphreverb {})",
        SPHREVERB_VERSION, size_of(comm), cmd.scene, ckpt.step, ckpt.time, ckpt.program_version);
    if (ckpt.program_version != SPHREVERB_VERSION && rank == 0)
      log->warn(
          "{} was written by sphreverb {}, this is {}: same layout, but the results may "
          "differ from an uninterrupted run",
          cmd.scene, ckpt.program_version, SPHREVERB_VERSION);

    const double baseline = static_cast<double>(resident_bytes());
    Simulation sim(scene, comm);  // DecompositionError: bad input
    check_compatible(ckpt, scene, sim.global_particles());
    code = kExitRunFailed;
    Signal input = std::move(ckpt.input);
    sim.import_state(std::move(ckpt.state));
    return continue_run(scene, dir, sim, input, comm, start, baseline);
  } catch (...) {
    return exit_code_of(std::current_exception(), code, cmd.scene, comm);
  }
}

}  // namespace sphreverb
