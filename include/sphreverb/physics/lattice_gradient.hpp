// The kernel gradient the pair loops use, corrected for the simple cubic lattice the air starts on.
//
// SPH's gradient of a plane wave exp(j k x) on a lattice of spacing dx is j k~ exp(j k x) with the
// symbol k~(k) = -sum_s s_x G(s) sin(k s_x), G the radial factor of grad W (grad_i W_ij = x_ij G,
// G = F = (dW/dr)/r for the plain kernel) and s the lattice offsets. Continuity and momentum
// share the symbol, so the scheme's sound speed is c0 k~/k: its error is the gradient's.
//
// The loops use G(r) = F(r) (a + b r^2). With
//   none          a = 1, b = 0          k~ = M k + O(k^3), M = -(dx^3/3) sum_s r_s^2 F (0.979 for
//                                       Wendland C2 at h = 1.3 dx): -2.1 % at 20 PPW (V1)
//   first_moment  a = 1/M, b = 0        k~ = k + O(k^3): the scalar, lattice-exact form of the
//                                       kernel-gradient correction of Bonet & Lok (1999); -2.2 %
//                                       at 20 PPW (the k^3 term remains)
//   fourth_order  a, b from the 2 x 2   k~ = k + O(k^5): the k^3 term of the symbol vanishes too.
//                 system below           Lattice theory: -0.03 % at 20 PPW, -0.5 % at 10 PPW along
//                                       an axis (Wendland C2, h = 1.3 dx)
// The fourth-order pair (a, b) makes the first and third moments along an axis exact:
//   -sum_s s_x^2 G(s) = 1 / dx^3,  sum_s s_x^4 G(s) = 0,
// the lattice analogue of a kernel with vanishing second moment (as super-Gaussian kernels have).
// G changes sign at r = sqrt(a / -b) (about 1.29 h): momentum stays antisymmetric pair by pair,
// continuity and momentum share G so the discrete energy is conserved as before, and with the
// gauge-pressure equation of state omega^2 = c0^2 k~^2 >= 0 for every k (no instability). Viscosity
// and density diffusion are dissipative only with a one-signed kernel factor, so they keep plain F.
#pragma once

#include <cmath>

#include "sphreverb/physics/kernel.hpp"

namespace sphreverb {

// Scene names "none", "first_moment", "fourth_order".
enum class GradientCorrection { None, FirstMoment, FourthOrder };

struct LatticeGradient {
  double a = 1.0;  // dimensionless
  double b = 0.0;  // 1/m^2, multiplies r^2 in m^2
};

// Calls f(i, j, l, r2, F) for every lattice offset (i, j, l) != 0 that may lie in the support, in
// units of dx = 1: r2 = i^2 + j^2 + l^2 and F = (dW/dr)/r of `kernel` at h = h_over_dx (0 beyond
// the support). The lattice sums of lattice_gradient() and of the dispersion relation run here.
template <class Fn>
void for_each_lattice_offset(KernelKind kernel, double h_over_dx, Fn&& f) {
  with_kernel(kernel, h_over_dx, [&](const auto& k) {
    const int reach = static_cast<int>(std::ceil(k.support()));
    for (int i = -reach; i <= reach; ++i)
      for (int j = -reach; j <= reach; ++j)
        for (int l = -reach; l <= reach; ++l) {
          const double r2 = double(i * i + j * j + l * l);
          if (r2 > 0.0) f(i, j, l, r2, k.F(std::sqrt(r2)));
        }
  });
}

// (a, b) for `kernel` at h = h_over_dx * dx on a lattice of spacing dx (m).
LatticeGradient lattice_gradient(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                                 double dx);

}  // namespace sphreverb
