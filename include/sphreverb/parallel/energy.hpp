// Global sums that must not depend on the decomposition. Floating-point addition is not
// associative, so each particle's contribution is rounded to an integer multiple of `unit` and the
// integers are summed (exactly) over the ranks.
#pragma once

#include <mpi.h>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"

namespace sphreverb {

// Collective over comm: kinetic energy E = 1/2 m sum |v|^2 of the owned particles (J), to a
// resolution of `unit` (J) per particle. Contributions above 2^40 units per particle saturate (the
// result is then only "large"), so pick unit ~ threshold * 2^-20 for a threshold test.
double kinetic_energy(const Particles& p, double mass, double unit, MPI_Comm comm);

// The acoustic energy of the air at one time (J): kinetic sum 1/2 m |v|^2 and potential
// sum m c0^2 (rho - rho0)^2 / (2 rho0^2) (the linear-acoustics energy density
// c0^2 rho'^2 / (2 rho0) times the particle volume m / rho0). docs/validation.md, V5.
struct AcousticEnergy {
  double time = 0.0;  // s
  double kinetic = 0.0, potential = 0.0;
};

// Collective over comm: the acoustic energy of the owned particles (a plain floating-point sum;
// its last bits depend on the rank count). `time` is copied into the result.
AcousticEnergy acoustic_energy(const Particles& p, double mass, double rho0, double c0, double time,
                               MPI_Comm comm);

// Where the acoustic energy sits: the owned particles (over all ranks) whose energy
// e_i = m |v_i|^2 / 2 + m c0^2 (rho_i - rho0)^2 / (2 rho0^2) is at least `fraction` of the largest
// e_i, their share of the total, their energy-weighted centroid and root-mean-square distance from
// it along each axis, and their bounding box. A growth at a wall concentrates there: the region
// names the place an unstable run grows from (simulation.cpp's energy watch).
struct EnergyRegion {
  std::int64_t particles = 0;  // in the region
  double share = 0.0;          // of the total acoustic energy, 0..1
  Vec3 centroid;               // m, energy-weighted
  Vec3 spread;                 // m, energy-weighted rms distance from the centroid per axis
  Vec3 lo, hi;                 // m, the region's bounding box
  Vec3 peak;                   // m, the particle of the largest e_i (the lowest rank's on a tie)
};

// Collective over comm. Pre: 0 < fraction <= 1. No energy at all: particles = 0.
EnergyRegion energy_region(const Particles& p, double mass, double rho0, double c0, double fraction,
                           MPI_Comm comm);

}  // namespace sphreverb
