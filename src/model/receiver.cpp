#include "sphreverb/model/receiver.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "sphreverb/physics/kernel.hpp"

namespace sphreverb {

Receivers::Receivers(std::vector<Vec3> positions, KernelKind kernel, double h, double mass,
                     std::vector<char> ambisonic, std::vector<Path> paths)
    : positions_(std::move(positions)),
      paths_(std::move(paths)),
      kernel_(kernel),
      h_(h),
      mass_(mass),
      candidates_(positions_.size()),
      ours_(positions_.size(), 0),
      velocity_channel_(positions_.size(), -1) {
  // Channels: one density per receiver, then vx vy vz of each ambisonic receiver in order.
  int channels = static_cast<int>(positions_.size());
  for (std::size_t r = 0; r < ambisonic.size() && r < positions_.size(); ++r)
    if (ambisonic[r]) {
      velocity_channel_[r] = channels;
      channels += 3;
    }
  series_.resize(static_cast<std::size_t>(channels));
}

const std::vector<double>& Receivers::velocity(std::size_t r, int axis) const {
  if (velocity_channel_.at(r) < 0 || axis < 0 || axis > 2)
    throw std::logic_error("receiver " + std::to_string(r) + " records no velocity");
  return series_[static_cast<std::size_t>(velocity_channel_[r] + axis)];
}

std::vector<std::vector<double>> Receivers::velocity_series() const {
  std::vector<std::vector<double>> v(3 * positions_.size());
  for (std::size_t r = 0; r < positions_.size(); ++r)
    if (velocity_channel_[r] >= 0)
      for (int a = 0; a < 3; ++a) v[3 * r + static_cast<std::size_t>(a)] = velocity(r, a);
  return v;
}

void Receivers::restore(std::vector<std::vector<double>> density,
                        std::vector<std::vector<double>> velocity) {
  if (density.size() != positions_.size() ||
      (!velocity.empty() && velocity.size() != 3 * positions_.size()))
    throw std::invalid_argument("receiver records: " + std::to_string(density.size()) +
                                " density and " + std::to_string(velocity.size()) +
                                " velocity series for " + std::to_string(positions_.size()) +
                                " receivers");
  for (std::size_t r = 0; r < density.size(); ++r) series_[r] = std::move(density[r]);
  if (velocity.empty()) return;
  for (std::size_t r = 0; r < positions_.size(); ++r)
    if (velocity_channel_[r] >= 0)
      for (int a = 0; a < 3; ++a)
        series_[static_cast<std::size_t>(velocity_channel_[r] + a)] =
            std::move(velocity[3 * r + static_cast<std::size_t>(a)]);
}

void Receivers::rebuild(const Particles& p, const Slabs& slabs, int rank, double radius) {
  slabs_ = slabs, rank_ = rank, radius_ = radius;
  paths_.resize(positions_.size());
  for (std::size_t r = 0; r < positions_.size(); ++r) {
    const Vec3 xr = positions_[r];
    candidates_[r].clear();
    if (paths_[r].moving()) {
      ours_[r] = 0;  // found at each record
      continue;
    }
    ours_[r] = slabs.owner(xr[slabs.axis()]) == rank;
    if (!ours_[r]) continue;
    for (std::size_t j = 0; j < p.size(); ++j)
      if (norm(p.position(j) - xr) <= radius)
        candidates_[r].push_back(static_cast<std::uint32_t>(j));
    std::sort(candidates_[r].begin(), candidates_[r].end(),
              [&](std::uint32_t a, std::uint32_t b) { return p.key[a] < p.key[b]; });
  }
}

void Receivers::measure(const Particles& p, double t) {
  const std::size_t base = pending_.size();
  pending_.resize(base + series_.size(), 0.0);  // ranks not owning a receiver add 0
  with_kernel(kernel_, h_, [&](const auto& kernel) {
    for (std::size_t r = 0; r < positions_.size(); ++r) {
      if (r < paths_.size() && paths_[r].moving()) {
        pending_[base + r] = measure_moving(p, kernel, paths_[r].position(t));
        continue;
      }
      if (!ours_[r]) continue;
      const Vec3 xr = positions_[r];
      double mass_sum = 0.0, volume_sum = 0.0;
      for (std::uint32_t j : candidates_[r]) {
        const double w = kernel.W(norm(p.position(j) - xr));
        mass_sum += mass_ * w;
        volume_sum += mass_ / p.rho[j] * w;
      }
      pending_[base + r] = volume_sum > 0.0 ? mass_sum / volume_sum : 0.0;
      if (velocity_channel_[r] >= 0) measure_velocity(p, kernel, r, &pending_[base]);
    }
  });
}

template <class Kernel>
double Receivers::measure_moving(const Particles& p, const Kernel& kernel, const Vec3& xr) {
  if (slabs_.owner(xr[slabs_.axis()]) != rank_) return 0.0;
  moving_candidates_.clear();
  const double r2 = radius_ * radius_;
  for (std::size_t j = 0; j < p.size(); ++j) {
    const Vec3 d = p.position(j) - xr;
    if (dot(d, d) <= r2) moving_candidates_.push_back(static_cast<std::uint32_t>(j));
  }
  std::sort(moving_candidates_.begin(), moving_candidates_.end(),
            [&](std::uint32_t a, std::uint32_t b) { return p.key[a] < p.key[b]; });
  double mass_sum = 0.0, volume_sum = 0.0;
  for (std::uint32_t j : moving_candidates_) {
    const double w = kernel.W(norm(p.position(j) - xr));
    mass_sum += mass_ * w;
    volume_sum += mass_ / p.rho[j] * w;
  }
  return volume_sum > 0.0 ? mass_sum / volume_sum : 0.0;
}

template <class Kernel>
void Receivers::measure_velocity(const Particles& p, const Kernel& kernel, std::size_t r,
                                 double* record) const {
  const Vec3 xr = positions_[r];
  double volume_sum = 0.0, sx = 0.0, sy = 0.0, sz = 0.0;
  for (std::uint32_t j : candidates_[r]) {
    const double vw = mass_ / p.rho[j] * kernel.W(norm(p.position(j) - xr));
    volume_sum += vw;
    sx += vw * p.vx[j];
    sy += vw * p.vy[j];
    sz += vw * p.vz[j];
  }
  double* v = record + velocity_channel_[r];
  if (volume_sum > 0.0) v[0] = sx / volume_sum, v[1] = sy / volume_sum, v[2] = sz / volume_sum;
}

void Receivers::flush(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> total(pending_.size());
  MPI_Reduce(pending_.data(), total.data(), static_cast<int>(pending_.size()), MPI_DOUBLE, MPI_SUM,
             0, comm);
  if (rank == 0)
    for (std::size_t k = 0; k < total.size(); ++k) series_[k % series_.size()].push_back(total[k]);
  pending_.clear();
}

}  // namespace sphreverb
