#include "sphreverb/geometric/spherical_reflection.hpp"

#include <algorithm>
#include <cmath>
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

// F(w) = 1 + i sqrt(pi) w W(w) for Im w >= 0. For large |w| there, W(w) ~ i / (sqrt(pi) w)
// sum_n (2n - 1)!! / (2 w^2)^n, so F(w) ~ -(1/(2 w^2) + 3/(4 w^4) + 15/(8 w^6) + 105/(16 w^8)).
std::complex<double> ground_wave(std::complex<double> w) {
  if (std::abs(w) > kAsymptotic) {
    const std::complex<double> u = 1.0 / (w * w);
    return -u * (0.5 + u * (0.75 + u * (1.875 + u * 6.5625)));
  }
  const std::complex<double> faddeeva(re_w_of_z(w.real(), w.imag()), im_w_of_z(w.real(), w.imag()));
  return 1.0 + std::complex<double>(0.0, std::sqrt(std::numbers::pi)) * w * faddeeva;
}

}  // namespace

std::complex<double> spherical_reflection(double zeta, double cos_theta, double kr) {
  if (zeta <= 0.0) return 1.0;
  const double c = std::clamp(cos_theta, 0.0, 1.0);
  const double plane = (zeta * c - 1.0) / (zeta * c + 1.0);
  // sqrt(i k r / 2) = sqrt(k r / 2) e^{i pi / 4}
  const double s = std::sqrt(0.5 * std::max(kr, 0.0)) * (c + 1.0 / zeta);
  const std::complex<double> w =
      s * std::complex<double>(std::numbers::sqrt2 / 2, std::numbers::sqrt2 / 2);
  return plane + (1.0 - plane) * ground_wave(w);
}

}  // namespace sphreverb
