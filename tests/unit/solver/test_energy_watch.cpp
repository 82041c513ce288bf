// Tests of the stage-2 energy watch (energy_watch.hpp): the energy may rise while driven; after
// the drive a rise above ten times the driven peak is reported once, a decay never.
#include <gtest/gtest.h>

#include "sphreverb/solver/energy_watch.hpp"

namespace sphreverb {
namespace {

TEST(EnergyWatch, RiseWhileDrivenIsNotReported) {
  EnergyWatch w(0.05);
  for (int k = 0; k <= 50; ++k) EXPECT_FALSE(w.observe(1e-3 * k, 1e-9 * (1 << (k % 30))));
  EXPECT_DOUBLE_EQ(w.reference(), 1e-9 * (1 << 29));
}

TEST(EnergyWatch, DecayAfterTheDriveIsNotReported) {
  EnergyWatch w(0.01);
  double e = 1.0;
  for (int k = 0; k <= 10; ++k) EXPECT_FALSE(w.observe(1e-3 * k, e = 0.5 + 0.05 * k));
  for (int k = 11; k < 300; ++k) EXPECT_FALSE(w.observe(1e-3 * k, e *= 0.97));
}

TEST(EnergyWatch, GrowthAfterTheDriveIsReportedOnce) {
  EnergyWatch w(0.01);
  EXPECT_FALSE(w.observe(0.0, 0.2));
  EXPECT_FALSE(w.observe(0.005, 2.0));  // the driven peak
  EXPECT_FALSE(w.observe(0.01, 1.0));
  EXPECT_FALSE(w.observe(0.02, 19.9));   // below ten times the peak
  EXPECT_FALSE(w.observe(0.03, 20.0));   // at it
  EXPECT_TRUE(w.observe(0.04, 20.1));    // above it
  EXPECT_FALSE(w.observe(0.05, 400.0));  // once
  EXPECT_DOUBLE_EQ(w.reference(), 2.0);
}

TEST(EnergyWatch, AResumedRunAfterTheDriveTakesItsFirstEnergyAsReference) {
  EnergyWatch w(0.01);
  EXPECT_FALSE(w.observe(0.5, 3.0));
  EXPECT_DOUBLE_EQ(w.reference(), 3.0);
  EXPECT_FALSE(w.observe(0.6, 29.0));
  EXPECT_TRUE(w.observe(0.7, 31.0));
}

}  // namespace
}  // namespace sphreverb
