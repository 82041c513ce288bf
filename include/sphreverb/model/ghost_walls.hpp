// Walls of any shape by fixed ghost particles (Marrone et al. 2011, "delta-SPH model for
// simulating violent impact flows", CMAME 200, sec. 3: fixed ghost particles; the dummy-particle
// family of Adami, Hu & Adams 2012). Theory and measurements: docs/theory/walls.md.
//
// Ghosts sit on the lattice sites on the solid side of a wall (SolidGeometry) within `reach` of
// the air: the lattice continues through the wall, so the kernel sums of an air particle see a
// full, regular neighbourhood. Ghost g at site x_g takes the air's state at its mirror point
// across the nearest wall point c, x_m = 2 c - x_g:
//
//     rho_g = rho(x_m),    v_g = v(x_m) reflected in each face k meeting at c:
//     v <- v - (v.n_k) n_k + (2 W_k - v.n_k) n_k,    W_k = p(x_m) / R_k  (0: rigid),
//
// n_k the unit normal (air -> solid) of face k, R_k its resistance (a locally reacting wall of
// specific impedance Z = R: the mean normal velocity of air and ghost on the face is W). A face
// of a band material is a reacting wall of the fitted Z = R + j(wM - K/w) (material.hpp eq. 1):
// each ghost site carries, per such face, a face element of its own (X_k, W_k), advanced once
// per step by M dW/dt + R W + K X = p(x_m) under the pressure at its mirror point
// (reacting_face.hpp eq. 2), and W_k is that element's velocity. A face that moves so has a
// normal pressure gradient at the wall, dp/dn_k = -rho0 dW_k/dt (the air's momentum there), where
// a rigid face has none: the ghost's density is the interpolated one plus that gradient times
// the distance along n_k from the interpolated state's point to the ghost (Marrone et al. 2011,
// sec. 3, the pressure of ghosts beside an accelerating body), with dW_k/dt from the element's
// equation, or for a resistive face from its W = p(x_m)/R now and at the last step (kept per
// site like an element). Without it an oblique absorbing face absorbed 0.87 to 1.16 times its
// admittance, depending on its angle to the lattice (docs/theory/walls.md). Behind
// the emitter disc W_k = V n_disc . n_k, V its speed: a velocity boundary (a piston). At a
// point in the middle of a face this is one reflection; nearest to an edge or a corner of a box
// it reflects every velocity component normal to the faces there, the images of mirror_walls.hpp.
//
// The state at x_m is interpolated from the air particles: triquadratic Lagrange interpolation on
// a 3 x 3 x 3 block of air lattice sites around x_m (exact where x_m is a lattice site: a box
// face half a spacing beyond the lattice gives the mirror wall's densities); else, where no
// all-air block lies around x_m, the Lagrange value at a probe point x_p deeper on the line from
// x_g through c plus (x_m - x_p) times the probe block's central-difference gradient (second
// order, and blind to the lattice's 2 dx wave, which a Lagrange derivative off the block's
// centre amplifies); else a Shepard average (Wendland C2 weights, h = dx, radius 2 dx; convex,
// never amplifying). The
// stencils and weights use the lattice sites, not the particles' positions: they depend on the
// geometry alone and are computed once; a rebuild only finds the entries of the stencil ids.
// Every stencil point lies within kStencilReach of x_m along each axis.
//
// A ghost moves with its state, as a mirror wall's image moves with its particle: it sits at its
// site plus the interpolated displacement of the air from rest (sum of w_q (x_q - site_q)),
// reflected in each face like the velocity, about the face where it stands (x_n -> 2 X_k - x_n,
// X_k the displacement of a face element, a resistive face's integrated W or the disc's;
// reflected about the face at rest, oblique faces left an offset behind pulses, second order in
// the amplitude). Behind the disc the pressure gradient is that of its acceleration. Held at their
// sites while the air beside them moved, the ghosts broke the symmetry of a plane wave along a duct
// by the air's displacement over the spacing and seeded the lattice's transverse 2 dx
// (checkerboard) mode at every reflection off the duct's ends (docs/theory/walls.md, "Ghosts that
// move with the air").
//
// The air's sites within kClearance dx of a wall are ghosts on the air side (their own site's
// state, extrapolated from a probe as above, else a Shepard average, its normal velocity
// interpolated linearly between W on the face and the average's at its centroid):
// docs/theory/walls.md, measured by V10 and V12.
//
// Keys: a ghost's key is image_key(lattice.sites() + e, 0) with e the index of its site on the
// lattice extended by `pad` sites on every side, unique and the same on every rank.
//
// A ghost is active on a rank when an owned particle, where it is or at its lattice site, lies
// within reach of it; a ghost with a face element (an absorbing face) also wherever its stencil is
// at hand on the rank. The face elements (and the resistive faces' rows) are computed
// redundantly: every rank advances those of its active ghosts from the ghost's interpolated
// density, which is the same sum of the same halo values on every rank. A ghost active on several
// ranks therefore holds the same state on each, bit for bit, as long as it stays active from the
// start; a site that turns active later on a rank (a stencil particle moved into the rank's halo
// after the first rebuild) is counted (Stats::late) and starts from the state this rank holds,
// which may differ from another rank's. A checkpoint stores the elements of every rank's active
// ghosts by key (face_states).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sphreverb/core/fields.hpp"
#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/model/solid_geometry.hpp"
#include "sphreverb/physics/eos.hpp"
#include "sphreverb/physics/material.hpp"
#include "sphreverb/physics/reacting_face.hpp"

