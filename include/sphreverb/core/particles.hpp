// The particle store of one rank: a structure of arrays with named fields.
//
// Layout: [0, n_owned) are this rank's particles; [n_owned, n_owned + n_halo) are halo copies of
// neighbours' particles; [n_owned + n_halo, size()) are mirror images across the room's mirror
// walls (ghosts). Halo copies and ghosts are dropped and rebuilt at every neighbour rebuild.
//
// Every entry carries a `key` that is unique across all ranks and independent of the domain
// decomposition: key = id * 27 + image, where image in [0, 27) encodes the reflection
// (base-3 digit per axis: 0 = mirrored at the low wall, 1 = not mirrored, 2 = at the high wall),
// so a real particle has image 13. Sums over neighbours run in key order, which is what makes the
// results bit-for-bit independent of the rank count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sphreverb/core/vec3.hpp"

namespace sphreverb {

inline constexpr int kRealImage = 13;
inline constexpr std::int64_t image_key(std::int64_t id, int image) { return id * 27 + image; }

struct Particles {
  // hot fields: read by every pair loop
  std::vector<double> x, y, z;     // m, position
  std::vector<double> vx, vy, vz;  // m/s, velocity (staggered: v at half steps)
  std::vector<double> rho;         // kg/m^3, density (continuity equation)
  // per-step results, owned particles only
  std::vector<double> ax, ay, az;  // m/s^2, acceleration
  std::vector<double> drho;        // kg/(m^3 s), density rate
  // cold fields (the rest position is the lattice site of the id: Lattice::site_of)
  std::vector<std::int64_t> key;  // decomposition-independent sort key (see above)
  // Face-element state of a reacting mirror face (mirror_walls.hpp), per axis: the outward
  // displacement X (m) and velocity W (m/s) of the face normal to that axis that this particle is
  // the first layer of (zero elsewhere). Carried, migrated and checkpointed with the particle;
  // empty unless `face_state` (rigid and resistive rooms carry none).
  std::array<std::vector<double>, 3> face_x, face_w;
  bool face_state = false;

  std::size_t n_owned = 0, n_halo = 0, n_ghost = 0;

  std::size_t size() const { return x.size(); }
  Vec3 position(std::size_t i) const { return {x[i], y[i], z[i]}; }
  Vec3 velocity(std::size_t i) const { return {vx[i], vy[i], vz[i]}; }
  std::int64_t id(std::size_t i) const { return key[i] / 27; }

  // Gives every entry a zero face-element state (face_state becomes true).
  void enable_face_state();
  // Resizes every field to n (new entries zero); per-step results are resized with it.
  void resize(std::size_t n);
  // Appends `count` zeroed copy entries (halo copies or ghosts): every field but the per-step
  // results, which exist for owned particles only.
  void append_copies(std::size_t count);
  // Drops halo copies and ghosts: size() becomes n_owned.
  void drop_copies();
  // Copies entry `from` to entry `to` (all fields), for compaction.
  void copy_entry(std::size_t from, std::size_t to);
  // Copies entry `from` of `other` to entry `to` of this store (all fields).
  void copy_entry_from(const Particles& other, std::size_t from, std::size_t to);
  // Reorders the owned particles: new i = old order[i]. order is a permutation of [0, n_owned).
  void permute_owned(const std::vector<std::size_t>& order);
};

}  // namespace sphreverb
