// Tests of the emitter drive (emitter.hpp): the displacement drive follows k s(t - 1/fs)
// interpolated linearly at sub-sample times, every drive starts at rest, the velocity drive
// integrates a unit sample to a displacement of k, every drive's acceleration is the rate of
// change of its speed, and steps must come in order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "sphreverb/audio/test_signals.hpp"
#include "sphreverb/model/emitter.hpp"

namespace sphreverb {
namespace {

// The documented drive signal: the input delayed by one sample, i.e. the sample sequence
// 0, s[0], s[1], ..., s[n-1] at times 0, 1/fs, 2/fs, ..., interpolated linearly; 0 after the last
// sample. `tau` is the time in sample periods.
double delayed_input(const std::vector<double>& s, double tau) {
  if (tau <= 0.0) return 0.0;
  const double last = static_cast<double>(s.size());  // the delayed sequence has n + 1 samples
  if (tau > last) return 0.0;
  const auto i = static_cast<std::size_t>(std::floor(tau));
  const double frac = tau - static_cast<double>(i);
  const auto at = [&](std::size_t k) { return k == 0 ? 0.0 : (k <= s.size() ? s[k - 1] : 0.0); };
  return at(i) + frac * (at(i + 1) - at(i));
}

TEST(EmitterDisplacement, FollowsTheDelayedInputAtSubSampleTimes) {
  const double fs = 8000.0, k = 2.5e-4;
  const int substeps = 3;
  const double dt = 1.0 / (fs * substeps);
  // Starts at zero, so the onset does not matter here (see RampsInFromRestOverTheFirstSample).
  const std::vector<double> s{0.0, 0.5, -0.25, 1.0, 0.3, 0.0, -0.7, 0.2, 0.0};
  EmitterDrive drive(Signal{fs, s}, {Drive::Displacement, k, dt});
  const std::int64_t steps = static_cast<std::int64_t>(s.size() + 3) * substeps;
  for (std::int64_t n = 0; n < steps; ++n) {
    const EmitterState st = drive.at(n);
    const double tau = static_cast<double>(n) / substeps;
    EXPECT_NEAR(st.shift, k * delayed_input(s, tau), 1e-12 * k) << "step " << n;
    // The speed: central difference of the displacement over one step.
    const double v =
        k * (delayed_input(s, tau + 0.5 / substeps) - delayed_input(s, tau - 0.5 / substeps)) / dt;
    EXPECT_NEAR(st.speed, v, 1e-9 * k * fs) << "step " << n;
  }
}

TEST(EmitterDisplacement, RampsInFromRestOverTheFirstSample) {
  // "delayed by one sample (so the disc starts at rest) and interpolated linearly between samples":
  // between t = 0 (the delay's zero sample) and t = 1/fs (s[0]) the displacement is a linear ramp,
  // not a jump at t = 1/fs.
  const double fs = 1000.0, k = 1e-3;
  const int substeps = 4;
  const std::vector<double> s{1.0, 1.0, 1.0};
  EmitterDrive drive(Signal{fs, s}, {Drive::Displacement, k, 1.0 / (fs * substeps)});
  for (int n = 0; n <= substeps; ++n) {
    const EmitterState st = drive.at(n);
    EXPECT_NEAR(st.shift, k * n / substeps, 1e-12 * k) << "step " << n;
  }
}

TEST(EmitterDrives, AccelerationIsTheRateOfChangeOfTheSpeed) {
  // A smooth input (a 200 Hz sine at 8 kHz, 4 steps per sample): the velocity and acceleration
  // drives' acceleration at step n against the central difference of their speed,
  // (V^{n+1} - V^{n-1}) / (2 dt), which differs from it by O(dt^2) and the linear interpolation's
  // kinks (the mean error over the record well below 2 % of the peak). The displacement drive's
  // speed is piecewise constant between samples, its acceleration a train of spikes at them:
  // there only the sum of acceleration times dt over the record is compared with the change of
  // the speed.
  const double fs = 8000.0, k = 1e-6, dt = 1.0 / (4.0 * fs);
  std::vector<double> s(400);
  for (std::size_t i = 0; i < s.size(); ++i)
    s[i] = std::sin(2.0 * std::numbers::pi * 200.0 * static_cast<double>(i) / fs);
  for (const Drive d : {Drive::Velocity, Drive::Acceleration}) {
    EmitterDrive drive(Signal{fs, s}, {d, k, dt, 50.0});
    std::vector<EmitterState> st;
    for (std::int64_t n = 0; n < 1200; ++n) st.push_back(drive.at(n));
    double peak = 0.0, err = 0.0;
    for (std::size_t n = 8; n + 8 < st.size(); ++n) {
      const double central = (st[n + 1].speed - st[n - 1].speed) / (2.0 * dt);
      peak = std::max(peak, std::abs(central));
      err += std::abs(st[n].acceleration - central);
    }
    err /= static_cast<double>(st.size() - 16);
    EXPECT_GT(peak, 0.0);
    EXPECT_LT(err, 0.02 * peak) << "drive " << static_cast<int>(d);
  }
  EmitterDrive drive(Signal{fs, s}, {Drive::Displacement, k, dt});
  double sum = 0.0, first = 0.0, last = 0.0, peak = 0.0;
  for (std::int64_t n = 0; n < 1000; ++n) {
    const EmitterState st = drive.at(n);
    if (n == 100) first = st.speed;
    if (n > 100 && n <= 900) sum += st.acceleration * dt;
    if (n == 900) last = st.speed;
    peak = std::max(peak, std::abs(st.speed));
  }
  EXPECT_NEAR(sum, last - first, 0.05 * peak);
}

TEST(EmitterDrives, StartAtRest) {
  for (const Drive d : {Drive::Displacement, Drive::Velocity, Drive::Acceleration}) {
    // A signal that is large from its first sample on.
    EmitterDrive drive(Signal{1000.0, {1.0, -1.0, 1.0}}, {d, 1e-3, 1.0 / 4000.0});
    const EmitterState st = drive.at(0);
    EXPECT_EQ(st.shift, 0.0);
    // The displacement drive's speed is a central difference across t = 0, where the ramp to
    // s[0] begins: half its slope. The integrated drives start with zero speed.
    if (d != Drive::Displacement) {
      EXPECT_EQ(st.speed, 0.0);
    }
  }
}

// Final displacement of the velocity drive for a unit impulse, with `substeps` steps per sample.
double velocity_impulse_displacement(double fs, int substeps, double k) {
  const Signal impulse = make_impulse(fs, 16.0 / fs);
  EmitterDrive drive(impulse, {Drive::Velocity, k, 1.0 / (fs * substeps)});
  EmitterState st;
  const auto steps = static_cast<std::int64_t>(impulse.samples.size() + 4) * substeps;
  double previous = 0.0;
  for (std::int64_t n = 0; n < steps; ++n) {
    st = drive.at(n);
    EXPECT_GE(st.shift, previous) << "step " << n;  // V >= 0 throughout: X never decreases
    previous = st.shift;
  }
  EXPECT_EQ(st.speed, 0.0);
  return st.shift;
}

TEST(EmitterVelocity, UnitSampleMovesTheDiscByKAtOneStepPerSample) {
  const double k = 3e-5;
  EXPECT_NEAR(velocity_impulse_displacement(8000.0, 1, k), k, 1e-12 * k);
}

TEST(EmitterVelocity, UnitSampleMovesTheDiscByKWithSubsteps) {
  // V = k fs s(t) with s the delayed, linearly interpolated input: for s[0] = 1 a triangle of
  // height 1 over [0, 2/fs], area 1/fs, so X = k; the trapezoid rule is exact on it because the
  // triangle's corners fall on steps.
  const double k = 3e-5;
  for (const int substeps : {2, 3, 4, 10}) {
    const double x = velocity_impulse_displacement(8000.0, substeps, k);
    EXPECT_NEAR(x, k, 1e-12 * k) << substeps << " substeps: X / k = " << x / k;
  }
}

TEST(EmitterVelocity, SpeedIsKTimesRateTimesTheInput) {
  const double fs = 4000.0, k = 1e-4;
  const int substeps = 2;
  const std::vector<double> s{0.0, 0.4, -0.2, 0.6, 0.0};
  EmitterDrive drive(Signal{fs, s}, {Drive::Velocity, k, 1.0 / (fs * substeps)});
  double x = 0.0, v_prev = 0.0;
  for (std::int64_t n = 0; n < static_cast<std::int64_t>(s.size() + 2) * substeps; ++n) {
    const EmitterState st = drive.at(n);
    const double v = k * fs * delayed_input(s, static_cast<double>(n) / substeps);
    EXPECT_NEAR(st.speed, v, 1e-12 * k * fs) << "step " << n;
    if (n > 0) x += 0.5 / (fs * substeps) * (v_prev + v);
    EXPECT_NEAR(st.shift, x, 1e-12 * k) << "step " << n;
    v_prev = v;
  }
}

TEST(EmitterAcceleration, WithoutLeakAUnitSampleLeavesTheDiscMovingAtKfs) {
  // A = k fs^2 s: a unit sample (a triangle of area 1/fs in s) gives V = k fs, after which the
  // disc drifts at constant speed: why the default has a leak.
  const double fs = 8000.0, k = 1e-6;
  const int substeps = 2;
  const Signal impulse = make_impulse(fs, 16.0 / fs);
  EmitterDrive drive(impulse, {Drive::Acceleration, k, 1.0 / (fs * substeps), 0.0});
  EmitterState st;
  for (std::int64_t n = 0; n < 20 * substeps; ++n) st = drive.at(n);
  EXPECT_NEAR(st.speed, k * fs, 1e-9 * k * fs);
}

TEST(EmitterAcceleration, LeakReturnsTheDiscToRestAsOneOverSPlusWcSquared) {
  // X / A = 1 / (s + w_c)^2: for an impulse of area k fs (velocity), X(t) = k fs t e^{-w_c t},
  // peak k fs / (e w_c) at t = 1/w_c, and back to rest after many 1/w_c.
  const double fs = 8000.0, k = 1e-6, fc = 20.0, wc = 2.0 * std::numbers::pi * fc;
  const int substeps = 4;
  const double dt = 1.0 / (fs * substeps);
  const Signal impulse = make_impulse(fs, 1.0);
  EmitterDrive drive(impulse, {Drive::Acceleration, k, dt, fc});
  double peak = 0.0, t_peak = 0.0, last_shift = 0.0, last_speed = 0.0;
  const auto steps = static_cast<std::int64_t>(0.5 * fs) * substeps;  // 0.5 s = 63 / w_c
  for (std::int64_t n = 0; n < steps; ++n) {
    const EmitterState st = drive.at(n);
    if (st.shift > peak) peak = st.shift, t_peak = static_cast<double>(n) * dt;
    last_shift = st.shift, last_speed = st.speed;
  }
  const double expect = k * fs / (std::exp(1.0) * wc);
  EXPECT_NEAR(peak, expect, 2e-3 * expect);
  EXPECT_NEAR(t_peak, 1.0 / wc + 1.0 / fs, 0.02 / wc);  // + the one-sample input delay
  EXPECT_LT(std::abs(last_shift), 1e-9 * peak);
  EXPECT_LT(std::abs(last_speed), 1e-9 * k * fs);
}

TEST(EmitterDrives, StepsMustBeConsecutive) {
  const Signal sig{1000.0, {0.0, 1.0}};
  {
    EmitterDrive drive(sig, {Drive::Displacement, 1e-3, 1e-4});
    EXPECT_THROW(drive.at(1), std::logic_error);
  }
  {
    EmitterDrive drive(sig, {Drive::Velocity, 1e-3, 1e-4});
    drive.at(0);
    drive.at(1);
    EXPECT_THROW(drive.at(3), std::logic_error);
  }
  {
    EmitterDrive drive(sig, {Drive::Acceleration, 1e-3, 1e-4});
    drive.at(0);
    EXPECT_THROW(drive.at(0), std::logic_error);
  }
}

}  // namespace
}  // namespace sphreverb