namespace sphreverb {

struct GhostWallParams {
  double reach = 0.0;  // m, ghosts are kept within this of an owned particle (support + skin)
  Eos eos;             // pressure of the resistive walls' W = p / R and the reacting faces' drive
  double dt = 0.0;     // s, the time step of the reacting faces' elements (reacting_face.hpp)
  // The emitter disc where it lies on a wall (a piston in a baffle): the ghosts whose wall point
  // lies on it, behind a face parallel to it, make that part of the face move with the disc,
  // W_k = V n_disc . n_k (+ p / R_k) with V the disc's speed (set_piston); the disc then
  // has no particles of its own (no tethers). The other faces there (the side walls of a duct
  // the piston fills) are walls as everywhere else. radius 0: none.
  Vec3 piston_center, piston_normal;
  double piston_radius = 0.0;  // m
};

class GhostWalls {
 public:
  // Stencil points lie within this many spacings of the mirror point along each axis.
  static constexpr double kStencilReach = 2.5;
  // An air-side site this close to a wall (in spacings) without a particle is a ghost too.
  static constexpr double kOnWall = 1e-6;
  // The air's lattice sites closer than this to a wall (in spacings) are ghosts, not particles
  // (SolidGeometry::set_clearance): a particle nearly on a wall has no image close to it and,
  // on a wall oblique to the lattice, was measured to drift through it (V10 at 17 degrees).
  // Below 1/2: a face half a spacing beyond the lattice keeps its mirror-wall layout.
  static constexpr double kClearance = 0.25;
  // How the ghosts' mirror states are interpolated (counts, for the log).
  struct Stats {
    std::size_t sites = 0, lagrange = 0, shepard = 0, dropped = 0;
    std::size_t reacting = 0;  // sites with a face element of a band material's face
    std::size_t elements = 0;  // sites with a row of face state (a band or a resistive face)
    std::size_t late = 0;      // such sites that turned active after steps had run
    double seconds = 0.0;
  };
  // The face elements of one ghost site (its faces in contact order; 0 for a face that is not
  // reacting): X^n (m) and W^{n-1/2} (m/s), outward.
  struct FaceState {
    std::int64_t key = 0;  // the ghost's key
    double x[3] = {0.0, 0.0, 0.0}, w[3] = {0.0, 0.0, 0.0};
  };

  GhostWalls() = default;
  // The ghost sites of `geometry` whose coordinate along `axis` lies in [lo, hi] (m): solid
  // sites within params.reach of a wall. air(i, j, k) says whether lattice site (i, j, k) (in
  // range) holds an air particle. Local, deterministic.
  template <class AirSite>
  GhostWalls(const SolidGeometry& geometry, const Lattice& lattice, AirSite&& air,
             const GhostWallParams& params, int axis, double lo, double hi)
      : lattice_(lattice), params_(params) {
    build(
        geometry, [&](int i, int j, int k) { return air(i, j, k); }, axis, lo, hi);
  }

  bool enabled() const { return !sites_.empty(); }
  // Whether some ghost lies behind the emitter disc (a face it moves).
  bool driven() const { return driven_; }
  // The disc's displacement (m), speed (m/s) and acceleration (m/s^2) along its normal, for the
  // following refreshes.
  void set_piston(double shift, double speed, double acceleration) {
    piston_shift_ = shift, piston_speed_ = speed, piston_acceleration_ = acceleration;
  }
  const Stats& stats() const { return stats_; }
  std::size_t active() const { return active_.size(); }
  // Some ghost site has a face element (a face of a band material).
  bool reacting() const { return stats_.reacting > 0; }

