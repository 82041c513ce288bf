// Verlet neighbour lists of the owned particles over all entries (owned, halo, ghosts), built on
// a cell grid of cell size >= radius = support + skin. Each particle's neighbours are sorted by
// key, so every sum over them runs in an order that does not depend on the decomposition.
// Valid while no particle has moved more than skin/2 since the build.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/particles.hpp"

namespace sphreverb {

class NeighbourList {
 public:
  // Lists, for each owned i, every entry j != i with |x_i - x_j| <= radius, in key order.
  void build(const Particles& p, double radius);

  std::size_t size() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  // Neighbours of owned particle i: index()[offsets()[i] .. offsets()[i+1]).
  const std::vector<std::uint32_t>& offsets() const { return offsets_; }
  const std::vector<std::uint32_t>& index() const { return index_; }
  std::size_t pairs() const { return index_.size(); }

  // Cell-order permutation of the owned particles (for locality): order[new] = old.
  static std::vector<std::size_t> cell_order(const Particles& p, double cell);

 private:
  std::vector<std::uint32_t> offsets_, index_;
};

// The same search, brute force O(N^2): the reference the tests compare with.
std::vector<std::vector<std::uint32_t>> brute_force_neighbours(const Particles& p, double radius);

}  // namespace sphreverb
