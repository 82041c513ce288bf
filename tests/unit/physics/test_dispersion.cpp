// The lattice dispersion relation behind f_max (dispersion.hpp) against closed forms, and the
// PPW it gives.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sphreverb/config/scene.hpp"  // to_string of the enums
#include "sphreverb/physics/dispersion.hpp"

namespace sphreverb {
namespace {

constexpr double kAxis[3] = {1, 0, 0};

TEST(Dispersion, AtOneSpacingTheFirstMomentSchemeIsTheCentralDifference) {
  // h = dx: along an axis only the planes s_x = +-1 lie in the support, so once the first moment
  // is exact the symbol is sin(k)/k, for either kernel.
  for (KernelKind kernel : {KernelKind::WendlandC2, KernelKind::CubicSpline})
    for (double ppw : {40.0, 20.0, 10.0, 5.0}) {
      const double k = 2.0 * std::numbers::pi / ppw;
      EXPECT_NEAR(lattice_phase_error(GradientCorrection::FirstMoment, kernel, 1.0, ppw, kAxis),
                  std::sin(k) / k - 1.0, 1e-12)
          << to_string(kernel) << " " << ppw;
    }
}

TEST(Dispersion, FourthOrderIsTheFourthOrderCentralDifferenceAlongAnAxis) {
  // 1 < h/dx < 1.5: the planes s_x = +-1, +-2 lie in the support; exact first and third moments
  // leave the weights 4/3 and -1/6 of the classical fourth-order difference.
  for (KernelKind kernel : {KernelKind::WendlandC2, KernelKind::CubicSpline})
    for (double q : {1.2, 1.3, 1.45})
      for (double ppw : {40.0, 20.0, 10.0, 5.0}) {
        const double k = 2.0 * std::numbers::pi / ppw;
        const double fd4 = (4.0 / 3.0 * std::sin(k) - std::sin(2.0 * k) / 6.0) / k - 1.0;
        EXPECT_NEAR(lattice_phase_error(GradientCorrection::FourthOrder, kernel, q, ppw, kAxis),
                    fd4, 1e-12)
            << to_string(kernel) << " h/dx " << q << " " << ppw;
      }
}

TEST(Dispersion, PointsPerWavelengthAtTheTolerance) {
  // Default scheme (Wendland C2, h = 1.3 dx, fourth order): the axis is the worst direction and
  // the fourth-order difference reaches 1.5 % at 7.513 PPW.
  const double fourth = ppw_for_phase_error(GradientCorrection::FourthOrder, KernelKind::WendlandC2,
                                            1.3, kFmaxPhaseError);
  EXPECT_NEAR(fourth, 7.513, 0.002);
  const double k = 2.0 * std::numbers::pi / fourth;
  EXPECT_NEAR((4.0 / 3.0 * std::sin(k) - std::sin(2.0 * k) / 6.0) / k, 1.0 - kFmaxPhaseError, 1e-4);
  // The first-moment scheme needs about three times as many: 24.1 (V1 measured 22.7 at 1 cm).
  const double first = ppw_for_phase_error(GradientCorrection::FirstMoment, KernelKind::WendlandC2,
                                           1.3, kFmaxPhaseError);
  EXPECT_NEAR(first, 24.1, 0.2);
  // More smoothing needs more points per wavelength (first-moment scheme).
  for (KernelKind kernel : {KernelKind::WendlandC2, KernelKind::CubicSpline}) {
    double previous = 0.0;
    for (double q = 1.0; q <= 2.0 + 1e-12; q += 0.1) {
      const double ppw =
          ppw_for_phase_error(GradientCorrection::FirstMoment, kernel, q, kFmaxPhaseError);
      EXPECT_GT(ppw, previous) << to_string(kernel) << " h/dx " << q;
      previous = ppw;
    }
  }
  // Just above h = dx the fourth-order weights are exact on the axes only: the diagonals are
  // then worse than with the first moment alone, and the worst direction says so.
  EXPECT_GT(ppw_for_phase_error(GradientCorrection::FourthOrder, KernelKind::WendlandC2, 1.15,
                                kFmaxPhaseError),
            25.0);
}

}  // namespace
}  // namespace sphreverb