  // Advances the face elements of the active reacting ghosts by one step under the pressure at
  // their mirror points p(x_m)^n (reacting_face.hpp eq. 2): (X^n, W^{n-1/2}) -> (X^{n+1},
  // W^{n+1/2}); a resistive face's row keeps W^n = p(x_m)^n / R and X^{n+1} = X^n + W^n dt
  // (its displacement, for the ghosts' positions). Pre: the ghosts' densities are
  // rho^n (refreshed). Local; the ghosts' velocities follow at the next velocity refresh.
  void advance_faces();
  // The face elements of the active reacting ghosts, ascending by key.
  std::vector<FaceState> face_states() const;
  // Sets the face elements of every site whose key is in `states` (any order; others keep theirs).
  void set_face_states(const std::vector<FaceState>& states);

  // Appends the ghosts within `reach` of an owned particle after the entries present (owned,
  // halo and other ghosts), with their state. Throws std::logic_error if a stencil entry is
  // missing (the halo must reach reach + kStencilReach dx beyond the slab). The ghosts are placed
  // as if every face stood at rest (no face displacement), so that neighbour lists built now are
  // a function of the particles' positions alone, which a checkpoint carries for the last rebuild
  // (a restart rebuilds the same lists); refresh(p, Field::Position) then places them where the
  // faces stand.
  void rebuild(Particles& p);
  // Whether some site of this rank's set has a face whose W depends on the pressure or on the
  // disc (a resistive face or one behind the emitter disc). Local.
  bool pressure_dependent() const;
  // Whether a density refresh rewrites the ghosts' velocities too (W follows the pressure). It
  // must be the same on every rank, so that a ghost's velocity is rewritten at the same refreshes
  // whichever rank holds it: the simulation sets it to pressure_dependent() of any rank. Default:
  // pressure_dependent() of this set.
  void set_velocity_follows_density(bool on) { velocity_follows_density_ = on; }
  // Recomputes the ghosts' position, density and velocity (a density refresh rewrites the
  // velocity too where set_velocity_follows_density). A ghost's position is its site plus the
  // displacement of its state from rest reflected about its faces' own displacements (X_k of a
  // face element or a resistive face's row, the disc's along n_k), as the velocity about W_k.
  void refresh(Particles& p, FieldSet fields) const;
  // The same for the ghosts behind the emitter disc only, all three fields (after set_piston;
  // the others do not depend on the disc).
  void refresh_driven(Particles& p) const;
  // Interpolates an even scalar kept outside the store (one value per entry) to the ghosts.
  void refresh(const Particles& p, std::vector<double>& values) const;
  // Interpolates a vector kept outside the store (three components, one value per entry) to the
  // ghosts, reflected in their faces like the velocity but without the faces' own motion (W = 0).
  void refresh_reflected(std::vector<double>& x, std::vector<double>& y,
                         std::vector<double>& z) const;

