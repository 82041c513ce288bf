#include "app/detail/hybrid_rays.hpp"

#include <chrono>
#include <cstdint>

#include "sphreverb/geometric/hybrid.hpp"

namespace sphreverb::app {

namespace {

// sum's slots [k R, (k + 1) R) += block (R = block.receivers), element by element.
void add_source_block(EnergyHistogram& sum, const EnergyHistogram& block, std::size_t k) {
  const std::size_t e0 = k * block.energy.size(), m0 = k * block.moments.size();
  for (std::size_t i = 0; i < block.energy.size(); ++i) sum.energy[e0 + i] += block.energy[i];
  for (std::size_t i = 0; i < block.moments.size(); ++i) sum.moments[m0 + i] += block.moments[i];
  sum.segments += block.segments;
}

}  // namespace

EnergyHistogram trace_hybrid_rays(const HybridPlan& plan, MPI_Comm comm, double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const RayTraceParams& p = plan.rays;
  const std::size_t receivers = p.receivers.size();
  // The blocks of every source, source after source: global block j is block j mod B of source
  // j / B.
  const std::uint64_t per_source = p.rays > 0 ? RayTracer::block_count(p) : 0;
  const std::uint64_t blocks = per_source * plan.sources.size();
  auto first_block = [&](int k) { return blocks * static_cast<std::uint64_t>(k) / size; };
  EnergyHistogram sum(receivers * plan.sources.size(), p.bins);
  std::vector<EnergyHistogram> mine;
  if (blocks > 0) {
    const RayTracer tracer(plan.surfaces, plan.materials);
    std::vector<RayTraceParams> params;
    for (std::size_t k = 0; k < plan.sources.size(); ++k) params.push_back(plan.rays_of(k));
    for (std::uint64_t b = first_block(rank); b < first_block(rank + 1); ++b)
      mine.push_back(tracer.trace_block(params[b / per_source], b % per_source));
  }
  if (rank == 0) {
    for (std::uint64_t b = first_block(0); b < first_block(1); ++b)
      add_source_block(sum, mine[b], b / per_source);
    EnergyHistogram block(receivers, p.bins);
    const int count = static_cast<int>(block.energy.size());
    const int moments = static_cast<int>(block.moments.size());
    for (int k = 1; k < size; ++k) {
      for (std::uint64_t b = first_block(k); b < first_block(k + 1); ++b) {
        MPI_Recv(block.energy.data(), count, MPI_DOUBLE, k, 0, comm, MPI_STATUS_IGNORE);
        MPI_Recv(block.moments.data(), moments, MPI_DOUBLE, k, 2, comm, MPI_STATUS_IGNORE);
        unsigned long long segments = 0;
        MPI_Recv(&segments, 1, MPI_UNSIGNED_LONG_LONG, k, 1, comm, MPI_STATUS_IGNORE);
        block.segments = segments;
        add_source_block(sum, block, b / per_source);
      }
    }
  } else {
    for (const EnergyHistogram& h : mine) {
      MPI_Send(h.energy.data(), static_cast<int>(h.energy.size()), MPI_DOUBLE, 0, 0, comm);
      MPI_Send(h.moments.data(), static_cast<int>(h.moments.size()), MPI_DOUBLE, 0, 2, comm);
      const unsigned long long segments = h.segments;
      MPI_Send(&segments, 1, MPI_UNSIGNED_LONG_LONG, 0, 1, comm);
    }
    sum = EnergyHistogram();
  }
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sum;
}

std::vector<GeometricResponse> geometric_responses(const Scene& scene, const HybridPlan& plan,
                                                   EnergyHistogram rays, MPI_Comm comm,
                                                   double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::size_t receivers = plan.rays.receivers.size();
  if (rank != 0) rays = EnergyHistogram(receivers * plan.sources.size(), plan.rays.bins);
  MPI_Bcast(rays.energy.data(), static_cast<int>(rays.energy.size()), MPI_DOUBLE, 0, comm);
  MPI_Bcast(rays.moments.data(), static_cast<int>(rays.moments.size()), MPI_DOUBLE, 0, comm);
  const auto owner = [&](std::size_t r) {
    return static_cast<int>(r % static_cast<std::size_t>(size));
  };
  std::vector<GeometricResponse> out(receivers);
  for (std::size_t r = 0; r < receivers; ++r) {
    if (owner(r) != rank) continue;
    const bool bformat = scene.receivers.at(r).type == ReceiverType::Ambisonic;
    out[r] = geometric_response(plan, rays, r, bformat, kCalibrationRealisations);
  }
  // To rank 0 in receiver order: the counts (channels, realisations, samples, images), then the
  // channels and the realisations, one message each.
  constexpr int kCounts = 10, kSignal = 11;
  for (std::size_t r = 0; r < receivers; ++r) {
    const int k = owner(r);
    if (k == 0) continue;
    GeometricResponse& g = out[r];
    if (rank == k) {
      const std::uint64_t counts[4] = {g.channels.size(), g.more.size(),
                                       g.channels.empty() ? 0 : g.channels[0].size(), g.images};
      MPI_Send(counts, 4, MPI_UINT64_T, 0, kCounts, comm);
      for (const auto* set : {&g.channels, &g.more})
        for (const std::vector<double>& x : *set)
          MPI_Send(x.data(), static_cast<int>(x.size()), MPI_DOUBLE, 0, kSignal, comm);
      g = GeometricResponse();
    } else if (rank == 0) {
      std::uint64_t counts[4] = {};
      MPI_Recv(counts, 4, MPI_UINT64_T, k, kCounts, comm, MPI_STATUS_IGNORE);
      g.channels.assign(counts[0], std::vector<double>(counts[2]));
      g.more.assign(counts[1], std::vector<double>(counts[2]));
      g.images = counts[3];
      for (auto* set : {&g.channels, &g.more})
        for (std::vector<double>& x : *set)
          MPI_Recv(x.data(), static_cast<int>(x.size()), MPI_DOUBLE, k, kSignal, comm,
                   MPI_STATUS_IGNORE);
    }
  }
  if (rank != 0) out.clear();
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace sphreverb::app
