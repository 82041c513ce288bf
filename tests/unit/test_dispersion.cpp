// The measured dispersion table behind f_max (dispersion.hpp): its entries, interpolation between
// them and clamping outside them.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sphreverb/dispersion.hpp"

namespace sphreverb {
namespace {

TEST(Dispersion, MoreSmoothingNeedsMorePointsPerWavelength) {
  for (KernelKind k : {KernelKind::WendlandC2, KernelKind::CubicSpline}) {
    double previous = 0.0;
    for (double q = 1.0; q <= 2.0 + 1e-12; q += 0.05) {
      const double ppw = ppw_for_phase_error(k, q, kFmaxPhaseError);
      EXPECT_GE(ppw, previous) << to_string(k) << " h/dx " << q;
      EXPECT_GT(ppw, 10.0);  // SPH needs more points per wavelength than a 2nd-order FDTD
      EXPECT_LT(ppw, 80.0);
      previous = ppw;
    }
  }
}

TEST(Dispersion, ClampsOutsideTheMeasuredRangeAndInterpolatesInside) {
  const KernelKind k = KernelKind::WendlandC2;
  EXPECT_DOUBLE_EQ(ppw_for_phase_error(k, 0.5, kFmaxPhaseError),
                   ppw_for_phase_error(k, 1.0, kFmaxPhaseError));
  EXPECT_DOUBLE_EQ(ppw_for_phase_error(k, 3.0, kFmaxPhaseError),
                   ppw_for_phase_error(k, 2.0, kFmaxPhaseError));
  const double a = ppw_for_phase_error(k, 1.3, kFmaxPhaseError);
  const double b = ppw_for_phase_error(k, 1.6, kFmaxPhaseError);
  EXPECT_NEAR(ppw_for_phase_error(k, 1.45, kFmaxPhaseError), 0.5 * (a + b), 1e-12);
}

TEST(Dispersion, OnlyTheMeasuredToleranceIsKnown) {
  EXPECT_THROW(ppw_for_phase_error(KernelKind::WendlandC2, 1.3, 0.05), std::invalid_argument);
}

}  // namespace
}  // namespace sphreverb
