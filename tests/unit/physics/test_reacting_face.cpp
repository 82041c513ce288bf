// Tests of the reacting face element (reacting_face.hpp): driven by a sinusoidal pressure it
// settles at the velocity p / Z(w) of its impedance, without mass and spring it is the resistive
// face W = p / R, and at the fitted walls of the material library it stays bounded.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "sphreverb/physics/reacting_face.hpp"

namespace sphreverb {
namespace {

constexpr double kRhoC = 1.2 * 343.0;

// Drives the element with p = cos(w t^n) for `periods` periods at step dt, then fits W over the
// last whole period (W^{n+1/2} at t^n + dt/2) to A cos(w t) + B sin(w t): returns A - j B, the
// complex velocity amplitude (e^{j w t} convention).
std::complex<double> settled_velocity(const WallImpedance& z, double f, double dt, int periods) {
  const ReactingFaceStep step(z, dt);
  const double w = 2.0 * std::numbers::pi * f;
  const auto per_period = static_cast<long>(std::llround(1.0 / (f * dt)));
  const long n = periods * per_period;
  double x = 0.0, v = 0.0, a = 0.0, b = 0.0;
  for (long k = 0; k < n; ++k) {
    step.advance(std::cos(w * static_cast<double>(k) * dt), x, v);
    if (k >= n - per_period) {
      const double t = (static_cast<double>(k) + 0.5) * dt;
      a += 2.0 * v * std::cos(w * t) / static_cast<double>(per_period);
      b += 2.0 * v * std::sin(w * t) / static_cast<double>(per_period);
    }
  }
  return {a, -b};
}

TEST(ReactingFaceStep, SinusoidalPressureGivesOneOverZ) {
  // A panel-like wall: resonance 354 Hz, R = 2 rho0 c; at and around resonance.
  const WallImpedance z{2.0 * kRhoC, 0.5, 0.5 * std::pow(2.0 * std::numbers::pi * 354.0, 2)};
  const double dt = 1.0 / (44100.0 * 4.0);
  for (double f : {125.0, 354.0, 1000.0, 2000.0}) {
    const std::complex<double> W = settled_velocity(z, f, dt, 60);
    const std::complex<double> expect = 1.0 / z.at(2.0 * std::numbers::pi * f);
    EXPECT_NEAR(std::abs(W) / std::abs(expect), 1.0, 0.01) << f << " Hz";
    EXPECT_NEAR(std::arg(W / expect), 0.0, 0.02) << f << " Hz";
  }
}

TEST(ReactingFaceStep, MasslessLimitIsTheResistiveFace) {
  // M tiny against R dt: W^{n+1/2} = p^n / R at once, as the resistive face's W = p/R.
  const WallImpedance z{3.0 * kRhoC, 1e-12, 0.0};
  const ReactingFaceStep step(z, 1e-5);
  double x = 0.0, w = 0.7;
  step.advance(250.0, x, w);
  EXPECT_DOUBLE_EQ(w, 250.0 / z.resistance);
  EXPECT_DOUBLE_EQ(x, 1e-5 * w);
}

TEST(ReactingFaceStep, UndampedSpringIsStableAtTheFittedBound) {
  // R = 0 and the fit's highest resonance w0 = 0.5 / dt: the energy stays bounded (no growth).
  const double dt = 1e-5, m = 0.012;
  const WallImpedance z{0.0, m, m * std::pow(0.5 / dt, 2)};
  const ReactingFaceStep step(z, dt);
  double x = 1e-6, w = 0.0, peak = 0.0;
  for (int k = 0; k < 100000; ++k) {
    step.advance(0.0, x, w);
    peak = std::max(peak, std::abs(x));
  }
  EXPECT_LT(peak, 1.2e-6);
  EXPECT_GT(peak, 0.9e-6);
}

}  // namespace
}  // namespace sphreverb
