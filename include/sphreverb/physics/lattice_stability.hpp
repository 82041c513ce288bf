// Stability of the resting simple cubic lattice under a uniform pressure.
//
// The momentum equation's pressure term -m sum_j (P_i/rho_i^2 + P_j/rho_j^2) G_ij x_ij exerts no
// force on the lattice at rest, whatever the uniform pressure P, but its stiffness does depend on
// P. Linearised about the lattice (displacements u e^{j q.x}, units of dx = 1, m = rho0):
//
//     omega^2 / c0^2 = eig K(q),  K(q) = s s^T + 2 (P / (rho0 c0^2)) M(q),
//     s = sum_r G(r) sin(q.r) r,  M(q) = sum_r (1 - cos q.r) (G(r) I + G'(r)/r r r^T)
//
// (r the lattice offsets in the support, G = F (a + b r^2) the corrected gradient factor,
// lattice_gradient.hpp). s s^T is the sound (longitudinal, V1's dispersion); M carries the
// pressure's stiffness, which is all a transverse (shear) displacement feels. At the gauge
// pressure of acoustics (P = p', pascals) M is negligible. Under a sustained total pressure (a
// [fluid] background_pressure, the compression ahead of a moving wall, the tension behind it) M
// has negative eigenvalues for one sign of P or the other (both, for the default kernel and
// gradient): some modes grow at sigma = (c0 / dx) sqrt(-min eig K), ~ sqrt(|P|). With the tensile
// side this is Swegle's instability; on the compressed side it disorders the lattice too.
#pragma once

#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/lattice_gradient.hpp"

namespace sphreverb {

struct LatticeGrowth {
  double rate = 0.0;    // 1/s, the fastest growth rate (0: every mode oscillates)
  double q_dx[3] = {};  // its wavevector times dx, in [0, pi]^3
};

// The fastest-growing mode of the lattice of spacing dx (m) under the uniform pressure `pressure`
// (Pa, total: background plus gauge), scanning q over a grid of `n` + 1 points per axis in
// [0, pi]^3 (the lattice's symmetries give the rest).
LatticeGrowth lattice_growth(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                             double dx, double sound_speed, double rest_density, double pressure,
                             int n = 16);

// Smallest eigenvalue of K(q) above (units of 1/dx^2), for a wavevector q dx and the pressure
// ratio P / (rho0 c0^2).
double lattice_stiffness_min(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                             const double (&q_dx)[3], double pressure_ratio);

}  // namespace sphreverb
