#include "sphreverb/solver/cost.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "sphreverb/parallel/slabs.hpp"

namespace sphreverb {

double solver_bytes_per_particle(const Scene& s, double copies) {
  const double list_radius = s.derived.halo_width / s.fluid.spacing;
  const double listed = 4.0 / 3.0 * std::numbers::pi * list_radius * list_radius * list_radius;
  const double fields = 15 * 8.0, rebuild_copy = 3 * 8.0, scratch = 8.0;
  return fields * (1.0 + copies) + rebuild_copy + scratch * (1.0 + copies) + 4.0 * (listed + 1.0);
}

double rate_per_core(double measured, int ranks) {
  const double one = measured > 0.0 ? measured : kParticleStepsPerCoreSecond;
  return ranks > 1 ? one * kParallelEfficiency : one;
}

CostEstimate estimate_cost(const Scene& s, const Decomposition& dec, int ranks,
                           double measured_rate) {
  const Derived& d = s.derived;
  CostEstimate c;
  c.ranks = std::max(1, ranks);
  c.particles = dec.particles;
  c.steps = d.steps;
  c.particle_steps = static_cast<double>(dec.particles) * static_cast<double>(d.steps);
  c.rate_per_core = rate_per_core(measured_rate, c.ranks);
  c.rate_measured = measured_rate > 0.0;
  c.sph_seconds = c.particle_steps / (c.rate_per_core * c.ranks);
  c.setup_seconds = dec.classify_seconds;
  for (const GeometrySpec& g : s.geometries) c.setup_seconds += g.read_seconds;
  c.wall_seconds = c.sph_seconds + c.setup_seconds;
  c.core_hours = (c.sph_seconds + c.setup_seconds) * c.ranks / 3600.0;
  const double slab = (s.fluid.fill_max[dec.axis] - s.fluid.fill_min[dec.axis]) / c.ranks;
  // Halo copies and ghosts come from the halo depth on either side of a slab.
  const double copies = (c.ranks > 1 ? 2.0 : 0.0) * d.halo_depth / slab;
  // The fullest rank: the slabs balance the counts to within a plane.
  std::int64_t plane_max = 0;
  for (std::int64_t n : dec.plane_count) plane_max = std::max(plane_max, n);
  const double per_rank = static_cast<double>(dec.particles) / c.ranks +
                          (c.ranks > 1 ? static_cast<double>(plane_max) : 0.0);
  c.bytes_per_particle = solver_bytes_per_particle(s, copies);
  c.bytes_per_rank = per_rank * c.bytes_per_particle;
  c.checkpoint_bytes = static_cast<double>(dec.particles) * kCheckpointBytesPerParticle;
  const std::int64_t every =
      s.output.checkpoint_every > 0
          ? std::max<std::int64_t>(1, std::llround(s.output.checkpoint_every / d.dt))
          : 0;
  c.checkpoints = (every > 0 ? d.steps / every : 0) + 2;
  c.checkpoint_total_bytes = static_cast<double>(c.checkpoints) * c.checkpoint_bytes;
  c.checkpoint_volume_warning =
      c.checkpoints > kCheckpointCountWarn && c.checkpoint_total_bytes > kCheckpointVolumeWarn;
  return c;
}

std::string duration_text(double seconds) {
  std::ostringstream o;
  o.precision(3);
  if (seconds < 120)
    o << seconds << " s";
  else if (seconds < 7200)
    o << seconds / 60 << " min";
  else if (seconds < 3 * 86400)
    o << seconds / 3600 << " h";
  else
    o << seconds / 86400 << " days";
  return o.str();
}

std::string cost_report(const Scene& s, const CostEstimate& c) {
  std::ostringstream o;
  o.precision(3);
  o << "  expected wall time   ~" << duration_text(c.wall_seconds) << " on " << c.ranks
    << " core(s), " << c.core_hours << " core-hours: stage 2 of the SPH "
    << duration_text(c.sph_seconds) << " (at " << c.rate_per_core << " particle-steps/s per core, "
    << (c.rate_measured ? "measured on an idle core of this machine"
                        : "not measured: scripts/bench.sh's")
    << (c.ranks > 1 ? ", with several ranks' efficiency" : "") << ")";
  if (c.setup_seconds > 0.0)
    o << ", the set-up of the meshes and ghost walls " << duration_text(c.setup_seconds)
      << " (measured here)";
  o << "\n"
    << "  checkpoint volume    " << c.checkpoints << " checkpoints of ~"
    << c.checkpoint_bytes * 1e-9 << " GB: ~" << c.checkpoint_total_bytes * 1e-9
    << " GB written over the run\n";
  if (c.checkpoint_volume_warning) {
    // A cadence giving about ten checkpoints over the run.
    const double every = std::max(s.derived.dt, s.time.duration / 10.0);
    o << "  warning              the run writes " << c.checkpoint_total_bytes * 1e-9
      << " GB of checkpoints at [output] checkpoint_every = " << s.output.checkpoint_every
      << " s; consider checkpoint_every = " << every
      << " s (about ten), or 0 (end of stage 1 and of the run only; signals still checkpoint)\n";
  }
  return o.str();
}

double available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kib = 0.0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024.0;
  return 0.0;
}

RankMemory rank_memory_share(MPI_Comm comm) {
  RankMemory m;
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &m.ranks_on_node);
  MPI_Comm_free(&node);
  const double available = available_memory_bytes();
  // The smallest share over the ranks (-share under MAX), and whether any rank knows its memory.
  double share[2] = {available > 0 ? -available / m.ranks_on_node : -HUGE_VAL,
                     available > 0 ? 1.0 : 0.0};
  MPI_Allreduce(MPI_IN_PLACE, share, 2, MPI_DOUBLE, MPI_MAX, comm);
  m.least_bytes = -share[0];
  m.known = share[1] != 0.0;
  return m;
}

void refuse_if_out_of_memory(const Scene& s, const Decomposition& dec, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const RankMemory memory = rank_memory_share(comm);
  const CostEstimate c = estimate_cost(s, dec, size);
  const double least = memory.least_bytes;
  const int on_node = memory.ranks_on_node;
  if (!memory.known || c.bytes_per_rank <= least) return;
  std::ostringstream msg;
  msg.precision(4);
  msg << "the scene needs ~" << c.bytes_per_rank / 1048576.0 << " MiB per rank (" << dec.particles
      << " particles on " << size << " rank(s)), but a rank has ~" << least / 1048576.0
      << " MiB (MemAvailable of /proc/meminfo shared by " << on_node
      << " rank(s) on its node); use more nodes, a coarser [fluid] spacing or a smaller room";
  throw DecompositionError(msg.str());
}

}  // namespace sphreverb
