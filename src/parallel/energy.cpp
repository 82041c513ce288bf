#include "sphreverb/parallel/energy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace sphreverb {

double kinetic_energy(const Particles& p, double mass, double unit, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  constexpr double kMaxQuanta = 1099511627776.0;  // 2^40 per particle
  const std::int64_t rank_cap = (std::int64_t{1} << 62) / size;
  std::int64_t local = 0;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const double e = 0.5 * mass * (p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i]);
    const double q = std::isfinite(e) ? std::min(std::round(e / unit), kMaxQuanta) : kMaxQuanta;
    local = std::min(rank_cap, local + static_cast<std::int64_t>(q));
  }
  std::int64_t total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT64_T, MPI_SUM, comm);
  return static_cast<double>(total) * unit;
}

AcousticEnergy acoustic_energy(const Particles& p, double mass, double rho0, double c0, double time,
                               MPI_Comm comm) {
  double sums[2] = {0.0, 0.0};
  const double potential_factor = 0.5 * mass * c0 * c0 / (rho0 * rho0);
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    sums[0] += 0.5 * mass * (p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i]);
    const double drho = p.rho[i] - rho0;
    sums[1] += potential_factor * drho * drho;
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, comm);
  return {time, sums[0], sums[1]};
}

EnergyRegion energy_region(const Particles& p, double mass, double rho0, double c0, double fraction,
                           MPI_Comm comm) {
  const double potential_factor = 0.5 * mass * c0 * c0 / (rho0 * rho0);
  const auto energy = [&](std::size_t i) {
    const double drho = p.rho[i] - rho0;
    return 0.5 * mass * (p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i]) +
           potential_factor * drho * drho;
  };
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  struct {
    double value;
    int rank;
  } top{0.0, rank};
  double peak[3] = {0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const double e = energy(i);
    if (std::isfinite(e) && e > top.value)
      top.value = e, peak[0] = p.x[i], peak[1] = p.y[i], peak[2] = p.z[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
  MPI_Bcast(peak, 3, MPI_DOUBLE, top.rank, comm);
  EnergyRegion r;
  if (!(top.value > 0.0)) return r;
  r.peak = {peak[0], peak[1], peak[2]};
  const double threshold = fraction * top.value;
  // Sums: total energy, region energy, region count, weighted x, y, z, x^2, y^2, z^2.
  double sums[9] = {};
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const double e = energy(i);
    if (!std::isfinite(e)) continue;
    sums[0] += e;
    if (e < threshold) continue;
    const double x[3] = {p.x[i], p.y[i], p.z[i]};
    sums[1] += e, sums[2] += 1.0;
    for (int a = 0; a < 3; ++a) {
      sums[3 + a] += e * x[a], sums[6 + a] += e * x[a] * x[a];
      lo[a] = std::min(lo[a], x[a]), hi[a] = std::max(hi[a], x[a]);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 9, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, lo, 3, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPI_DOUBLE, MPI_MAX, comm);
  r.particles = static_cast<std::int64_t>(sums[2]);
  r.share = sums[0] > 0.0 ? sums[1] / sums[0] : 0.0;
  double c[3], s[3];
  for (int a = 0; a < 3; ++a) {
    c[a] = sums[3 + a] / sums[1];
    s[a] = std::sqrt(std::max(0.0, sums[6 + a] / sums[1] - c[a] * c[a]));
  }
  r.centroid = {c[0], c[1], c[2]}, r.spread = {s[0], s[1], s[2]};
  r.lo = {lo[0], lo[1], lo[2]}, r.hi = {hi[0], hi[1], hi[2]};
  return r;
}

}  // namespace sphreverb
