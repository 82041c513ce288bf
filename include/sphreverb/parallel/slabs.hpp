// Slab decomposition: the domain is cut along one axis into one slab per rank. Cuts sit between
// lattice planes and balance the particle counts; every slab must be at least `min_thickness`
// thick (the halo width), so halo copies only ever come from the two neighbouring slabs.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace sphreverb {

// Thrown when the scene cannot be cut into the requested number of slabs.
class DecompositionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Slabs {
 public:
  // Cuts planes at coordinates plane_pos (ascending, along `axis`) holding plane_count particles
  // each, spanning [lo, hi], into `ranks` slabs of balanced counts. Throws DecompositionError if
  // a slab would be thinner than min_thickness (m) or hold no particle.
  static Slabs balanced(int axis, const std::vector<double>& plane_pos,
                        const std::vector<std::int64_t>& plane_count, double lo, double hi,
                        int ranks, double min_thickness);

  // The largest rank count `balanced` accepts for these planes (at least 1).
  static int max_ranks(const std::vector<double>& plane_pos,
                       const std::vector<std::int64_t>& plane_count, double lo, double hi,
                       double min_thickness);

  int axis() const { return axis_; }
  int ranks() const { return static_cast<int>(cuts_.size()) - 1; }
  // Slab r spans [lo(r), hi(r)) along the axis; the first and last slabs extend to -inf / +inf
  // for ownership, so a particle slightly outside the domain still has an owner.
  double lo(int r) const { return cuts_[r]; }
  double hi(int r) const { return cuts_[r + 1]; }
  int owner(double coordinate) const;

 private:
  int axis_ = 0;
  std::vector<double> cuts_;  // ranks + 1 values: domain lo, inner cuts, domain hi
};

}  // namespace sphreverb
