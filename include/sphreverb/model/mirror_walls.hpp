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
// A reacting wall (a material given by `absorption_bands`, fitted to Z = R + j(wM - K/w),
// material.hpp) moves with the state of a face element instead: each first-layer particle of such
// a face carries its outward displacement X and velocity W (Particles::face_x, face_w), advanced
// once per step by M dW/dt + R W + K X = p_w under its own pressure (reacting_face.hpp), and the
// ghosts reflect the normal velocity about that W as a resistive face's do about p_w/R. The state
// belongs to the particle (it migrates, is halo-copied and checkpointed with it), so rank counts
// and restarts see the same W.
//
// The emitter disc set on a face is the moving part of that wall, a piston in a rigid baffle
// (linearised: its displacement, micrometres, is not applied; the face stays where it is). The
// images across that face of the particles whose lattice column meets the disc reflect the
// normal velocity about the face's W = phi V n_disc.n, V the disc's speed and phi the share of
// the column's face cell (dx by dx) the disc covers: a velocity boundary, as a resistive face's
// images are about p_w / R, whose volume velocity is V times the disc's area (a cell-centre
// rule, radius + dx/2, drove 21 cells of a 3 cm disc at 1.5 cm, 1.67 times its area). The disc
// has no particles of its own. Tethered to it, the particles
// in front of it moved with it and their images closed in on them at twice its speed (V3 8.9 dB
// per doubling of distance instead of 6.0); left without images, they made the face a force wall
// whose valid band is c / (20 dx).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sphreverb/core/fields.hpp"
#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/physics/eos.hpp"
#include "sphreverb/physics/material.hpp"
#include "sphreverb/physics/reacting_face.hpp"

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
  // A room with reacting faces too: `reacting[f]` with mass > 0 makes face f a face element of
  // that impedance (per unit area, material.hpp eq. 1; its admittance must be 0), advanced with
  // the time step dt (s). Pre: sqrt(K/M) dt < 2 (reacting_face.hpp).
  MirrorWalls(const Vec3& lo, const Vec3& hi, double width, const std::array<double, 6>& admittance,
              const std::array<WallImpedance, 6>& reacting, double dt, const Eos& eos,
              const Lattice& lattice);

  bool enabled() const { return width_ > 0.0; }
  // Some face is a reacting wall: the store must carry the face state (Particles::face_state).
  bool reacting() const {
    for (bool r : reacting_)
      if (r) return true;
    return false;
  }
  // The emitter disc on `face` (2 axis + side): centre and radius (m) in the face, and the
  // component of its normal along +axis (the face moves at V normal along +axis). The piston's
  // ghosts are chosen by rest position (lattice site), so every rank agrees.
  struct Piston {
    int face = -1;  // -1: none
    Vec3 center;
    double radius = 0.0;
    double normal = 0.0;
  };
  void set_piston(const Piston& piston) { piston_ = piston; }
  bool driven() const { return piston_.face >= 0; }
  // The disc's speed V (m/s) along its normal; refresh_piston() then moves the piston's ghosts.
  void set_piston_speed(double speed) { piston_speed_ = speed; }
  // Appends the ghosts of entries [0, n_owned + n_halo) after them (all fields, keys with their
  // image). Pre: n_ghost = 0.
  void rebuild(Particles& p);
  // Rewrites the velocity of the piston's ghosts (their sources' velocities are current).
  void refresh_piston(Particles& p) const;
  // Recomputes the ghosts' `fields` from their sources (on a resistive wall a density refresh
  // rewrites the velocity too: W follows the first layer's pressure).
  void refresh(Particles& p, FieldSet fields) const;
  // Advances the face elements of the owned first-layer particles of the reacting faces by one
  // step under their current pressure (reacting_face.hpp eq. 2): (X^n, W^{n-1/2}) ->
  // (X^{n+1}, W^{n+1/2}) with p^n. The halo copies' W must be refreshed after it, then the
  // ghosts' velocity. Pre: rebuild ran since the owned particles were last reordered.
  void advance_faces(Particles& p) const;
  // Copies an even scalar kept outside the store (one value per entry) from sources to ghosts.
  void refresh(const Particles& p, std::vector<double>& values) const;
  // Copies a vector kept outside the store (three components, one value per entry) to the images,
  // reflected like the velocity but without the faces' own motion.
  void refresh_reflected(const Particles& p, std::vector<double>& x, std::vector<double>& y,
                         std::vector<double>& z) const;

 private:
  static constexpr std::uint32_t kNoLayer = static_cast<std::uint32_t>(-1);
  struct Ghost {
    std::size_t source;
    int image;  // base-3 digits per axis: 0 low face, 1 none, 2 high face
  };
  // Per ghost of a resistive or reacting room, per axis: the entry whose pressure (resistive) or
  // face state (reacting) moves that face (kNoLayer: not mirrored there, a rigid face, or the
  // first-layer particle is not on this rank, which only happens for ghosts beyond the support
  // of every owned particle). Empty when rigid.
  using Layers = std::array<std::uint32_t, 3>;
  void write(Particles& p, std::size_t slot, std::size_t g, FieldSet fields) const;
  bool resistive() const {
    for (double a : admittance_)
      if (a > 0.0) return true;
    return false;
  }
  // Some face moves (resistive or reacting): the ghosts need their first layers.
  bool moving() const { return resistive() || reacting(); }
  bool moving(int face) const { return admittance_[face] > 0.0 || reacting_[face]; }
  // An owned first-layer particle of a reacting face: its entry, axis and face (2 axis + side).
  struct Element {
    std::size_t entry;
    int axis, face;
  };

  Vec3 lo_, hi_;
  double width_ = 0.0;
  std::array<double, 6> admittance_{};  // 1/R per face, m/(Pa s); 0 = rigid
  Eos eos_;
  Lattice lattice_;
  std::vector<Ghost> ghosts_;
  std::vector<Layers> layers_;
  std::array<bool, 6> reacting_{};
  std::array<ReactingFaceStep, 6> steps_{};
  std::vector<Element> elements_;
  Piston piston_;
  double piston_speed_ = 0.0;  // m/s, along the disc's normal
  // Per ghost: the share of its column's face cell the disc covers, 0 where it is not an image
  // across the piston's face (empty: no piston).
  std::vector<double> shares_;
  std::vector<std::uint32_t> pistons_;  // the ghosts behind the piston (share > 0)
};

}  // namespace sphreverb
