// Receivers (microphones): the kernel-weighted air density at fixed points, every step, and for
// an ambisonic receiver also the kernel-weighted air velocity.
//
// The density at a receiver r is the Shepard-normalised kernel interpolation of the particles'
// densities (the seed's "weighted sum of the particle masses", made exact for a uniform field):
//     rho(x_r) = sum_j m W(|x_r - x_j|) / sum_j (m / rho_j) W(|x_r - x_j|)
// The rank whose slab contains x_r evaluates it from its owned particles, halo copies and ghosts
// (together they hold every particle within the kernel support of x_r), summing in key order; the
// other ranks contribute 0, so the sum onto rank 0 is exact and independent of the rank count.
//
// An ambisonic receiver also records the Shepard-normalised velocity with the same weights
//     v(x_r) = sum_j (m / rho_j) v_j W(|x_r - x_j|) / sum_j (m / rho_j) W(|x_r - x_j|)
// (m/s, the particles' staggered velocity: half a step before the density of the same record),
// summed in the same key order by the same rank. Its density record is computed exactly as an
// omni receiver's, so the two agree bit for bit at the same point.
//
// A moving receiver (a Path with several keyframes) is evaluated at x_r(t) at each record: the
// rank whose slab contains x_r(t) selects the entries within the kernel support of it from all
// its particles (owned, copies, ghosts: O(N) per moving receiver and record) and sums them in
// key order, so the record is the same on any rank count.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/path.hpp"
#include "sphreverb/parallel/slabs.hpp"
#include "sphreverb/physics/kernel.hpp"

namespace sphreverb {

class Receivers {
 public:
  Receivers() = default;
  // positions (m), in output order; the kernel of smoothing length h (m) and the particle mass
  // (kg) of the interpolation above. ambisonic[r] != 0: receiver r also records the velocity
  // (empty: none does).
  // paths[r] with several keyframes: receiver r moves (omni only; empty: none moves).
  Receivers(std::vector<Vec3> positions, KernelKind kernel, double h, double mass,
            std::vector<char> ambisonic = {}, std::vector<Path> paths = {});

  // Local: selects, for the receivers in this rank's slab, the entries within `radius` (support
  // + skin) of each, in key order. Pre: halo copies and ghosts are present.
  void rebuild(const Particles& p, const Slabs& slabs, int rank, double radius);
  // Local: appends one record (one value per channel: density, then vx vy vz for an ambisonic
  // receiver) to the pending block. t (s of stage 2): where the moving receivers are.
  void measure(const Particles& p, double t = 0.0);
  // Collective over comm: moves the pending records to rank 0's series.
  void flush(MPI_Comm comm);

  std::size_t size() const { return positions_.size(); }
  const Vec3& position(std::size_t r) const { return positions_[r]; }  // m
  // Rank 0 after flush: density (kg/m^3) of receiver r, one value per measure() call.
  const std::vector<double>& density(std::size_t r) const { return series_[r]; }
  bool ambisonic(std::size_t r) const { return velocity_channel_[r] >= 0; }
  // Rank 0 after flush, ambisonic receiver r: velocity component axis (0 = x, 1 = y, 2 = z) in
  // m/s, one value per measure() call.
  const std::vector<double>& velocity(std::size_t r, int axis) const;
  // Rank 0: the velocity series x y z of every receiver in receiver order (3 size() vectors;
  // those of an omni receiver are empty): a checkpoint's record of them.
  std::vector<std::vector<double>> velocity_series() const;
  // Rank 0, nothing pending: replaces the series (a checkpoint's records): one density vector per
  // receiver, and velocity_series()'s layout (the omni receivers' vectors are ignored; an empty
  // `velocity` restores none). Throws std::invalid_argument for other counts.
  void restore(std::vector<std::vector<double>> density,
               std::vector<std::vector<double>> velocity = {});

 private:
  // A moving receiver's density at xr (m) if this rank's slab holds xr, else 0.
  template <class Kernel>
  double measure_moving(const Particles& p, const Kernel& kernel, const Vec3& xr);
  // Writes receiver r's velocity (Shepard-normalised, m/s) into its channels of `record`.
  template <class Kernel>
  void measure_velocity(const Particles& p, const Kernel& kernel, std::size_t r,
                        double* record) const;

  std::vector<Vec3> positions_;
  std::vector<Path> paths_;  // per receiver (a fixed one: empty or one keyframe)
  Slabs slabs_;              // as of the last rebuild: which rank a moving receiver is on
  int rank_ = 0;
  double radius_ = 0.0;
  std::vector<std::uint32_t> moving_candidates_;
  KernelKind kernel_ = KernelKind::WendlandC2;
  double h_ = 0.0, mass_ = 0.0;
  std::vector<std::vector<std::uint32_t>> candidates_;  // per receiver; empty if not ours
  std::vector<char> ours_;
  std::vector<int> velocity_channel_;        // per receiver: index of its vx series, or -1
  std::vector<double> pending_;              // records x channels
  std::vector<std::vector<double>> series_;  // per channel: densities first, then velocities
};

}  // namespace sphreverb
