// The absorption <-> wall-impedance mapping (material.hpp): plane-wave formulas at their known
// values, the inverses round-trip, Paris' quadrature against its closed form, and the band fit
// recovering a wall it was generated from.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>

#include "sphreverb/physics/material.hpp"

namespace sphreverb {
namespace {

TEST(Material, NormalIncidenceAtKnownImpedances) {
  EXPECT_DOUBLE_EQ(normal_absorption(1.0), 1.0);   // matched: no reflection
  EXPECT_DOUBLE_EQ(normal_absorption(3.0), 0.75);  // r = 1/2
  EXPECT_NEAR(normal_absorption(1e9), 0.0, 1e-8);  // rigid
  // A pure reactance reflects everything.
  EXPECT_NEAR(normal_absorption({0.0, 2.0}), 0.0, 1e-15);
  // zeta = 1 + j: r = j / (2 + j), |r|^2 = 1/5.
  EXPECT_NEAR(normal_absorption({1.0, 1.0}), 0.8, 1e-15);
}

TEST(Material, HardBranchInvertsNormalAbsorption) {
  for (double a : {0.01, 0.1, 0.3, 0.5, 0.75, 0.9, 0.99}) {
    const double z = hard_resistance_ratio(a);
    EXPECT_GE(z, 1.0);
    EXPECT_NEAR(normal_absorption(z), a, 1e-12) << "alpha " << a;
  }
  EXPECT_TRUE(std::isinf(hard_resistance_ratio(0.0)));
  EXPECT_THROW(hard_resistance_ratio(1.0), std::invalid_argument);
  EXPECT_THROW(hard_resistance_ratio(-0.1), std::invalid_argument);
}

TEST(Material, ParisQuadratureMatchesClosedFormAndInverts) {
  // Closed form for real zeta (material.hpp): (8/z^2)[z - 2 ln(1+z) + z/(1+z)].
  for (double z : {0.5, 1.0, 1.6, 3.0, 10.0, 100.0}) {
    const double closed = 8.0 / (z * z) * (z - 2.0 * std::log1p(z) + z / (1.0 + z));
    EXPECT_NEAR(statistical_absorption(z), closed, 1e-9) << "zeta " << z;
  }
  for (double a : {0.02, 0.1, 0.4, 0.8, 0.95}) {
    const double z = resistance_ratio_for_statistical(a);
    EXPECT_GE(z, 1.5);
    EXPECT_NEAR(statistical_absorption(z), a, 1e-8) << "alpha_st " << a;
  }
  // The maximum of Paris' formula for real zeta is 0.951 near zeta = 1.567.
  const double peak = resistance_ratio_for_statistical(0.999);
  EXPECT_NEAR(peak, 1.567, 0.01);
  EXPECT_NEAR(statistical_absorption(peak), kMaxStatisticalAbsorption, 1e-3);
  // Low alpha: alpha_st ~ 8/zeta vs alpha_n ~ 4/zeta, so alpha_n ~ alpha_st / 2.
  const double z = resistance_ratio_for_statistical(0.02);
  EXPECT_NEAR(normal_absorption(z) / 0.02, 0.5, 0.03);
}

TEST(Material, BandFitRecoversAResonator) {
  const double rho_c = 1.204 * 343.0, layer = 1.204 * 0.01;
  WallImpedance truth;
  truth.resistance = 2.5 * rho_c;
  truth.mass = 0.08;
  truth.stiffness = truth.mass * std::pow(2 * M_PI * 300.0, 2);  // a panel resonating at 300 Hz
  std::array<double, 6> alpha{};
  for (std::size_t b = 0; b < alpha.size(); ++b)
    alpha[b] = normal_absorption(truth.at(2 * M_PI * kOctaveBands[b]) / rho_c);
  const BandFit fit = fit_bands(alpha, rho_c, layer);
  EXPECT_LT(fit.rms_error, 1e-4);
  for (std::size_t b = 0; b < alpha.size(); ++b) EXPECT_NEAR(fit.fitted[b], alpha[b], 3e-4);
  EXPECT_GE(fit.wall.mass, layer);
}

TEST(Material, BandFitOfFlatAndPorousCurves) {
  const double rho_c = 1.204 * 343.0, layer = 1.204 * 0.01;
  const BandFit flat = fit_bands({0.4, 0.4, 0.4, 0.4, 0.4, 0.4}, rho_c, layer);
  EXPECT_LT(flat.rms_error, 0.01);
  // A porous curve (carpet-like, rising): fitted within a few hundredths.
  const BandFit carpet = fit_bands({0.05, 0.1, 0.25, 0.5, 0.7, 0.75}, rho_c, layer);
  EXPECT_LT(carpet.rms_error, 0.05);
}

TEST(Material, BroadbandWallAndLayers) {
  const double rho_c = 413.0, layer = 0.012;
  const WallImpedance w = wall_for_absorption(0.5, rho_c, layer);
  EXPECT_NEAR(normal_absorption(w.resistance / rho_c), 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(w.mass, layer);
  // The weak spring's reactance is 2 % of rho c at the lowest band edge.
  EXPECT_NEAR(w.stiffness / (2 * M_PI * kLowestBandEdge) / rho_c, 0.02, 1e-12);
  EXPECT_EQ(tethered_layers(1.0), 1);
  EXPECT_EQ(tethered_layers(1.3), 1);
  EXPECT_EQ(tethered_layers(1.5), 1);
  EXPECT_EQ(tethered_layers(1.6), 2);
  EXPECT_EQ(tethered_layers(3.0), 3);
}

}  // namespace
}  // namespace sphreverb
