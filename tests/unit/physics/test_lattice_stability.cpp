// Tests of the resting lattice's stability under a uniform pressure (lattice_stability.hpp): no
// growth at the gauge pressure of acoustics; at a zone-boundary wavevector (where the sound term
// vanishes) the stiffness is exactly proportional to the pressure; Swegle's criterion for the
// plain Wendland kernel at h = dx (every neighbour beyond the kernel's inflection point: stable
// in compression, unstable in tension); the default scheme grows on both sides.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sphreverb/physics/lattice_stability.hpp"

namespace sphreverb {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kC = 343.0, kRho = 1.2, kDx = 0.03;

LatticeGrowth growth(GradientCorrection g, double h_over_dx, double pressure) {
  return lattice_growth(g, KernelKind::WendlandC2, h_over_dx, kDx, kC, kRho, pressure, 12);
}

TEST(LatticeStability, GaugePressureHasNoGrowingMode) {
  EXPECT_EQ(growth(GradientCorrection::FourthOrder, 1.3, 0.0).rate, 0.0);
  // Sound alone: K = s s^T is positive semi-definite for every q.
  for (double q : {0.3, 1.0, 2.0, kPi}) {
    const double q_dx[3] = {q, 0.5 * q, 0.0};
    EXPECT_GE(lattice_stiffness_min(GradientCorrection::FourthOrder, KernelKind::WendlandC2, 1.3,
                                    q_dx, 0.0),
              -1e-12);
  }
}

TEST(LatticeStability, ZoneBoundaryStiffnessIsLinearInPressure) {
  // At q = (0, pi, pi) every sin(q.r) vanishes: K = 2 (P / rho0 c0^2) M exactly.
  const double q_dx[3] = {0.0, kPi, kPi};
  const auto k = [&](double ratio) {
    return lattice_stiffness_min(GradientCorrection::FourthOrder, KernelKind::WendlandC2, 1.3, q_dx,
                                 ratio);
  };
  const double one = k(0.01);
  ASSERT_NE(one, 0.0);
  EXPECT_NEAR(k(0.04), 4.0 * one, 1e-12 * std::abs(one));
}

TEST(LatticeStability, SweglesCriterionForThePlainKernel) {
  // h = dx: the neighbours (r >= dx, q = r/h >= 1) lie beyond the inflection point of Wendland C2
  // (q = 0.5), where W'' > 0: stable in compression, unstable in tension.
  EXPECT_EQ(growth(GradientCorrection::None, 1.0, 3000.0).rate, 0.0);
  EXPECT_GT(growth(GradientCorrection::None, 1.0, -3000.0).rate, 0.0);
}

TEST(LatticeStability, DefaultSchemeGrowsOnBothSides) {
  // Fourth-order gradient, h = 1.3 dx: both signs of a sustained pressure have growing modes, at
  // rates of the order (c0 / dx) sqrt(|P| / (rho0 c0^2)).
  const double scale = kC / kDx * std::sqrt(3000.0 / (kRho * kC * kC));
  for (double p : {3000.0, -3000.0}) {
    const LatticeGrowth g = growth(GradientCorrection::FourthOrder, 1.3, p);
    EXPECT_GT(g.rate, 0.1 * scale) << p;
    EXPECT_LT(g.rate, 10.0 * scale) << p;
  }
  // Growth ~ sqrt(|P|) where the mode is transverse.
  const double r1 = growth(GradientCorrection::FourthOrder, 1.3, 3000.0).rate;
  const double r4 = growth(GradientCorrection::FourthOrder, 1.3, 12000.0).rate;
  EXPECT_NEAR(r4 / r1, 2.0, 0.05);
}

}  // namespace
}  // namespace sphreverb
