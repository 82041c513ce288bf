// Room walls by mirror particles: the [room] box reflects sound through ghost particles, the
// mirror images of the air particles near its faces (the "ghost particle" wall treatment; cf.
// Adami, Hu & Adams 2012 for the dummy-particle family). A ghost has its source's density, and
// its source's velocity with the normal component reflected about the wall's normal velocity W:
//
//     v_g.n = 2 W - v_s.n,    rho_g = rho_s.
//
// A rigid wall has W = 0: free slip, v.n = 0 and dp/dn = 0 on the geometric face, exactly at
// room.min / room.max. A resistive wall (specific impedance Z = R, one broadband absorption,
// material.hpp eq. 3) moves outward with W = p_w / R, the pressure p_w on the face taken from the
// particle of the same lattice column nearest to it (the first layer, dx/2 from the face). The
// mean of a source's and its ghost's normal velocity is then W on the face: the continuity sum
// sees a wall that gives way at p/R, the locally reacting wall of Z = R at every frequency and
// angle (no tethered layer, no spring). W is recomputed from the current densities whenever the
// ghosts' velocity or density is refreshed, so it is a function of the particles' state alone
// (restarts and rank counts see the same ghosts).
//
// A disc emitter set on a face is the moving part of that wall (a piston in a baffle). The
// particles tethered to it move with it; their mirror images would close in on them at twice the
// piston's speed, a spurious compression on the face that radiates (V3 measured 8.9 dB per
// doubling of distance instead of 6.0). So the images of those particles across that face are not
// made: the piston's particles have no image, every other particle keeps its images.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "sphreverb/physics/eos.hpp"
#include "sphreverb/core/fields.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"

namespace sphreverb {

class MirrorWalls {
 public:
  MirrorWalls() = default;
  // Box [lo, hi]; ghosts are made for sources within `width` (m) of a face. Each side of the box
  // must exceed 2 width, so a particle is near at most one face per axis.
  MirrorWalls(const Vec3& lo, const Vec3& hi, double width) : lo_(lo), hi_(hi), width_(width) {}
  // A resistive room: admittance 1/R (m/(Pa s)) per face (2 axis + side; 0 = rigid); the lattice
  // gives each source its column's first-layer particle (lattice index 0 or n - 1 along the axis).
  MirrorWalls(const Vec3& lo, const Vec3& hi, double width, const std::array<double, 6>& admittance,
              const Eos& eos, const Lattice& lattice)
      : lo_(lo), hi_(hi), width_(width), admittance_(admittance), eos_(eos), lattice_(lattice) {}

  bool enabled() const { return width_ > 0.0; }
  // without_image(i, axis): entry i has no image across the faces normal to `axis` (see above).
  // It must depend on the entry's rest position only, so every rank agrees.
  using WithoutImage = std::function<bool(std::size_t, int)>;
  // Appends the ghosts of entries [0, n_owned + n_halo) after them (all fields, keys with their
  // image). Pre: n_ghost = 0.
  void rebuild(Particles& p, const WithoutImage& without_image = {});
  // Recomputes the ghosts' `fields` from their sources (on a resistive wall a density refresh
  // rewrites the velocity too: W follows the first layer's pressure).
  void refresh(Particles& p, FieldSet fields) const;
  // Copies an even scalar kept outside the store (one value per entry) from sources to ghosts.
  void refresh(const Particles& p, std::vector<double>& values) const;

 private:
  static constexpr std::uint32_t kNoLayer = static_cast<std::uint32_t>(-1);
  struct Ghost {
    std::size_t source;
    int image;  // base-3 digits per axis: 0 low face, 1 none, 2 high face
  };
  // Per ghost of a resistive room, per axis: the entry whose pressure moves that face (kNoLayer:
  // not mirrored there, a rigid face, or the first-layer particle is not on this rank, which
  // only happens for ghosts beyond the support of every owned particle). Empty when rigid.
  using Layers = std::array<std::uint32_t, 3>;
  void write(Particles& p, std::size_t slot, std::size_t g, FieldSet fields) const;
  bool resistive() const {
    for (double a : admittance_)
      if (a > 0.0) return true;
    return false;
  }

  Vec3 lo_, hi_;
  double width_ = 0.0;
  std::array<double, 6> admittance_{};  // 1/R per face, m/(Pa s); 0 = rigid
  Eos eos_;
  Lattice lattice_;
  std::vector<Ghost> ghosts_;
  std::vector<Layers> layers_;
};

}  // namespace sphreverb
