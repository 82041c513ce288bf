#include "app/detail/full_band.hpp"

#include <chrono>
#include <cmath>
#include <memory>

#include "app/detail/checkpointer.hpp"
#include "app/detail/hybrid_rays.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/core/timing.hpp"
#include "sphreverb/io/hybrid_output.hpp"
#include "sphreverb/io/summary.hpp"
#include "sphreverb/parallel/collective.hpp"
#include "sphreverb/solver/hybrid_assembly.hpp"
#include "sphreverb/solver/hybrid_cost.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb::app {

using detail::rank_of;
using detail::size_of;

namespace {

// Rank 0: V19's criteria on the run's own join (geometric/join_check.hpp), logged; a failure is a
// warning (summary.json and the report carry it too).
void judge_full_band(const Scene& scene, HybridFacts& h) {
  std::vector<ReceiverJoin> joins;
  for (const HybridReceiverOutput& o : h.receivers)
    joins.push_back({o.early_db, o.late_db, o.decay});
  if (joins.empty()) return;
  double t_sph = 0.0, measured = 0.0;
  for (const ReceiverJoin& j : joins)
    if (j.decay.sph > 0.0) t_sph += j.decay.sph, measured += 1.0;
  const double volume = air_volume(scene);
  // Schroeder's frequency 2000 sqrt(T / V) with the SPH part's decay in the crossover's octave.
  const double schroeder =
      measured > 0.0 && volume > 0.0 ? 2000.0 * std::sqrt(t_sph / measured / volume) : 0.0;
  h.join = judge_join(joins, h.crossover, schroeder);
  auto log = logger("run");
  const JoinVerdict& v = h.join;
  if (v.decay_measured)
    log->info(
        "hybrid join (V19): overlap octave early {:+.2f} dB, late {:+.2f} dB; {:.0f} Hz octave "
        "{} full {:.1f} ms vs SPH {:.1f} ms: {}",
        v.early_db, v.late_db, v.octave, v.t20 ? "T20" : "T30", 1e3 * v.t_full, 1e3 * v.t_sph,
        v.ok() ? "passes" : "FAILS");
  else
    log->info(
        "hybrid join (V19): overlap octave early {:+.2f} dB, late {:+.2f} dB ({}); the {:.0f} "
        "Hz octave's decay is not measured (the record is too short for T20)",
        v.early_db, v.late_db, v.levels_ok ? "passes" : "FAILS", v.octave);
  for (const std::string& w : v.warnings) log->warn("hybrid: {}", w);
}

// Rank 0: the full-band files and summary.json, staged, then committed together.
void write_full_band(const Scene& scene, const io::RunDir& dir, const HybridPlan& plan,
                     const std::vector<GeometricResponse>& responses, double response_seconds,
                     const SphOutputs& sph, HybridFacts& facts) {
  auto log = logger("run");
  const auto t0 = std::chrono::steady_clock::now();
  io::StagedFiles staged;
  write_hybrid_wavs(scene, plan, responses, sph.receivers, sph.ambisonic, dir.path(), facts,
                    &staged);
  facts.synthesis_seconds = response_seconds + seconds_since(t0);
  for (const HybridReceiverOutput& o : facts.receivers)
    log->info(
        "hybrid {}: {} image sources; overlap octave {:.0f}-{:.0f} Hz: geometric vs SPH "
        "{:+.2f} dB before calibration, after it early {:+.2f} dB, late {:+.2f} dB",
        o.name, o.images, 0.5 * facts.crossover, facts.crossover, o.mismatch_db, o.early_db,
        o.late_db);
  for (const HybridReceiverOutput& o : facts.receivers)
    if (!o.amb_wav.empty())
      log->info("hybrid {}: full-band B-format {} and {}{}{}", o.name, o.amb_wav, o.amb_raw_wav,
                o.binaural_wav.empty() ? "" : " and ", o.binaural_wav);
  log->info("hybrid: synthesis and crossover at {:.0f} Hz in {:.2f} s", facts.crossover,
            facts.synthesis_seconds);
  judge_full_band(scene, facts);
  staged.write_text(dir.summary(), io::summary_with_hybrid(sph.summary, scene, facts));
  staged.commit_all();
  for (const HybridReceiverOutput& o : facts.receivers)
    log->info("wrote {}/{} and {}", dir.path(), o.wav, o.raw_wav);
  for (const GroupOutput& g : facts.groups)
    log->info("wrote {}/{} and {} ({} channels)", dir.path(), g.wav, g.raw_wav, g.channels.size());
}

}  // namespace

std::vector<std::string> full_band_names(const Scene& scene) {
  std::vector<std::string> out;
  for (const ReceiverSpec& r : scene.receivers) {
    out.push_back(full_wav_name(r.name));
    out.push_back(full_raw_wav_name(r.name));
    out.push_back(full_amb_wav_name(r.name));
    out.push_back(full_amb_raw_wav_name(r.name));
    out.push_back(full_binaural_wav_name(r.name));
    if (!r.group.empty()) {
      out.push_back(full_wav_name(r.group));
      out.push_back(full_raw_wav_name(r.group));
    }
  }
  return out;
}

void run_full_band(const Scene& scene, const io::RunDir& dir, const SphOutputs& sph,
                   const std::string& resume, MPI_Comm comm) {
  auto log = logger("run");
  const double every = scene.output.progress_every;
  const HybridPlan plan = make_hybrid_plan(scene);
  if (rank_of(comm) == 0) {
    if (plan.poly_images) {
      const double bound =
          candidate_bound(plan.faces.size(), static_cast<int>(scene.hybrid.image_order));
      if (bound > kManyImageCandidates)
        log->warn(
            "hybrid: the image sources may take long: {} faces, up to {:.3g} candidates "
            "per source and receiver at image_order {} (a smaller image_order is faster)",
            plan.faces.size(), bound, scene.hybrid.image_order);
    }
    const std::string cost = hybrid_cost_report(estimate_hybrid_cost(scene, size_of(comm)));
    if (!cost.empty()) log->info("hybrid: {}", cost.substr(cost.find_first_not_of(' ')));
  }
  HybridFacts facts;
  facts.crossover = scene.hybrid.crossover;
  facts.rays = plan.rays.rays * plan.sources.size();
  facts.receiver_radius = plan.rays.receiver_radius;
  std::vector<GeometricResponse> responses;
  double response_seconds = 0.0;
  try {
    EnergyHistogram rays = trace_hybrid_rays(plan, comm, facts.trace_seconds, every);
    facts.segments = rays.segments;
    log->info(
        "hybrid: {} rays ({:.3g} segments, receiver spheres {:.3f} m) traced in {:.2f} s "
        "on {} ranks",
        facts.rays, static_cast<double>(facts.segments), facts.receiver_radius, facts.trace_seconds,
        size_of(comm));
    responses = geometric_responses(scene, plan, std::move(rays), comm, response_seconds, every);
  } catch (const Interrupted& e) {
    throw Interrupted(std::string(e.what()) + ": the SPH outputs and summary.json in " +
                      dir.path() + " are complete, no full-band file of this run was written; " +
                      "the full band: " + resume);
  }
  on_root(comm,
          [&] { write_full_band(scene, dir, plan, responses, response_seconds, sph, facts); });
}

}  // namespace sphreverb::app
