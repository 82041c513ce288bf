// Global sums that must not depend on the decomposition. Floating-point addition is not
// associative, so each particle's contribution is rounded to an integer multiple of `unit` and the
// integers are summed (exactly) over the ranks.
#pragma once

#include <mpi.h>

#include "sphreverb/particles.hpp"

namespace sphreverb {

// Collective over comm: kinetic energy E = 1/2 m sum |v|^2 of the owned particles (J), to a
// resolution of `unit` (J) per particle. Contributions above 2^40 units per particle saturate (the
// result is then only "large"), so pick unit ~ threshold * 2^-20 for a threshold test.
double kinetic_energy(const Particles& p, double mass, double unit, MPI_Comm comm);

}  // namespace sphreverb
