#include "sphreverb/geometric/spherical_reflection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <numbers>

// libcerf's real-argument entry points (cerf.h declares them beside the C99 complex ones, which
// C++ cannot include): Re and Im of Faddeeva's W(x + i y).
extern "C" {
double re_w_of_z(double x, double y);
double im_w_of_z(double x, double y);
}

namespace sphreverb {

namespace {

// |w| beyond which F(w) is its asymptotic series (below): the first omitted term is below 1e-6.
constexpr double kAsymptotic = 6.0;

using cplx = std::complex<double>;

// For a real zeta, w = s e^{i pi / 4} with s >= 0 real: F is a function of s alone. Up to
// kAsymptotic it is read from a table of F and dF/ds (s = 0, kTableStep, ...) by cubic Hermite
// interpolation (error below 1e-9), the table computed once from libcerf's W.
constexpr double kTableStep = 0.01;
constexpr int kTableSize = static_cast<int>(kAsymptotic / kTableStep) + 2;

const cplx kDiagonal(std::numbers::sqrt2 / 2, std::numbers::sqrt2 / 2);  // e^{i pi / 4}

// F(w) = 1 + i sqrt(pi) w W(w) for Im w >= 0. For large |w| there, W(w) ~ i / (sqrt(pi) w)
// sum_n (2n - 1)!! / (2 w^2)^n, so F(w) ~ -(1/(2 w^2) + 3/(4 w^4) + 15/(8 w^6) + 105/(16 w^8));
// with w^2 = i s^2 that is (3/(4 s^4) - 105/(16 s^8)) + i (1/(2 s^2) - 15/(8 s^6)).
cplx asymptotic(double s) {
  const double v = 1.0 / (s * s), v2 = v * v;
  return {v2 * (0.75 - 6.5625 * v2), v * (0.5 - 1.875 * v2)};
}

struct Table {
  std::array<cplx, kTableSize> f, df;  // F and dF/ds at s = i kTableStep
  Table() {
    const double sqrt_pi = std::sqrt(std::numbers::pi);
    for (int i = 0; i < kTableSize; ++i) {
      const cplx w = static_cast<double>(i) * kTableStep * kDiagonal;
      const cplx faddeeva(re_w_of_z(w.real(), w.imag()), im_w_of_z(w.real(), w.imag()));
      f[i] = 1.0 + cplx(0.0, sqrt_pi) * w * faddeeva;
      // W'(w) = -2 w W + 2 i / sqrt(pi), so dF/dw = i sqrt(pi) W (1 - 2 w^2) - 2 w; dw/ds = e^{i
      // pi/4}.
      df[i] = (cplx(0.0, sqrt_pi) * faddeeva * (1.0 - 2.0 * w * w) - 2.0 * w) * kDiagonal;
    }
  }
};

// F(s e^{i pi / 4}) for s >= 0.
cplx ground_wave(double s) {
  if (s > kAsymptotic) return asymptotic(s);
  static const Table table;
  const double x = s / kTableStep;
  const int i = std::min(static_cast<int>(x), kTableSize - 2);
  const double t = x - i, t2 = t * t, t3 = t2 * t;
  const double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2,
               h11 = t3 - t2;
  return h00 * table.f[i] + h01 * table.f[i + 1] +
         kTableStep * (h10 * table.df[i] + h11 * table.df[i + 1]);
}

}  // namespace

std::complex<double> spherical_reflection(double zeta, double cos_theta, double kr) {
  if (zeta <= 0.0) return 1.0;
  const double c = std::clamp(cos_theta, 0.0, 1.0);
  const double plane = (zeta * c - 1.0) / (zeta * c + 1.0);
  // w = sqrt(i k r / 2) (cos theta + 1 / zeta) = s e^{i pi / 4}
  const double s = std::sqrt(0.5 * std::max(kr, 0.0)) * (c + 1.0 / zeta);
  return plane + (1.0 - plane) * ground_wave(s);
}

}  // namespace sphreverb
