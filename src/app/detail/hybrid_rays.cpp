#include "app/detail/hybrid_rays.hpp"

#include <chrono>

namespace sphreverb::app {

EnergyHistogram trace_hybrid_rays(const HybridPlan& plan, MPI_Comm comm, double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const RayTraceParams& p = plan.rays;
  const std::uint64_t blocks = p.rays > 0 ? RayTracer::block_count(p) : 0;
  auto first_block = [&](int k) { return blocks * static_cast<std::uint64_t>(k) / size; };
  EnergyHistogram sum(p.receivers.size(), p.bins);
  std::vector<EnergyHistogram> mine;
  if (blocks > 0) {
    const RayTracer tracer(plan.surfaces, plan.materials);
    for (std::uint64_t b = first_block(rank); b < first_block(rank + 1); ++b)
      mine.push_back(tracer.trace_block(p, b));
  }
  const int count = static_cast<int>(sum.energy.size());
  const int moments = static_cast<int>(sum.moments.size());
  if (rank == 0) {
    for (const EnergyHistogram& h : mine) add_histogram(sum, h);
    EnergyHistogram block(p.receivers.size(), p.bins);
    for (int k = 1; k < size; ++k) {
      for (std::uint64_t b = first_block(k); b < first_block(k + 1); ++b) {
        MPI_Recv(block.energy.data(), count, MPI_DOUBLE, k, 0, comm, MPI_STATUS_IGNORE);
        MPI_Recv(block.moments.data(), moments, MPI_DOUBLE, k, 2, comm, MPI_STATUS_IGNORE);
        unsigned long long segments = 0;
        MPI_Recv(&segments, 1, MPI_UNSIGNED_LONG_LONG, k, 1, comm, MPI_STATUS_IGNORE);
        block.segments = segments;
        add_histogram(sum, block);
      }
    }
  } else {
    for (const EnergyHistogram& h : mine) {
      MPI_Send(h.energy.data(), count, MPI_DOUBLE, 0, 0, comm);
      MPI_Send(h.moments.data(), moments, MPI_DOUBLE, 0, 2, comm);
      const unsigned long long segments = h.segments;
      MPI_Send(&segments, 1, MPI_UNSIGNED_LONG_LONG, 0, 1, comm);
    }
    sum = EnergyHistogram();
  }
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sum;
}

}  // namespace sphreverb::app
