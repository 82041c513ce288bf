// Particle shifting: the air's particles nudged towards a uniform spacing where they flow.
//
// Lagrangian particles follow the flow's deformation. Ahead of a moving object they pile up
// along its path while they spread sideways, as fluid does at a stagnation point, and SPH sums
// over so distorted a neighbourhood carry sound at another speed (docs/validation.md, V15's
// moving reflector). Shifting (Lind et al. 2012, J. Comput. Phys. 231; the velocity-scaled form of
// Skillen et al. 2013, Comput. Methods Appl. Mech. Engrg. 265) moves particle i by
//
//     dr_i = -A h |v_i| dt grad C_i,    grad C_i = sum_j (m / rho0) grad_i W_ij
//
// (grad C is the gradient of the particle concentration: zero on the lattice, pointing where the
// particles crowd), limited to kShiftLimit dx per step, and carries its density and velocity to
// the new place to first order:
//
//     rho_i += dr_i . grad rho_i,   v_i += (grad v_i) dr_i,
//     grad f_i = sum_j (m / rho0) (f_j - f_i) grad_i W_ij
//
// Only the particles the caller marks movable are shifted, and of those only the ones faster than
// kShiftMinSpeed (the simulation marks the air that has left its lattice site by more than
// kShiftMinOffset dx and that no wall holds: a sound field moves its particles by micrometres).
// The sums run in the pair loops' fixed order over the key-ordered neighbour lists (two passes:
// grad C, then the shift's derivatives d . grad f), so the shift is the same on any rank count.
// No MPI, no files.
#pragma once

#include <cstddef>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/physics/interactions.hpp"
#include "sphreverb/physics/neighbour_list.hpp"

namespace sphreverb {

constexpr double kShiftLimit = 0.05;      // dx, the largest shift of one step
constexpr double kShiftMinSpeed = 1e-3;   // m/s, slower particles are not shifted
constexpr double kShiftMinOffset = 0.05;  // dx, particles nearer their lattice site are not

// One step's shift of the owned particles (x, rho, v of every entry read; halo copies and ghosts
// current). `strength` is A, `dt` the step (s), `dx` the spacing (m), `movable[i]` false for an
// owned particle that stays. Returns, per owned particle, the displacement and the corrections
// (zero where it does not move), to be added by apply_shift.
struct Shift {
  std::vector<double> dx, dy, dz, drho, dvx, dvy, dvz;
};
Shift compute_shift(const Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                    double strength, double dt, double dx, const std::vector<char>& movable);

// x, rho, v of the owned particles += the shift.
void apply_shift(Particles& p, const Shift& s);

}  // namespace sphreverb
