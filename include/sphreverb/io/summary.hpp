// DIR/summary.json: what the run did and cost, the derived quantities, the receivers' files and
// the scene echo (docs/running.md, "Outputs"). One JSON object, numbers at full precision (every
// double reads back bit for bit); non-finite numbers are written as null.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/core/timing.hpp"
#include "sphreverb/io/hybrid_output.hpp"
#include "sphreverb/io/output.hpp"

namespace sphreverb::io {

// The run's facts, gathered by the command (every field as the summary key of the same name).
struct RunFacts {
  std::int64_t particles = 0;
  std::int64_t steps = 0;      // stage 2, in total
  std::int64_t steps_run = 0;  // stage 2, by this process (fewer after a restart)
  double wall_seconds = 0.0;   // stage 2, this process
  double total_wall_seconds = 0.0;
  double neighbours_per_particle = 0.0;
  std::vector<std::int64_t> particles_per_rank;
  std::int64_t rebuilds = 0;
  // Stage 2 phase times, s per rank: mean and max over ranks (kPhaseNames order).
  std::array<double, static_cast<std::size_t>(Phase::Count)> phase_mean{}, phase_max{};
  // Stage 2 compute time of each rank (busy_phases(), timing.hpp), s: a rank waits for the
  // slowest one in the halo refresh and the reductions for (max - its own) per run.
  std::vector<double> busy_seconds_per_rank;
  std::vector<double> busy_cpu_seconds_per_rank;  // the same in CPU time (PhaseTimes::busy_cpu)
  double peak_bytes_total = 0.0, peak_bytes_max_rank = 0.0, baseline_bytes_total = 0.0;
  double bytes_per_particle = 0.0;
  std::int64_t stage1_steps = 0;
  double stage1_wall_seconds = 0.0, stage1_kinetic_energy = 0.0;  // s, J
  std::vector<ReceiverOutput> receivers;
  std::vector<GroupOutput> groups;
  std::vector<AmbisonicOutput> ambisonic;  // receivers of type ambisonic, scene order
  bool has_hybrid = false;                 // [hybrid]: the full-band outputs
  HybridFacts hybrid;
};

// The summary document (pretty-printed JSON text).
std::string summary_json(const Scene& scene, const RunFacts& facts);
// Writes it to `path` atomically (run_dir.hpp).
void write_summary(const std::string& path, const Scene& scene, const RunFacts& facts);
// `summary` (a summary_json text of the SPH part) with its "hybrid" block set to `hybrid` and its
// "scene_overrides" to the scene's (which may add [hybrid] keys: `sphreverb hybrid DIR`). Throws
// std::runtime_error if `summary` is not such a JSON object.
std::string summary_with_hybrid(const std::string& summary, const Scene& scene,
                                const HybridFacts& hybrid);

}  // namespace sphreverb::io
