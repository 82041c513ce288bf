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

}  // namespace sphreverb
