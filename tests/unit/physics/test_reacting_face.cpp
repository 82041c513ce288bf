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

// The acceleration the ghosts' pressure gradient takes: exactly (W^{n+1/2} - W^{n-1/2}) / dt of
// the step advance() takes; eq. (1)'s (p - R W - K X) / M where R dt / M is small; bounded by the
// change of p / R where the damper is stiff (the office plaster, R dt / M = 21), where eq. (1)'s
// form at W^{n-1/2} is R dt / M times larger.
TEST(ReactingFaceStep, AccelerationIsTheStepsAndStaysBoundedForAStiffDamper) {
  const double dt = 1.0 / 44100.0;
  const WallImpedance soft{100.0, 0.1204, 2.328e6};       // R dt / M = 0.019
  const WallImpedance plaster{1.131e5, 0.1204, 2.328e6};  // R dt / M = 21.3
  for (const WallImpedance& z : {soft, plaster}) {
    const ReactingFaceStep step(z, dt);
    double x = 1e-9, w = 1e-5;
    const double p = 2.0;
    const double a = step.acceleration(p, x, w);
    const double w0 = w;
    step.advance(p, x, w);
    EXPECT_NEAR(a, (w - w0) / dt, 1e-9 * std::abs(a));
  }
  {
    const ReactingFaceStep step(soft, dt);
    const double x = 1e-9, w = 1e-5, p = 2.0;
    const double eq1 = (p - soft.resistance * w - soft.stiffness * x) / soft.mass;
    EXPECT_NEAR(step.acceleration(p, x, w), eq1, 0.02 * std::abs(eq1));
  }
  {
    // At rest under p, then p changes by dp: W follows p / R within the step.
    const ReactingFaceStep step(plaster, dt);
    const double p0 = 1.0, dp = 0.1, w = p0 / plaster.resistance;
    const double a = step.acceleration(p0 + dp, 0.0, w);
    const double eq1 = (p0 + dp - plaster.resistance * w) / plaster.mass;
    EXPECT_LE(std::abs(a), 1.0001 * dp / plaster.resistance / dt);
    EXPECT_GT(std::abs(eq1 / a), 20.0);  // R dt / M times too large
  }
}

}  // namespace
}  // namespace sphreverb
