#include "sphreverb/physics/lattice_stability.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace sphreverb {

namespace {

using Sym3 = std::array<double, 6>;  // xx, yy, zz, xy, xz, yz

// Smallest eigenvalue of a symmetric 3 x 3 matrix: cyclic Jacobi rotations until the
// off-diagonal part is negligible (accurate to rounding also for repeated eigenvalues, where the
// trigonometric closed form loses half the digits).
double smallest_eigenvalue(const Sym3& s) {
  double a[3][3] = {{s[0], s[3], s[4]}, {s[3], s[1], s[5]}, {s[4], s[5], s[2]}};
  for (int sweep = 0; sweep < 50; ++sweep) {
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    if (off <= 1e-32 * diag || off == 0.0) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (a[p][q] == 0.0) continue;
        const double theta = 0.5 * (a[q][q] - a[p][p]) / a[p][q];
        const double t =
            std::copysign(1.0, theta) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), sn = t * c;
        for (int k = 0; k < 3; ++k) {  // columns p, q
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - sn * akq, a[k][q] = sn * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {  // rows p, q
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - sn * aqk, a[q][k] = sn * apk + c * aqk;
        }
      }
  }
  return std::min({a[0][0], a[1][1], a[2][2]});
}

}  // namespace

double lattice_stiffness_min(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                             const double (&q_dx)[3], double pressure_ratio) {
  // Units of dx = 1: G = F (a + b r^2), normalised so that s -> q for long waves.
  const LatticeGradient g = lattice_gradient(correction, kernel, h_over_dx, 1.0);
  double s[3] = {0.0, 0.0, 0.0};
  Sym3 m{};
  with_kernel(kernel, h_over_dx, [&](const auto& k) {
    const double eps = 1e-6;
    for_each_lattice_offset(kernel, h_over_dx, [&](int i, int j, int l, double r2, double F) {
      const double r = std::sqrt(r2);
      const double G = F * (g.a + g.b * r2);
      // G'(r) = F' (a + b r^2) + 2 b r F, F' by a central difference (F is smooth in the support).
      const double dF =
          (k.F(r + eps) - k.F(std::max(r - eps, 0.0))) / (r + eps - std::max(r - eps, 0.0));
      const double dG = dF * (g.a + g.b * r2) + 2.0 * g.b * r * F;
      const double phase = q_dx[0] * i + q_dx[1] * j + q_dx[2] * l;
      const double x[3] = {double(i), double(j), double(l)};
      const double sn = std::sin(phase), w = 1.0 - std::cos(phase), c = dG / r;
      for (int a = 0; a < 3; ++a) s[a] += G * sn * x[a];
      m[0] += w * (G + c * x[0] * x[0]);
      m[1] += w * (G + c * x[1] * x[1]);
      m[2] += w * (G + c * x[2] * x[2]);
      m[3] += w * c * x[0] * x[1];
      m[4] += w * c * x[0] * x[2];
      m[5] += w * c * x[1] * x[2];
    });
  });
  const double t = 2.0 * pressure_ratio;
  const Sym3 K{s[0] * s[0] + t * m[0], s[1] * s[1] + t * m[1], s[2] * s[2] + t * m[2],
               s[0] * s[1] + t * m[3], s[0] * s[2] + t * m[4], s[1] * s[2] + t * m[5]};
  return smallest_eigenvalue(K);
}

LatticeGrowth lattice_growth(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                             double dx, double sound_speed, double rest_density, double pressure,
                             int n) {
  LatticeGrowth best;
  const double ratio = pressure / (rest_density * sound_speed * sound_speed);
  if (ratio == 0.0) return best;
  const double step = std::numbers::pi / n;
  for (int a = 0; a <= n; ++a)
    for (int b = 0; b <= n; ++b)
      for (int c = 0; c <= n; ++c) {
        if (a == 0 && b == 0 && c == 0) continue;
        const double q[3] = {a * step, b * step, c * step};
        const double e = lattice_stiffness_min(correction, kernel, h_over_dx, q, ratio);
        const double rate = e < 0.0 ? sound_speed / dx * std::sqrt(-e) : 0.0;
        if (rate > best.rate) best = {rate, {q[0], q[1], q[2]}};
      }
  return best;
}

}  // namespace sphreverb
