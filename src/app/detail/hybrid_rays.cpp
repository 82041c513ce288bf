#include "app/detail/hybrid_rays.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "app/detail/checkpointer.hpp"
#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/geometric/hybrid.hpp"

namespace sphreverb::app {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// sum's slots [k R, (k + 1) R) += block (R = block.receivers), element by element.
void add_source_block(EnergyHistogram& sum, const EnergyHistogram& block, std::size_t k) {
  const std::size_t e0 = k * block.energy.size(), m0 = k * block.moments.size();
  for (std::size_t i = 0; i < block.energy.size(); ++i) sum.energy[e0 + i] += block.energy[i];
  for (std::size_t i = 0; i < block.moments.size(); ++i) sum.moments[m0 + i] += block.moments[i];
  sum.segments += block.segments;
}

// Collective: the largest stop signal any rank received (0: none).
int agreed_stop(int mine, MPI_Comm comm) {
  int any = mine;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
  return any;
}

// Rank 0's progress line: `what` done / total, the elapsed time and the ETA at the mean rate.
void log_progress(const char* what, double done, double total, double elapsed) {
  const double eta = done > 0.0 ? elapsed * (total - done) / done : 0.0;
  logger("run")->info("hybrid: {} {:.1f} % ({:.0f} of {:.0f}) in {:.1f} s | ETA {:.0f} s", what,
                      total > 0.0 ? 100.0 * done / total : 100.0, done, total, elapsed, eta);
}

// Thrown by a poll on the rank that received a stop signal (caught by the caller's round).
struct LocalStop {};

}  // namespace

EnergyHistogram trace_hybrid_rays(const HybridPlan& plan, MPI_Comm comm, double& seconds,
                                  double progress_every) {
  const auto start = Clock::now();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const RayTraceParams& p = plan.rays;
  const std::size_t receivers = p.receivers.size();
  // The blocks of every source, source after source: global block j is block j mod B of source
  // j / B. Round i traces blocks [i n, (i + 1) n), block i n + k on rank k.
  const std::uint64_t per_source = p.rays > 0 ? RayTracer::block_count(p) : 0;
  const std::uint64_t blocks = per_source * plan.sources.size();
  const auto n = static_cast<std::uint64_t>(size);
  const std::uint64_t rounds = (blocks + n - 1) / n;
  EnergyHistogram sum(receivers * plan.sources.size(), p.bins);
  if (blocks > 0) {
    const RayTracer tracer(plan.surfaces, plan.materials);
    std::vector<RayTraceParams> params;
    for (std::size_t k = 0; k < plan.sources.size(); ++k) params.push_back(plan.rays_of(k));
    EnergyHistogram block(receivers, p.bins);
    const std::size_t ne = block.energy.size(), nm = block.moments.size();
    std::vector<double> mine(ne + nm + 1), all(rank == 0 ? (ne + nm + 1) * n : 0);
    auto last_log = Clock::now();
    for (std::uint64_t i = 0; i < rounds; ++i) {
      const std::uint64_t b = i * n + static_cast<std::uint64_t>(rank);
      if (b < blocks) {
        block = tracer.trace_block(params[b / per_source], b % per_source);
        std::copy(block.energy.begin(), block.energy.end(), mine.begin());
        std::copy(block.moments.begin(), block.moments.end(), mine.begin() + ne);
        mine[ne + nm] = static_cast<double>(block.segments);  // exact below 2^53
      }
      MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
                 static_cast<int>(mine.size()), MPI_DOUBLE, 0, comm);
      if (rank == 0)
        for (std::uint64_t k = 0; k < n && i * n + k < blocks; ++k) {
          const double* x = all.data() + k * mine.size();
          std::copy(x, x + ne, block.energy.begin());
          std::copy(x + ne, x + ne + nm, block.moments.begin());
          block.segments = static_cast<std::uint64_t>(x[ne + nm]);
          add_source_block(sum, block, (i * n + k) / per_source);
        }
      if (const int sig = agreed_stop(stop_signal(), comm); sig != 0)
        throw Interrupted("stopped by signal " + std::to_string(sig) + " during the ray tracing (" +
                          std::to_string(std::min(blocks, (i + 1) * n)) + " of " +
                          std::to_string(blocks) + " blocks of rays)");
      if (rank == 0 && progress_every > 0.0 && since(last_log) >= progress_every) {
        last_log = Clock::now();
        log_progress("rays: blocks", static_cast<double>(std::min(blocks, (i + 1) * n)),
                     static_cast<double>(blocks), since(start));
      }
    }
  }
  if (rank != 0) sum = EnergyHistogram();
  seconds = since(start);
  return sum;
}