 private:
  struct Site {
    Vec3 x;  // m, the ghost's lattice site
    std::int64_t key = 0;
    int faces = 0;
    Vec3 normal[3];
    double admittance[3] = {0.0, 0.0, 0.0};
    double drive[3] = {0.0, 0.0, 0.0};  // the face's normal velocity per unit disc speed
    // Per face: v.n - W of the ghost = odd * (that of the interpolated state); -1 reflects.
    double odd[3] = {-1.0, -1.0, -1.0};
    // Per face: the distance (m) along its normal from the point whose state the ghost takes
    // (x_m, its own site, or a Shepard stencil's centroid) to the ghost's site; the pressure
    // grows across it by -rho0 dW/dt per metre on a face that moves (refresh()).
    double lever[3] = {0.0, 0.0, 0.0};
    // m, the rest point of its state: the stencil's weights times its entries' lattice sites.
    Vec3 rest;
    std::uint32_t first = 0, count = 0;  // its stencil in stencil_id_ / weight_
    std::int32_t element = -1;           // its row in face_x_ / face_w_ (-1: no reacting face)
    std::int8_t step[3] = {-1, -1, -1};  // per face: its element's integrator in steps_ (-1: none)
    // Face k is resistive (W = p / R, no element of a band material, not the disc's): its row
    // keeps W of the last step.
    bool resistive(int k) const { return step[k] < 0 && admittance[k] > 0.0 && drive[k] == 0.0; }
    // Some face of the site moves with the emitter disc.
    bool driven() const { return drive[0] != 0.0 || drive[1] != 0.0 || drive[2] != 0.0; }
    // Some face of the site moves (a face element, a resistive row or the disc's).
    bool moves() const { return element >= 0 || driven(); }
  };
  template <class F>
  void build(const SolidGeometry& geometry, F&& air, int axis, double lo, double hi);
  // v reflected in the site's faces without their motion: v.n_k -> odd_k (v.n_k), face by face.
  static Vec3 reflected(const Site& s, Vec3 v);
  // refresh() of active ghost a, its stencil at entry_[e...].
  void refresh_ghost(Particles& p, std::size_t a, std::size_t e, bool density, bool velocity,
                     bool position) const;
  // The density the pressure gradient across the site's moving faces adds to the state rho.
  double moving_face_density(const Site& s, double rho) const;
  // The displacement of the site's faces (m, sum over k of X_k n_k): its elements' or resistive
  // rows' X_k and the disc's.
  Vec3 face_displacement(const Site& s) const;
  void build_impl(const SolidGeometry& geometry, const std::vector<char>& air_block,
                  const int block_lo[3], const int block_n[3], int axis, double lo, double hi);

  Lattice lattice_;
  GhostWallParams params_;
  std::vector<Site> sites_;
  std::vector<std::int64_t> stencil_id_;  // lattice ids, ascending per ghost
  std::vector<double> weight_;
  // After rebuild(): the active ghosts (indices into sites_), their first slot, their stencils
  // as entry indices (parallel to the sites' stencil ranges).
  std::vector<std::uint32_t> active_;
  std::size_t first_slot_ = 0;
  std::vector<std::uint32_t> entry_;
  // The active ghosts behind the disc: (active index, first entry of its stencil).
  std::vector<std::pair<std::size_t, std::size_t>> driven_active_;
  // The reacting faces: the distinct fitted walls and their integrators; per reacting site three
  // X and three W (rows of Site::element), kept across rebuilds.
  std::vector<WallImpedance> impedances_;
  std::vector<ReactingFaceStep> steps_;
  std::vector<double> face_x_, face_w_;
  // Per active ghost (active order): the density interpolated at its state's point, before the
  // moving faces' pressure gradient is added (refresh()): the faces' elements are driven by it.
  mutable std::vector<double> mirror_rho_;
  std::vector<char> was_active_;  // per reacting site: active at the last rebuild
  std::int64_t advanced_ = 0;     // steps the elements were advanced
  Stats stats_;
  bool driven_ = false;
  bool velocity_follows_density_ = false;
  bool faces_at_rest_ = false;        // refresh places the ghosts as if the faces stood at rest
  double piston_shift_ = 0.0;         // m
  double piston_speed_ = 0.0;         // m/s
  double piston_acceleration_ = 0.0;  // m/s^2
};

template <class F>
void GhostWalls::build(const SolidGeometry& geometry, F&& air, int axis, double lo, double hi) {
  if (geometry.empty()) return;
  // The air flags of the lattice block the stencils can touch (x_m lies within 2 reach of x_g).
  const double dx = lattice_.dx, margin = 2.0 * params_.reach + (kStencilReach + 2.0) * dx;
  int block_lo[3] = {0, 0, 0}, block_n[3] = {lattice_.n[0], lattice_.n[1], lattice_.n[2]};
  const int first =
      std::max(0, static_cast<int>(std::floor((lo - margin - lattice_.origin[axis]) / dx)));
  const int last =
      std::min(lattice_.n[axis] - 1,
               static_cast<int>(std::ceil((hi + margin - lattice_.origin[axis]) / dx)));
  block_lo[axis] = first;
  block_n[axis] = std::max(0, last - first + 1);
  std::vector<char> flags(static_cast<std::size_t>(block_n[0]) * block_n[1] * block_n[2], 0);
  std::size_t q = 0;
  for (int k = 0; k < block_n[2]; ++k)
    for (int j = 0; j < block_n[1]; ++j)
      for (int i = 0; i < block_n[0]; ++i, ++q)
        flags[q] = air(i + block_lo[0], j + block_lo[1], k + block_lo[2]) ? 1 : 0;
  build_impl(geometry, flags, block_lo, block_n, axis, lo, hi);
}

}  // namespace sphreverb
