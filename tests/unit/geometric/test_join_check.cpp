// V19's criteria on a run's own join (geometric/join_check.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sphreverb/geometric/counter_rng.hpp"
#include "sphreverb/geometric/join_check.hpp"

namespace sphreverb {
namespace {

// White noise under an exponential envelope with reverberation time t60 (s): energy decays by
// 60 dB in t60.
std::vector<double> decaying_noise(double t60, double rate, std::size_t n, std::uint64_t seed) {
  std::vector<double> x(n);
  const double k = 3.0 * std::log(10.0) / t60;  // amplitude decay rate, 1/s
  for (std::size_t i = 0; i < n; ++i) {
    const double u = CounterRng(seed, i).uniform() - 0.5;
    x[i] = u * std::exp(-k * static_cast<double>(i) / rate);
  }
  return x;
}

TEST(JoinCheck, OctaveHoldingTheCrossover) {
  EXPECT_DOUBLE_EQ(octave_holding(800.0), 1000.0);
  EXPECT_DOUBLE_EQ(octave_holding(534.0), 500.0);
  EXPECT_DOUBLE_EQ(octave_holding(120.0), 125.0);
  EXPECT_DOUBLE_EQ(octave_holding(2130.0), 2000.0);
}

TEST(JoinCheck, EqualDecaysJoinWithTheirT30) {
  const double rate = 16000.0, t60 = 0.2;
  const std::size_t n = 8000;  // 0.5 s: the EDC reaches -35 dB
  const std::vector<double> sph = decaying_noise(t60, rate, n, 1);
  const std::vector<double> geo = decaying_noise(t60, rate, n, 2);
  std::vector<std::vector<double>> more;
  for (std::uint64_t k = 3; k < 8; ++k) more.push_back(decaying_noise(t60, rate, n, k));
  HybridParams p;
  p.rate = rate, p.crossover = 1000.0;
  const OctaveDecay d = join_octave_decay(sph, geo, more, 1.0, p);
  EXPECT_DOUBLE_EQ(d.centre, 1000.0);
  EXPECT_FALSE(d.t20);
  EXPECT_NEAR(d.sph, t60, 0.05 * t60);
  EXPECT_NEAR(d.full, t60, 0.05 * t60);
}

TEST(JoinCheck, ASlowerGeometricTailFailsTheDecayCriterion) {
  const double rate = 16000.0;
  const std::size_t n = 16000;
  const std::vector<double> sph = decaying_noise(0.2, rate, n, 1);
  const std::vector<double> geo = decaying_noise(0.4, rate, n, 2);
  HybridParams p;
  p.rate = rate, p.crossover = 1000.0;
  const OctaveDecay d = join_octave_decay(sph, geo, {}, 1.0, p);
  ASSERT_GT(d.sph, 0.0);
  // Half the octave is the geometric part's: the full decay lies between the two, the slower
  // one's late energy dominating its curve.
  EXPECT_GT(d.full, 1.2 * d.sph);
  EXPECT_LT(d.full, 0.42);
  const JoinVerdict v = judge_join({{0.1, -0.3, d}}, 1000.0, 0.0);
  EXPECT_TRUE(v.levels_ok);
  EXPECT_TRUE(v.decay_measured);
  EXPECT_FALSE(v.decay_ok);
  ASSERT_EQ(v.warnings.size(), 1u);
  EXPECT_NE(v.warnings[0].find("decay criterion"), std::string::npos);
}

TEST(JoinCheck, LevelsAreJudgedOnTheReceiversMean) {
  OctaveDecay none;
  none.centre = 125.0;
  // One receiver at -3 dB late, the other at +0.5: the mean, -1.25 dB, passes.
  JoinVerdict v = judge_join({{0.0, -3.0, none}, {0.0, 0.5, none}}, 120.0, 0.0);
  EXPECT_TRUE(v.levels_ok);
  EXPECT_FALSE(v.decay_measured);
  EXPECT_TRUE(v.ok());
  // Both late: fails, and with a Schroeder frequency above the overlap octave the warning says so.
  v = judge_join({{0.0, -8.1, none}, {0.0, -9.2, none}}, 120.0, 215.0);
  EXPECT_FALSE(v.levels_ok);
  EXPECT_FALSE(v.ok());
  ASSERT_EQ(v.warnings.size(), 1u);
  EXPECT_NE(v.warnings[0].find("Schroeder"), std::string::npos);
  EXPECT_NEAR(v.late_db, -8.65, 1e-12);
}

TEST(JoinCheck, ATooShortRecordIsNotMeasured) {
  const double rate = 16000.0;
  const std::size_t n = 800;  // 50 ms of a 1 s decay: 3 dB
  const std::vector<double> x = decaying_noise(1.0, rate, n, 1);
  HybridParams p;
  p.rate = rate, p.crossover = 1000.0;
  const OctaveDecay d = join_octave_decay(x, x, {}, 1.0, p);
  EXPECT_EQ(d.sph, 0.0);
  EXPECT_EQ(d.full, 0.0);
}

}  // namespace
}  // namespace sphreverb
