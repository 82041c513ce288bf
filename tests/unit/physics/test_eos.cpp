// Tests of the equations of state (eos.hpp): zero gauge pressure at rest, dp/drho = c0^2 at rest
// for both laws, the sound speed, and the adiabatic law away from rest.
#include <gtest/gtest.h>

#include <cmath>

#include "sphreverb/physics/eos.hpp"

namespace sphreverb {
namespace {

// Central difference of the pressure at rho with a relative step of 1e-6.
double dp_drho(const Eos& eos, double rho) {
  const double eps = 1e-6 * rho;
  return (eos.pressure(rho + eps) - eos.pressure(rho - eps)) / (2.0 * eps);
}

TEST(EosLinear, ZeroAtRestAndSlopeIsSoundSpeedSquared) {
  const Eos eos{EosKind::Linear, 1.204, 343.0, 1.4};
  EXPECT_EQ(eos.pressure(eos.rho0), 0.0);
  for (const double rho : {0.9 * eos.rho0, eos.rho0, 1.1 * eos.rho0}) {
    EXPECT_NEAR(dp_drho(eos, rho), eos.c0 * eos.c0, 1e-6 * eos.c0 * eos.c0);
    EXPECT_EQ(eos.sound_speed(rho), eos.c0);
  }
  const double dp = eos.c0 * eos.c0 * 0.01 * eos.rho0;
  EXPECT_NEAR(eos.pressure(1.01 * eos.rho0), dp, 1e-12 * dp);
  EXPECT_NEAR(eos.pressure(0.99 * eos.rho0), -dp, 1e-12 * dp);
}

TEST(EosIdealGas, ZeroAtRestAndSlopeIsSoundSpeedSquared) {
  for (const double gamma : {1.0, 1.4, 5.0 / 3.0}) {
    const Eos eos{EosKind::IdealGasAdiabatic, 1.204, 343.0, gamma};
    EXPECT_EQ(eos.pressure(eos.rho0), 0.0) << "gamma = " << gamma;
    EXPECT_NEAR(dp_drho(eos, eos.rho0), eos.c0 * eos.c0, 1e-6 * eos.c0 * eos.c0)
        << "gamma = " << gamma;
    EXPECT_DOUBLE_EQ(eos.sound_speed(eos.rho0), eos.c0) << "gamma = " << gamma;
  }
}

TEST(EosIdealGas, AdiabaticLawAwayFromRest) {
  const Eos eos{EosKind::IdealGasAdiabatic, 1.204, 343.0, 1.4};
  const double p0 = eos.rho0 * eos.c0 * eos.c0 / eos.gamma;  // 101 kPa for air
  const double rho = 1.01 * eos.rho0;
  EXPECT_NEAR(eos.pressure(rho), p0 * (std::pow(1.01, 1.4) - 1.0), 1e-12 * p0);
  // Compression raises the pressure by more than the linear law (convex), rarefaction by less.
  const Eos linear{EosKind::Linear, eos.rho0, eos.c0, eos.gamma};
  EXPECT_GT(eos.pressure(rho), linear.pressure(rho));
  EXPECT_GT(eos.pressure(0.99 * eos.rho0), linear.pressure(0.99 * eos.rho0));
  // c(rho) = sqrt(dp/drho) away from rest too.
  EXPECT_NEAR(eos.sound_speed(rho), std::sqrt(dp_drho(eos, rho)), 1e-6 * eos.c0);
  EXPECT_NEAR(eos.sound_speed(rho), eos.c0 * std::pow(1.01, 0.2), 1e-12 * eos.c0);
}

}  // namespace
}  // namespace sphreverb
