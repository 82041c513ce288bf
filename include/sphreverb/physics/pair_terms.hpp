// Pair terms of weakly-compressible SPH as small pure functions. Notation: i the particle, j a
// neighbour, x_ij = x_i - x_j, v_ij = v_i - v_j, r = |x_ij|, F = (dW/dr)/r so that
// grad_i W_ij = x_ij F (kernel.hpp), m the particle mass.
#pragma once

namespace sphreverb::pair {

// Symmetric pressure gradient (Monaghan 1992, Eq. 3.3; Monaghan 2005 Eq. 2.24):
//   dv_i/dt = - sum_j m (P_i/rho_i^2 + P_j/rho_j^2 + Pi_ij) grad_i W_ij
// Returns the scalar s with dv_i/dt contribution = s * x_ij.
inline double momentum(double m, double p_over_rho2_i, double p_over_rho2_j, double visc,
                       double F) {
  return -m * (p_over_rho2_i + p_over_rho2_j + visc) * F;
}

// Monaghan's artificial viscosity (Monaghan 1992, Eq. 4.1-4.2), applied to approaching and
// receding pairs alike so it is a linear acoustic damping:
//   Pi_ij = - alpha c h (v_ij . x_ij) / (rho_bar (r^2 + 0.01 h^2))
inline double artificial_viscosity(double alpha, double c, double h, double vdotx, double r2,
                                   double rho_bar) {
  return -alpha * c * h * vdotx / (rho_bar * (r2 + 0.01 * h * h));
}

// Continuity equation (Monaghan 1992, Eq. 2.7): drho_i/dt = sum_j m v_ij . grad_i W_ij.
inline double continuity(double m, double vdotx, double F) { return m * vdotx * F; }

// Density diffusion of delta-SPH (Molteni & Colagrossi 2009, Eq. 11):
//   D_i = delta h c sum_j psi_ij . grad_i W_ij V_j,  psi_ij = 2 (rho_j - rho_i) x_ji / r^2
// which with x_ji . grad_i W_ij = -r^2 F gives  -2 delta h c (rho_j - rho_i) F r^2/(r^2 + eta^2)
// V_j (eta^2 = 0.01 h^2 keeps r -> 0 finite; V_j = m / rho_j).
inline double density_diffusion(double delta, double h, double c, double rho_i, double rho_j,
                                double r2, double F, double volume_j) {
  return -2.0 * delta * h * c * (rho_j - rho_i) * F * r2 / (r2 + 0.01 * h * h) * volume_j;
}

}  // namespace sphreverb::pair
