// The neighbour loops: each owned particle sums pair terms (pair_terms.hpp) over its neighbour
// list, in key order. No MPI, no files: the caller refreshes halo copies and ghosts first.
#pragma once

#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/physics/eos.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/lattice_gradient.hpp"
#include "sphreverb/physics/neighbour_list.hpp"

namespace sphreverb {

struct PairPhysics {
  KernelKind kernel = KernelKind::WendlandC2;
  double h = 0.0;     // m
  double mass = 0.0;  // kg
  Eos eos;
  double viscosity = 0.0;            // alpha
  double density_diffusion = 0.0;    // delta
  double hyperdiffusion = 0.0;       // eps c dx^3 (m^4/s): drho/dt += -this * L(L(rho))
  double hyperviscosity = 0.0;       // eps c dx^3 (m^4/s): dv/dt += -this * L(L(v))
  double background_pressure = 0.0;  // Pa
  double rest_density = 1.204;       // kg/m^3 (the hyperdiffusion's volumes m / rho0)
  LatticeGradient gradient;          // grad W = x_ij F (a + b r^2) in momentum and continuity
};

// The density hyperdiffusion (a fourth-order filter, cf. the 4th-difference artificial
// dissipation of Jameson, Schmidt & Turkel 1981): with the SPH Laplacian
//     L(f)_i = 2 (m / rho0) sum_j (f_i - f_j) F_ij          (F = (dW/dr)/r < 0, plain kernel)
// the continuity equation gains  -eps c dx^3 L(L(rho))_i.  On the lattice L's symbol is
// lambda(k) = -k^2 (1 + O(k^2 dx^2)), so the term damps a wave at the rate eps c dx^3 lambda^2
// ~ eps c k (k dx)^3: negligible in the audible band, and strongest where a wavevector component
// nears pi/dx, the short-wave branch of the collocated lattice (its frequencies alias into the
// audible band, it is not absorbed by walls: V7). Pairs are antisymmetric, so mass is conserved.
// It is applied as a filter every kHyperdiffusionEvery steps (simulation.cpp), the rate times
// that many steps: L(rho), refreshed on halo copies and ghosts, then rho -= n dt eps c dx^3
// L(L(rho)) and a density refresh. Two pair loops per n steps instead of two extra sums in every
// step's loops (which cost 28 % of the step at 110 k particles; this costs ~7 %).
//
// The velocity hyperviscosity is the same filter on each velocity component, v -= n dt eps c dx^3
// L(L(v)), with the ghosts' and mirror images' L(v) reflected like a velocity (without the walls'
// own motion). The density filter alone leaves the short-wave modes whose energy is mostly
// kinetic; next to hard walls oblique to the lattice those grow (docs/limitations.md), and this
// removes them. Off by default: at walls it also acts on the ghosts' interpolation error and so
// absorbs a little (docs/theory/walls.md).

// a_i = pressure gradient + artificial viscosity, for owned i. Reads x, v, rho of all entries;
// writes ax, ay, az of the owned ones. `scratch` holds (P + P_b)/rho^2 per entry.
void compute_momentum(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                      std::vector<double>& scratch);

// drho_i/dt = continuity + density diffusion, for owned i. Reads x, v, rho of all entries;
// writes drho of the owned ones.
void compute_continuity(Particles& p, const NeighbourList& nl, const PairPhysics& phys);

// out_i = L(f)_i for owned i; f holds one value per entry (halo copies and ghosts included).
void compute_laplacian(const Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                       const double* f, double* out);
// The same for the three components of a vector in one loop: out[a]_i = L(f[a])_i, the same bits
// as three compute_laplacian calls.
void compute_laplacian(const Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                       const double* const (&f)[3], double* const (&out)[3]);

}  // namespace sphreverb
