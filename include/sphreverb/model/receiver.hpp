// Receivers (microphones): the kernel-weighted air density at fixed points, every step.
//
// The density at a receiver r is the Shepard-normalised kernel interpolation of the particles'
// densities (the seed's "weighted sum of the particle masses", made exact for a uniform field):
//     rho(x_r) = sum_j m W(|x_r - x_j|) / sum_j (m / rho_j) W(|x_r - x_j|)
// The rank whose slab contains x_r evaluates it from its owned particles, halo copies and ghosts
// (together they hold every particle within the kernel support of x_r), summing in key order; the
// other ranks contribute 0, so the sum onto rank 0 is exact and independent of the rank count.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"
#include "sphreverb/parallel/slabs.hpp"
#include "sphreverb/physics/kernel.hpp"

namespace sphreverb {

class Receivers {
 public:
  Receivers() = default;
  // positions (m), in output order; the kernel of smoothing length h (m) and the particle mass
  // (kg) of the interpolation above.
  Receivers(std::vector<Vec3> positions, KernelKind kernel, double h, double mass);

  // Local: selects, for the receivers in this rank's slab, the entries within `radius` (support
  // + skin) of each, in key order. Pre: halo copies and ghosts are present.
  void rebuild(const Particles& p, const Slabs& slabs, int rank, double radius);
  // Local: appends one record (one value per receiver) to the pending block.
  void measure(const Particles& p);
  // Collective over comm: moves the pending records to rank 0's series.
  void flush(MPI_Comm comm);

  std::size_t size() const { return positions_.size(); }
  const Vec3& position(std::size_t r) const { return positions_[r]; }  // m
  // Rank 0 after flush: density (kg/m^3) of receiver r, one value per measure() call.
  const std::vector<double>& density(std::size_t r) const { return series_[r]; }
  // Rank 0, nothing pending: replaces the series (a checkpoint's records, one vector per receiver).
  void restore(std::vector<std::vector<double>> series) { series_ = std::move(series); }

 private:
  std::vector<Vec3> positions_;
  KernelKind kernel_ = KernelKind::WendlandC2;
  double h_ = 0.0, mass_ = 0.0;
  std::vector<std::vector<std::uint32_t>> candidates_;  // per receiver; empty if not ours
  std::vector<char> ours_;
  std::vector<double> pending_;  // records x receivers
  std::vector<std::vector<double>> series_;
};

}  // namespace sphreverb
