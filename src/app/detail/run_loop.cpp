#include "app/detail/run_loop.hpp"

#include <algorithm>
#include <array>
#include <iomanip>
#include <memory>
#include <sstream>

#include "app/detail/checkpointer.hpp"
#include "app/detail/full_band.hpp"
#include "app/detail/report.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/app/exit_codes.hpp"
#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/core/timing.hpp"
#include "sphreverb/io/checkpoint.hpp"
#include "sphreverb/io/output.hpp"
#include "sphreverb/io/summary.hpp"
#include "sphreverb/io/surface_file.hpp"
#include "sphreverb/parallel/collective.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb::app {

using detail::rank_of;
using detail::size_of;

namespace {

// Stage 2's phase times (mean and max over ranks) and the peak memory (VmHWM) of every rank,
// reduced onto every rank; the solver's bytes per particle are the ranks' peak resident memory
// above what they held before the simulation was built (MPI, libraries, the scene, the input).
// Collective.
void measure_costs(const Simulation& sim, double baseline, MPI_Comm comm, io::RunFacts& f) {
  const auto& mine = sim.timings().all();
  MPI_Allreduce(mine.data(), f.phase_mean.data(), static_cast<int>(mine.size()), MPI_DOUBLE,
                MPI_SUM, comm);
  MPI_Allreduce(mine.data(), f.phase_max.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX,
                comm);
  for (double& m : f.phase_mean) m /= size_of(comm);
  const double busy = sim.timings().busy();
  f.busy_seconds_per_rank.assign(static_cast<std::size_t>(size_of(comm)), 0.0);
  MPI_Allgather(&busy, 1, MPI_DOUBLE, f.busy_seconds_per_rank.data(), 1, MPI_DOUBLE, comm);
  const double cpu = sim.timings().busy_cpu();
  f.busy_cpu_seconds_per_rank.assign(f.busy_seconds_per_rank.size(), 0.0);
  MPI_Allgather(&cpu, 1, MPI_DOUBLE, f.busy_cpu_seconds_per_rank.data(), 1, MPI_DOUBLE, comm);
  double mem[2] = {static_cast<double>(peak_resident_bytes()), baseline};
  MPI_Allreduce(MPI_IN_PLACE, mem, 2, MPI_DOUBLE, MPI_SUM, comm);
  f.peak_bytes_total = mem[0], f.baseline_bytes_total = mem[1];
  f.peak_bytes_max_rank = static_cast<double>(peak_resident_bytes());
  MPI_Allreduce(MPI_IN_PLACE, &f.peak_bytes_max_rank, 1, MPI_DOUBLE, MPI_MAX, comm);
  f.bytes_per_particle = f.particles > 0 ? (f.peak_bytes_total - f.baseline_bytes_total) /
                                               static_cast<double>(f.particles)
                                         : 0.0;
}

void log_costs(const io::RunFacts& f) {
  auto log = logger("run");
  std::ostringstream split;
  split.precision(3);
  for (std::size_t k = 0; k < kPhaseNames.size(); ++k)
    split << (k ? ", " : "") << kPhaseNames[k] << " " << std::fixed << f.phase_mean[k] << " s ("
          << std::setprecision(1)
          << (f.wall_seconds > 0 ? 100.0 * f.phase_mean[k] / f.wall_seconds : 0.0) << " %)"
          << std::setprecision(3);
  log->info("stage 2 phases (mean per rank): {}", split.str());
  if (f.busy_seconds_per_rank.size() > 1) {
    const auto& busy = f.busy_seconds_per_rank;
    const double slowest = *std::max_element(busy.begin(), busy.end());
    const auto& cpu = f.busy_cpu_seconds_per_rank;
    std::ostringstream b, c, w;
    b.precision(3), c.precision(3), w.precision(1);
    for (std::size_t r = 0; r < busy.size(); ++r) {
      b << (r ? " / " : "") << std::fixed << busy[r];
      c << (r ? " / " : "") << std::fixed << cpu[r];
      w << (r ? " / " : "") << std::fixed
        << (f.wall_seconds > 0 ? 100.0 * (slowest - busy[r]) / f.wall_seconds : 0.0);
    }
    log->info(
        "stage 2 balance: computing {} s per rank (forces, density, integration, ghosts; "
        "CPU time {} s); waiting for the slowest rank {} % of the stage",
        b.str(), c.str(), w.str());
  }
  log->info(
      "peak memory: {:.1f} MiB on the largest rank, {:.0f} bytes per particle above "
      "the start-up baseline",
      f.peak_bytes_max_rank / 1048576.0, f.bytes_per_particle);
}

// After an InstabilityError (collective): writes the state at the failing step and returns the
// sentence the error message ends with, naming the file, or saying why there is none.
std::string unstable_state_note(Checkpointer& ckpt) {
  try {
    return "; the state at that step is in " + ckpt.write_unstable() +
           " (for inspection, e.g. in ParaView; restart from the last step_*.h5)";
  } catch (const std::exception& e) {
    return std::string("; the state at that step could not be written: ") + e.what();
  }
}

// Rank 0: the SPH outputs (receivers, groups, ambisonic, energy, summary.json without the full
// band) under temporary names, then all committed together; an earlier run's outputs that these
// do not replace (its full band among them: it joined other records) go after the commit.
app::SphOutputs write_sph_outputs(const Scene& scene, const io::RunDir& dir, const Simulation& sim,
                                  io::RunFacts& facts,
                                  std::chrono::steady_clock::time_point start) {
  auto log = logger("run");
  io::StagedFiles staged;
  facts.receivers = write_receiver_wavs(scene, sim.receivers(), dir.path(), &staged);
  facts.groups = write_group_wavs(scene, facts.receivers, dir.path(), &staged);
  facts.ambisonic =
      write_ambisonic_wavs(scene, sim.receivers(), facts.receivers, dir.path(), &staged);
  if (scene.output.energy) staged.write_text(dir.energy_csv(), energy_csv(sim.energy()));
  facts.total_wall_seconds = seconds_since(start);
  app::SphOutputs out;
  out.summary = io::summary_json(scene, facts);
  staged.write_text(dir.summary(), out.summary);
  const std::vector<std::string> written = staged.final_paths();
  staged.commit_all();
  dir.remove_stale_outputs(scene, written);
  for (const GroupOutput& g : facts.groups)
    log->info("wrote {}/{} and {} ({} channels)", dir.path(), g.wav, g.raw_wav, g.channels.size());
  for (const AmbisonicOutput& a : facts.ambisonic)
    log->info("wrote {}/{} and {} (ambiX W Y Z X, SN3D){}{}", dir.path(), a.wav, a.raw_wav,
              a.binaural_wav.empty() ? "" : " and ", a.binaural_wav);
  for (const ReceiverOutput& o : facts.receivers)
    log->info("wrote {}/{} and {} ({} samples, peak {:.3g} Pa)", dir.path(), o.wav, o.raw_wav,
              o.samples, o.peak_pascal);
  out.receivers = std::move(facts.receivers);
  out.ambisonic = std::move(facts.ambisonic);
  return out;
}

}  // namespace