std::vector<GeometricResponse> geometric_responses(const Scene& scene, const HybridPlan& plan,
                                                   EnergyHistogram rays, MPI_Comm comm,
                                                   double& seconds, double progress_every) {
  const auto start = Clock::now();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::size_t receivers = plan.rays.receivers.size();
  if (rank != 0) rays = EnergyHistogram(receivers * plan.sources.size(), plan.rays.bins);
  MPI_Bcast(rays.energy.data(), static_cast<int>(rays.energy.size()), MPI_DOUBLE, 0, comm);
  MPI_Bcast(rays.moments.data(), static_cast<int>(rays.moments.size()), MPI_DOUBLE, 0, comm);
  const auto n = static_cast<std::size_t>(size);
  std::vector<GeometricResponse> out(receivers);
  auto last_log = Clock::now();
  // Round i: rank k computes receiver i n + k, then sends it to rank 0. The counts (channels,
  // realisations, samples, images), then the channels and the realisations, one message each.
  constexpr int kCounts = 10, kSignal = 11;
  for (std::size_t first = 0; first < receivers; first += n) {
    const std::size_t r = first + static_cast<std::size_t>(rank);
    int sig = 0;
    if (r < receivers) {
      const bool bformat = scene.receivers.at(r).type == ReceiverType::Ambisonic;
      // Polled within the image sources' sums: a stop signal ends this receiver here; rank 0 logs
      // its own receiver's progress.
      const auto receiver_start = Clock::now();
      const auto poll = [&](double done) {
        if (stop_signal() != 0) throw LocalStop{};
        if (rank == 0 && progress_every > 0.0 && since(last_log) >= progress_every) {
          last_log = Clock::now();
          const double elapsed = since(receiver_start);
          logger("run")->info(
              "hybrid: image sources of receiver {} ({} of {}): {:.1f} % in {:.1f} s | ETA {:.0f} "
              "s for it, {} receiver(s) per rank",
              scene.receivers[r].name, r + 1, receivers, 100.0 * done, elapsed,
              done > 0.0 ? elapsed * (1.0 - done) / done : 0.0, (receivers + n - 1) / n);
        }
      };
      try {
        out[r] = geometric_response(plan, rays, r, bformat, kCalibrationRealisations, poll);
      } catch (const LocalStop&) {
        sig = stop_signal();
      }
    }
    if (const int any = agreed_stop(sig != 0 ? sig : stop_signal(), comm); any != 0)
      throw Interrupted("stopped by signal " + std::to_string(any) + " during the image sources (" +
                        std::to_string(first) + " of " + std::to_string(receivers) +
                        " receivers done)");
    for (std::size_t k = 1; k < n && first + k < receivers; ++k) {
      GeometricResponse& g = out[first + k];
      if (rank == static_cast<int>(k)) {
        const std::uint64_t counts[4] = {g.channels.size(), g.more.size(),
                                         g.channels.empty() ? 0 : g.channels[0].size(), g.images};
        MPI_Send(counts, 4, MPI_UINT64_T, 0, kCounts, comm);
        for (const auto* set : {&g.channels, &g.more})
          for (const std::vector<double>& x : *set)
            MPI_Send(x.data(), static_cast<int>(x.size()), MPI_DOUBLE, 0, kSignal, comm);
        g = GeometricResponse();
      } else if (rank == 0) {
        std::uint64_t counts[4] = {};
        MPI_Recv(counts, 4, MPI_UINT64_T, static_cast<int>(k), kCounts, comm, MPI_STATUS_IGNORE);
        g.channels.assign(counts[0], std::vector<double>(counts[2]));
        g.more.assign(counts[1], std::vector<double>(counts[2]));
        g.images = counts[3];
        for (auto* set : {&g.channels, &g.more})
          for (std::vector<double>& x : *set)
            MPI_Recv(x.data(), static_cast<int>(x.size()), MPI_DOUBLE, static_cast<int>(k), kSignal,
                     comm, MPI_STATUS_IGNORE);
      }
    }
    if (rank == 0 && progress_every > 0.0 && since(last_log) >= progress_every) {
      last_log = Clock::now();
      log_progress("image sources: receivers", static_cast<double>(std::min(receivers, first + n)),
                   static_cast<double>(receivers), since(start));
    }
  }
  if (rank != 0) out.clear();
  seconds = since(start);
  return out;
}

}  // namespace sphreverb::app
