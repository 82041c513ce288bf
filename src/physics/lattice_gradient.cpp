#include "sphreverb/physics/lattice_gradient.hpp"

#include <cmath>
#include <stdexcept>

namespace sphreverb {

LatticeGradient lattice_gradient(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                                 double dx) {
  if (correction == GradientCorrection::None) return {};
  // Moments along x in units of dx = 1 (the kernel's own units then give dx^3 G = 1 exactly):
  //   m2[p] = -sum_s s_x^2 F(r) r^(2p),  m4[p] = sum_s s_x^4 F(r) r^(2p),  p = 0, 1.
  double m2[2] = {0.0, 0.0}, m4[2] = {0.0, 0.0};
  for_each_lattice_offset(kernel, h_over_dx, [&](int i, int, int, double r2, double F) {
    const double x2 = double(i * i);
    m2[0] -= x2 * F, m2[1] -= x2 * F * r2;
    m4[0] += x2 * x2 * F, m4[1] += x2 * x2 * F * r2;
  });
  if (correction == GradientCorrection::FirstMoment) return {1.0 / m2[0], 0.0};
  // a m2[0] + b m2[1] = 1 and a m4[0] + b m4[1] = 0 (b in 1/dx^2).
  const double det = m2[0] * m4[1] - m2[1] * m4[0];
  // At h <= dx only the axis neighbours at distance 1 count along x (s_x^2 = s_x^4): singular.
  if (!(std::abs(det) > 1e-9 * std::abs(m2[0] * m4[1])))
    throw std::invalid_argument("fourth_order gradient correction needs h_over_dx > 1");
  return {m4[1] / det, -m4[0] / det / (dx * dx)};
}

}  // namespace sphreverb
