#include "sphreverb/model/receiver.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sphreverb/physics/kernel.hpp"

namespace sphreverb {

Receivers::Receivers(std::vector<Vec3> positions, KernelKind kernel, double h, double mass)
    : positions_(std::move(positions)),
      kernel_(kernel),
      h_(h),
      mass_(mass),
      candidates_(positions_.size()),
      ours_(positions_.size(), 0),
      series_(positions_.size()) {}

void Receivers::rebuild(const Particles& p, const Slabs& slabs, int rank, double radius) {
  for (std::size_t r = 0; r < positions_.size(); ++r) {
    const Vec3 xr = positions_[r];
    candidates_[r].clear();
    ours_[r] = slabs.owner(xr[slabs.axis()]) == rank;
    if (!ours_[r]) continue;
    for (std::size_t j = 0; j < p.size(); ++j)
      if (norm(p.position(j) - xr) <= radius)
        candidates_[r].push_back(static_cast<std::uint32_t>(j));
    std::sort(candidates_[r].begin(), candidates_[r].end(),
              [&](std::uint32_t a, std::uint32_t b) { return p.key[a] < p.key[b]; });
  }
}

void Receivers::measure(const Particles& p) {
  with_kernel(kernel_, h_, [&](const auto& kernel) {
    for (std::size_t r = 0; r < positions_.size(); ++r) {
      if (!ours_[r]) {
        pending_.push_back(0.0);
        continue;
      }
      const Vec3 xr = positions_[r];
      double mass_sum = 0.0, volume_sum = 0.0;
      for (std::uint32_t j : candidates_[r]) {
        const double w = kernel.W(norm(p.position(j) - xr));
        mass_sum += mass_ * w;
        volume_sum += mass_ / p.rho[j] * w;
      }
      pending_.push_back(volume_sum > 0.0 ? mass_sum / volume_sum : 0.0);
    }
  });
}

void Receivers::flush(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> total(pending_.size());
  MPI_Reduce(pending_.data(), total.data(), static_cast<int>(pending_.size()), MPI_DOUBLE, MPI_SUM,
             0, comm);
  if (rank == 0)
    for (std::size_t k = 0; k < total.size(); ++k)
      series_[k % positions_.size()].push_back(total[k]);
  pending_.clear();
}

}  // namespace sphreverb
