// Verlet neighbour lists of the owned particles over all entries (owned, halo, ghosts), built on
// a cell grid of cell size >= radius = support + skin. Each particle's neighbours are sorted by
// key, so every sum over them runs in an order that does not depend on the decomposition.
// Valid while no particle has moved more than skin/2 since the build.
//
// Storage: the air is a lattice and the owned particles are kept in key (= lattice id) order, so
// in the bulk the k-th neighbour of particle i is entry i + stencil[k] for one fixed list of
// index offsets: such particles ("on the stencil") store nothing, and the pair loops read their
// neighbours with contiguous loads. Only the others (near walls, obstacles, slab faces: where
// ghosts, halo copies or missing sites break the pattern) keep an explicit list. Both forms list
// exactly the same neighbours in the same (key) order.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/core/particles.hpp"

namespace sphreverb {

class NeighbourList {
 public:
  // A range [begin, end) of consecutive owned particles on the stencil.
  struct Run {
    std::uint32_t begin, end;
  };

  // Lists, for each owned i, every entry j != i with |x_i - x_j| <= radius, in key order. The
  // stencil is the most common pattern of index offsets j - i; `use_stencil` = false keeps every
  // list explicit (the tests compare both forms).
  void build(const Particles& p, double radius, bool use_stencil = true);

  std::size_t size() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  // Neighbours of owned particle i, in key order, into `out` (cleared first).
  void neighbours(std::size_t i, std::vector<std::uint32_t>& out) const;
  // Entries over all lists (pairs i -> j).
  std::size_t pairs() const { return pairs_; }

  // For the pair loops. Particles in runs(): neighbours i + stencil()[k]; the others:
  // index()[offsets()[i] .. offsets()[i+1]) (an empty range for particles on the stencil).
  const std::vector<Run>& runs() const { return runs_; }
  const std::vector<std::int32_t>& stencil() const { return stencil_; }
  const std::vector<std::uint32_t>& offsets() const { return offsets_; }
  const std::vector<std::uint32_t>& index() const { return index_; }
  // Owned particles on the stencil.
  std::size_t on_stencil() const;

  // Key-order permutation of the owned particles (order[new] = old): the order the stencil needs
  // (lattice ids run along x, then y, then z) and a locality order as well.
  static std::vector<std::size_t> key_order(const Particles& p);
  // Cell-order permutation of the owned particles (for locality): order[new] = old.
  static std::vector<std::size_t> cell_order(const Particles& p, double cell);

 private:
  std::vector<std::uint32_t> offsets_, index_;
  std::vector<std::int32_t> stencil_;
  std::uint64_t stencil_hash_ = 0;  // the hash of stencil_'s offsets (build's guess of who fits)
  std::vector<Run> runs_;
  std::size_t pairs_ = 0;
};

// The same search, brute force O(N^2): the reference the tests compare with.
std::vector<std::vector<std::uint32_t>> brute_force_neighbours(const Particles& p, double radius);

}  // namespace sphreverb