io::RunDirLock take_output_dir(const Scene& scene, const io::RunDir& dir, bool fresh,
                               const std::string& origin, MPI_Comm comm) {
  on_root<OutputDirError>(comm, [&] {
    try {
      dir.ensure_writable();
    } catch (const std::exception& e) {
      throw OutputDirError(std::string(e.what()) + " (the output directory, " + origin + ")");
    }
  });
  io::RunDirLock lock;
  on_root<OutputDirBusy>(comm, [&] { lock = io::RunDirLock::acquire(dir); });
  on_root<OutputDirError>(comm, [&] { dir.clear_outputs(scene, fresh); });
  return lock;
}

int continue_run(const Scene& scene, const io::RunDir& dir, Simulation& sim, const Signal& input,
                 MPI_Comm comm, std::chrono::steady_clock::time_point start, double baseline) {
  auto log = logger("run");
  if (rank_of(comm) == 0) {
    std::istringstream lines(describe(scene, sim.decomposition(), size_of(comm)));
    for (std::string line; std::getline(lines, line);) log->info("{}", line);
    for (const std::string& w : source_level_warnings(scene, sim.source_inputs()))
      log->warn("{}", w);
    if (const ObliqueMessage m = oblique_wall_message(scene); !m.text.empty())
      m.warning ? log->warn("{}", m.text) : log->info("{}", m.text);
  }
  on_root(comm, [&] { io::write_surface_file(dir.path(), scene_surface_mesh(scene)); });
  Checkpointer ckpt(scene, dir, sim, input, comm);
  sim.on_step([&] { ckpt.after_step(); });
  sim.on_stop_probe(stop_signal);
  const bool stage1_pending = sim.run_state().stage == 1;
  StageStats st1, st2;
  try {
    st1 = sim.equilibrate();
    if (stage1_pending) ckpt.write("end of stage 1");
    st2 = sim.record(input);
  } catch (const InstabilityError& e) {
    throw InstabilityError(std::string(e.what()) + unstable_state_note(ckpt));
  }
  ckpt.write("end of run");
  sim.on_step({});

  io::RunFacts facts;
  facts.particles = sim.global_particles();
  facts.steps = st2.steps, facts.steps_run = st2.steps_run, facts.wall_seconds = st2.wall_seconds;
  facts.neighbours_per_particle = sim.neighbours_per_particle();
  facts.particles_per_rank = sim.particles_per_rank();
  facts.rebuilds = sim.rebuilds();
  facts.stage1_steps = st1.steps, facts.stage1_wall_seconds = st1.wall_seconds;
  facts.stage1_kinetic_energy = st1.final_energy;
  const double rate = st2.wall_seconds > 0
                          ? static_cast<double>(facts.particles) *
                                static_cast<double>(st2.steps_run) / st2.wall_seconds
                          : 0.0;
  log->info(
      "stage 2: {} steps in {:.2f} s: {:.3g} particle-steps/s ({:.3g} per rank), {} "
      "neighbour rebuilds, {:.1f} neighbours per particle",
      st2.steps_run, st2.wall_seconds, rate, rate / size_of(comm), facts.rebuilds,
      facts.neighbours_per_particle);
  measure_costs(sim, baseline, comm, facts);
  log_costs(facts);
  const double wall_so_far = seconds_since(start);
  log->info("checkpoints: {} written, {:.3g} MB, {:.3f} s ({:.2f} % of the wall time)",
            ckpt.count(), ckpt.bytes() * 1e-6, ckpt.seconds(),
            wall_so_far > 0 ? 100.0 * ckpt.seconds() / wall_so_far : 0.0);
  // The SPH outputs first: whatever the geometric part does, they are committed.
  app::SphOutputs sph;
  on_root(comm, [&] { sph = write_sph_outputs(scene, dir, sim, facts, start); });
  if (scene.hybrid.present)
    app::run_full_band(scene, dir, sph, "sphreverb hybrid " + dir.path(), comm);
  log->info("done in {:.1f} s", seconds_since(start));
  return kExitOk;
}

