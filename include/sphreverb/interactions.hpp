// The neighbour loops: each owned particle sums pair terms (pair_terms.hpp) over its neighbour
// list, in key order. No MPI, no files: the caller refreshes halo copies and ghosts first.
#pragma once

#include "sphreverb/eos.hpp"
#include "sphreverb/lattice_gradient.hpp"
#include "sphreverb/neighbour_list.hpp"
#include "sphreverb/particles.hpp"
#include "sphreverb/scene.hpp"

namespace sphreverb {

struct PairPhysics {
  KernelKind kernel = KernelKind::WendlandC2;
  double h = 0.0;     // m
  double mass = 0.0;  // kg
  Eos eos;
  double viscosity = 0.0;            // alpha
  double density_diffusion = 0.0;    // delta
  double background_pressure = 0.0;  // Pa
  LatticeGradient gradient;          // grad W = x_ij F (a + b r^2) in momentum and continuity

  static PairPhysics from(const Scene& scene);
};

// a_i = pressure gradient + artificial viscosity, for owned i. Reads x, v, rho of all entries;
// writes ax, ay, az of the owned ones. `scratch` holds (P + P_b)/rho^2 per entry.
void compute_momentum(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                      std::vector<double>& scratch);

// drho_i/dt = continuity + density diffusion, for owned i. Reads x, v, rho of all entries;
// writes drho of the owned ones.
void compute_continuity(Particles& p, const NeighbourList& nl, const PairPhysics& phys);

}  // namespace sphreverb
