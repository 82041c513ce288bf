#include "sphreverb/energy.hpp"

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

}  // namespace sphreverb