int exit_code_of(const std::exception_ptr& ep, int code, const std::string& scene_path,
                 MPI_Comm comm) {
  const int rank = rank_of(comm);
  auto error = [&](const std::string& message, int exit_code) {
    if (rank == 0) logger("run")->error("{}", message);
    return exit_code;
  };
  try {
    std::rethrow_exception(ep);
  } catch (const Interrupted& e) {
    if (rank == 0) logger("run")->warn("{}", e.what());
    return kExitCheckpointed;
  } catch (const CheckpointError& e) {
    return error(e.what(), kExitBadInput);
  } catch (const SceneError& e) {  // every rank parsed the same file, or rank 0 broadcast it
    return error(e.what(), kExitBadInput);
  } catch (const SignalError& e) {
    return error(e.what(), kExitBadInput);
  } catch (const DecompositionError& e) {
    return error(scene_path + ": " + e.what(), kExitBadInput);
  } catch (const OutputDirBusy& e) {
    return error(e.what(), kExitBadInput);
  } catch (const OutputDirError& e) {
    return error(e.what(), kExitRunFailed);
  } catch (const CollectiveError& e) {
    return error(e.what(), code);
  } catch (const std::exception& e) {
    // Raised on this rank alone: the others may wait in a collective, so end the whole job.
    logger("run")->critical("rank {}: {}", rank, e.what());
    if (size_of(comm) > 1) MPI_Abort(comm, kExitRunFailed);
    return kExitRunFailed;
  }
}

}  // namespace sphreverb::app
