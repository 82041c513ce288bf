// The background pressure balanced at rest.
//
// A constant background pressure P_b in the momentum equation (PairPhysics::background_pressure)
// adds  a_b,i = -m P_b sum_j (1/rho_i^2 + 1/rho_j^2) G_ij x_ij  to every particle. Where the
// kernel support is full (the bulk, mirror walls, ghost walls) a uniform P_b exerts no net force
// on the lattice at rest; where it is not (next to a force wall's removed sites, around the
// emitter's disc, whose particles have no mirror image) it pushes the lattice towards the hole,
// and the particles there never settle. What P_b is for is its resistance to the pairing
// (tensile) instability, which comes from the change of the sum as neighbours move, not from its
// value at rest. So each particle's acceleration from P_b on the lattice at rest (P' = 0,
// rho = rho0, v = 0), a_b,i^rest, is recorded once and subtracted at every step:
//
//     a_i = -m sum_j (P_i/rho_i^2 + P_j/rho_j^2 + P_b (1/rho_i^2 + 1/rho_j^2)) G_ij x_ij
//           - a_b,i^rest
//
// so the lattice at rest is again an exact equilibrium, and P_b still acts on any departure from
// it (the remedy of a uniform background pressure against tensile instability: Adami, Hu &
// Adams 2013, J. Comput. Phys. 241, the background pressure of their transport velocity; here
// in the momentum equation itself, balanced at rest). In the bulk a_b^rest vanishes up to
// rounding; only particles with |a_b^rest| above `threshold` are kept. With P_b = 0 the table
// is empty and nothing changes.
//
// The record depends on the particle's id only (the lattice at rest is the same on any rank
// count, and the momentum sums are), so a rank that receives a particle looks it up by id.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/core/particles.hpp"

namespace sphreverb {

struct RestAcceleration {
  std::int64_t id;
  double ax, ay, az;  // m/s^2
};

class BackgroundBalance {
 public:
  BackgroundBalance() = default;
  // `all`: every particle's record (any order; ids unique). Sorted here.
  explicit BackgroundBalance(std::vector<RestAcceleration> all);

  // The owned particles' records of p, whose accelerations ax, ay, az hold exactly the
  // momentum equation's at rest with the background pressure alone (P' = 0 at rho0, v = 0):
  // those with |a| > threshold (m/s^2).
  static std::vector<RestAcceleration> at_rest(const Particles& p, double threshold);

  bool empty() const { return table_.empty(); }
  std::size_t size() const { return table_.size(); }
  // Finds the owned particles of p that have a record (after every rebuild: ids move).
  void rebuild(const Particles& p);
  // a_i -= a_b,i^rest for the owned particles found by the last rebuild. Pre: ax, ay, az hold
  // the momentum equation's accelerations.
  void subtract(Particles& p) const;

 private:
  std::vector<RestAcceleration> table_;  // sorted by id
  struct Local {
    std::size_t particle, record;
  };
  std::vector<Local> local_;
};

// The threshold for at_rest: 1e-9 of the background pressure's one-sided acceleration scale
// P_b / (rho0 dx) (m/s^2). Rounding leaves ~1e-16 of that in the bulk.
inline double background_balance_threshold(double background_pressure, double rest_density,
                                           double spacing) {
  return 1e-9 * background_pressure / (rest_density * spacing);
}

}  // namespace sphreverb
