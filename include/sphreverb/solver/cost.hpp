// What a scene will cost before it runs: wall time and core-hours on a rank count, memory per
// rank against what the machine has, and the checkpoint volume at the chosen cadence. `check`
// prints it (cost_report); `run` refuses a scene that does not fit in memory before allocating
// (refuse_if_out_of_memory).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/io/checkpoint_layout.hpp"  // kCheckpointBytesPerParticle
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb {

// Particle-steps per second per core used for the wall-time estimate: scripts/bench.sh measured
// 5.74e6 at 110 k particles on one rank of a 2-core machine (docs/performance.md); rounded down,
// since larger runs add halo exchange and cache misses.
// `check` measures the rate instead (rate_probe.hpp) and uses this one only when it cannot.
inline constexpr double kParticleStepsPerCoreSecond = 5e6;
// Per-core rate of N > 1 ranks over the rate of one (the halo refresh and the ranks' waits):
// the office of docs/performance.md ("Real rooms") on 2 ranks, and scripts/bench.sh's 80-92 %.
inline constexpr double kParallelEfficiency = 0.85;
// The checkpoint volume is out of proportion when the run writes more than this many checkpoints
// and more than kCheckpointVolumeWarn bytes in total.
inline constexpr std::int64_t kCheckpointCountWarn = 20;
inline constexpr double kCheckpointVolumeWarn = 10e9;

struct CostEstimate {
  int ranks = 1;
  std::int64_t particles = 0, steps = 0;
  double particle_steps = 0.0;  // stage 2 (stage 1 adds at most max_steps more steps)
  double rate_per_core = 0.0;   // particle-steps/s per core on `ranks` ranks (rate_per_core)
  bool rate_measured = false;   // from a measured one-rank rate, not kParticleStepsPerCoreSecond
  double sph_seconds = 0.0;     // stage 2 on `ranks` cores at rate_per_core
  // The set-up of the meshes and ghost walls as measured on this process (the meshes read and
  // checked, the lattice sites classified: GeometrySpec::read_seconds,
  // Decomposition::classify_seconds); every rank repeats it.
  double setup_seconds = 0.0;
  double wall_seconds = 0.0;        // the sum of the parts above, on `ranks` cores
  double core_hours = 0.0;          // the same parts in core-hours (each part's seconds x ranks)
  double bytes_per_rank = 0.0;      // solver memory of the fullest rank (estimate)
  double bytes_per_particle = 0.0;  // of its owned particles (solver_bytes_per_particle)
  double checkpoint_bytes = 0.0;    // one checkpoint
  std::int64_t checkpoints = 0;     // written over the run: the cadence, end of stage 1 and of run
  double checkpoint_total_bytes = 0.0;
  bool checkpoint_volume_warning = false;
};

// Bytes per owned particle of the solver's storage; `copies`: halo copies and ghosts per owned
// particle. Fields, rebuild positions, scratch and neighbour lists.
double solver_bytes_per_particle(const Scene& scene, double copies);

// Particle-steps/s per core on `ranks` ranks: `measured`, the rate of one rank (rate_probe.hpp;
// 0 if not measured, then kParticleStepsPerCoreSecond), times kParallelEfficiency for ranks > 1.
double rate_per_core(double measured, int ranks);

// No communication, no allocation proportional to the particles. `measured_rate`: one rank's
// particle-steps/s as rate_per_core takes it.
CostEstimate estimate_cost(const Scene& scene, const Decomposition& dec, int ranks,
                           double measured_rate = 0.0);

// The lines `check` prints: expected wall time and core-hours, checkpoint volume, and a warning
// line when the volume is out of proportion.
std::string cost_report(const Scene& scene, const CostEstimate& cost);

// This node's MemAvailable from /proc/meminfo, in bytes (0 if unknown).
double available_memory_bytes();

// Collective over comm: the smallest share of its node's MemAvailable any rank has (the node's
// available memory divided by the ranks on that node), in bytes, and the ranks on that node;
// known = false when no rank can read MemAvailable.
struct RankMemory {
  double least_bytes = 0.0;
  int ranks_on_node = 1;
  bool known = false;
};
RankMemory rank_memory_share(MPI_Comm comm);

// Collective over comm: throws DecompositionError on every rank (exit 2) with the numbers if the
// estimated memory of the fullest rank exceeds its share of its node's MemAvailable (the node's
// available memory divided by the ranks on that node). Does nothing if MemAvailable is unknown.
void refuse_if_out_of_memory(const Scene& scene, const Decomposition& dec, MPI_Comm comm);

// A duration as people read it: seconds below 2 min, minutes below 2 h, hours below 3 days,
// then days (3 significant digits).
std::string duration_text(double seconds);

}  // namespace sphreverb
