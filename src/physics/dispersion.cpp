#include "sphreverb/physics/dispersion.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sphreverb/physics/lattice_gradient.hpp"

namespace sphreverb {

double lattice_phase_error(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                           double ppw, const double (&n)[3]) {
  // Units of dx = 1: G = F (a + b r^2) with b in 1/dx^2.
  const LatticeGradient g = lattice_gradient(correction, kernel, h_over_dx, 1.0);
  const double norm = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  const double k = 2.0 * std::numbers::pi / ppw;
  double symbol = 0.0;
  for_each_lattice_offset(kernel, h_over_dx, [&](int i, int j, int l, double r2, double F) {
    const double s = (n[0] * i + n[1] * j + n[2] * l) / norm;
    symbol -= s * F * (g.a + g.b * r2) * std::sin(k * s);
  });
  return symbol / k - 1.0;
}

double ppw_for_phase_error(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                           double tolerance) {
  constexpr double kDirections[4][3] = {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {2, 1, 0}};
  constexpr double kLongest = 60.0, kShortest = 2.0, kRatio = 0.995;
  double worst = kShortest;
  for (const auto& n : kDirections) {
    const auto error = [&](double ppw) {
      return std::abs(lattice_phase_error(correction, kernel, h_over_dx, ppw, n));
    };
    // Geometric scan from long to short waves, then bisection in the first bracket.
    if (error(kLongest) >= tolerance) return kLongest;
    for (double longer = kLongest, ppw = kLongest * kRatio; ppw >= kShortest;
         longer = ppw, ppw *= kRatio) {
      if (error(ppw) < tolerance) continue;
      double below = ppw, above = longer;  // error(below) >= tolerance > error(above)
      for (int it = 0; it < 40; ++it) {
        const double mid = 0.5 * (below + above);
        (error(mid) >= tolerance ? below : above) = mid;
      }
      worst = std::max(worst, above);
      break;
    }
  }
  return worst;
}

double laplacian_symbol(KernelKind kernel, double h_over_dx, const double (&k_dx)[3]) {
  double sum = 0.0;
  for_each_lattice_offset(kernel, h_over_dx, [&](int i, int j, int l, double, double F) {
    sum += (1.0 - std::cos(k_dx[0] * i + k_dx[1] * j + k_dx[2] * l)) * F;
  });
  return 2.0 * sum;
}

double laplacian_symbol_max(KernelKind kernel, double h_over_dx) {
  constexpr double pi = std::numbers::pi;
  constexpr double kCorners[3][3] = {{pi, 0, 0}, {pi, pi, 0}, {pi, pi, pi}};
  double worst = 0.0;
  for (const auto& k : kCorners)
    worst = std::max(worst, std::abs(laplacian_symbol(kernel, h_over_dx, k)));
  return worst;
}

}  // namespace sphreverb
