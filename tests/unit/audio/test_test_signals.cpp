// Tests of the built-in inputs (test_signals.hpp): the click's length and values, the Farina
// sweep's samples, fades and argument checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sphreverb/audio/test_signals.hpp"
#include "tones.hpp"

namespace sphreverb {
namespace {

using test::kPi;

TEST(AudioTestSignals, ImpulseLengthAndValues) {
  const Signal s = make_impulse(48000.0, 0.5);
  EXPECT_EQ(s.rate, 48000.0);
  ASSERT_EQ(s.samples.size(), 24000u);
  EXPECT_EQ(s.samples[0], 1.0);
  EXPECT_TRUE(std::all_of(s.samples.begin() + 1, s.samples.end(), [](double v) { return v == 0; }));
  EXPECT_EQ(make_impulse(48000.0, 0.0).samples, std::vector<double>{1.0});  // at least one sample
  EXPECT_THROW(make_impulse(0.0, 1.0), SignalError);
  EXPECT_THROW(make_impulse(48000.0, -1.0), SignalError);
}

TEST(AudioTestSignals, SweepLengthEndsPeakAndPhase) {
  const double rate = 48000.0, duration = 1.0, f0 = 20.0, f1 = 20000.0;
  const Signal s = make_sweep(rate, duration, f0, f1);
  EXPECT_EQ(s.rate, rate);
  ASSERT_EQ(s.samples.size(), 48000u);
  EXPECT_EQ(s.samples.front(), 0.0);
  EXPECT_NEAR(s.samples.back(), 0.0, 1e-12);
  double peak = 0.0;
  for (double v : s.samples) peak = std::max(peak, std::abs(v));
  EXPECT_LE(peak, 1.0);
  EXPECT_GT(peak, 0.999);
  // Outside the 5 ms fades the samples are the Farina sweep itself.
  const double L = std::log(f1 / f0);
  for (std::size_t i : {240u, 1000u, 24000u, 47000u, 47759u}) {
    const double t = static_cast<double>(i) / rate;
    EXPECT_NEAR(s.samples[i],
                std::sin(2.0 * kPi * f0 * duration / L * (std::exp(t * L / duration) - 1.0)), 1e-9)
        << i;
  }
  // Inside the fade the magnitude is reduced.
  EXPECT_LT(std::abs(s.samples[10]), 0.01);
}

TEST(AudioTestSignals, ShortSweepHasShorterFades) {
  const Signal s = make_sweep(48000.0, 0.008, 1000.0, 2000.0);  // 8 ms: 2 ms fades
  ASSERT_EQ(s.samples.size(), 384u);
  EXPECT_EQ(s.samples.front(), 0.0);
  EXPECT_NEAR(s.samples.back(), 0.0, 1e-12);
  double peak = 0.0;
  for (std::size_t i = 96; i < 288; ++i) peak = std::max(peak, std::abs(s.samples[i]));
  EXPECT_GT(peak, 0.99);  // the unfaded middle reaches full scale
  EXPECT_EQ(make_sweep(48000.0, 0.0, 100.0, 1000.0).samples.size(), 1u);
}

TEST(AudioTestSignals, SweepRejectsBadFrequencies) {
  EXPECT_THROW(make_sweep(48000.0, 1.0, 0.0, 1000.0), SignalError);
  EXPECT_THROW(make_sweep(48000.0, 1.0, 20.0, 30000.0), SignalError);
  EXPECT_THROW(make_sweep(48000.0, 1.0, -5.0, 1000.0), SignalError);
  EXPECT_NO_THROW(make_sweep(48000.0, 1.0, 1000.0, 1000.0));  // constant tone
}

}  // namespace
}  // namespace sphreverb
