// The geometric part's source spectrum: the emitter's acceleration-drive high-pass run at the
// audio rate, against its analogue response s^2 / (s + w_c)^2, and in the synthesis.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "sphreverb/audio/filters.hpp"
#include "sphreverb/geometric/hybrid.hpp"
#include "sphreverb/geometric/source_filter.hpp"
#include "sphreverb/geometric/synthesis.hpp"

namespace sphreverb {
namespace {

constexpr double kRate = 44100.0;

std::complex<double> dft_at(const std::vector<double>& y, double f) {
  std::complex<double> sum = 0.0;
  for (std::size_t n = 0; n < y.size(); ++n)
    sum += y[n] * std::polar(1.0, -2.0 * std::numbers::pi * f * static_cast<double>(n) / kRate);
  return sum;
}

TEST(SourceFilter, ImpulseResponseIsTheDriveHighpass) {
  const double fc = 250.0, wc = 2.0 * std::numbers::pi * fc;
  std::vector<double> x(16384, 0.0);
  x[0] = 1.0;
  const std::vector<double> y = drive_highpass(x, kRate, fc);
  EXPECT_NE(y[0], 0.0);  // causal and not delayed: the impulse passes at once
  for (double f : {100.0, 250.0, 300.0, 450.0, 600.0, 2000.0}) {
    const std::complex<double> s(0.0, 2.0 * std::numbers::pi * f);
    const std::complex<double> exact = s * s / ((s + wc) * (s + wc));
    const std::complex<double> got = dft_at(y, f);
    EXPECT_NEAR(20.0 * std::log10(std::abs(got)), 20.0 * std::log10(std::abs(exact)), 0.02) << f;
    EXPECT_NEAR(std::arg(got / exact) * 180.0 / std::numbers::pi, 0.0, 0.2) << f;
  }
  // The figures of the overlap octave of the default scene: -4.6 dB / 80 deg at 300 Hz,
  // -1.4 dB / 45 deg at 600 Hz.
  EXPECT_NEAR(20.0 * std::log10(std::abs(dft_at(y, 300.0))), -4.58, 0.02);
  EXPECT_NEAR(std::arg(dft_at(y, 600.0)) * 180.0 / std::numbers::pi, 45.2, 0.3);
}

TEST(SourceFilter, ZeroCornerIsFlat) {
  const std::vector<double> x{1.0, -2.0, 0.5, 3.0};
  EXPECT_EQ(drive_highpass(x, kRate, 0.0), x);
}

TEST(SourceFilter, SynthesisAppliesIt) {
  std::vector<ImageSource> taps(2);
  taps[0].delay = 1e-3, taps[1].delay = 3.3e-3;
  for (double& a : taps[0].amplitude) a = 1.0;
  for (double& a : taps[1].amplitude) a = -0.5;
  const std::vector<std::vector<double>> energy(kGeoBandCount, std::vector<double>(20, 1e-4));
  SynthesisParams p{kRate, 2048, 1e-3, 7};
  const std::vector<double> flat = synthesize_response(taps, energy, p);
  p.source_highpass = 250.0;
  const std::vector<double> filtered = synthesize_response(taps, energy, p);
  const std::vector<double> expect = drive_highpass(flat, kRate, 250.0);
  ASSERT_EQ(filtered.size(), expect.size());
  for (std::size_t i = 0; i < expect.size(); ++i) EXPECT_DOUBLE_EQ(filtered[i], expect[i]) << i;
  EXPECT_NE(filtered, flat);
}

// The join compares the SPH record, which carries the causal Butterworth low-pass at f_max, with
// the geometric response through the same low-pass: an SPH record that is exactly the geometric
// response low-passed (a decaying noise, 0.5 ms of group delay at 858 Hz) matches it at 0 dB,
// early and late; without record_lowpass the split sees the delay.
TEST(SourceFilter, JoinComparesThroughTheRecordLowpass) {
  const std::size_t n = 4410;
  std::vector<double> geo(n);
  std::uint64_t state = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
    geo[i] = u * std::exp(-static_cast<double>(i) / (0.004 * kRate));
  }
  const std::vector<double> sph = butterworth_lowpass(Signal{kRate, geo}, 858.0, 4).samples;
  HybridParams p{kRate, 600.0, 0.004, 858.0};
  const HybridResult with = join_hybrid(sph, geo, p);
  EXPECT_NEAR(with.mismatch_db, 0.0, 1e-9);
  EXPECT_NEAR(with.early_db, 0.0, 1e-9);
  EXPECT_NEAR(with.late_db, 0.0, 1e-9);
  p.record_lowpass = 0.0;
  const HybridResult without = join_hybrid(sph, geo, p);
  EXPECT_GT(std::abs(without.late_db), 0.1);
}

}  // namespace
}  // namespace sphreverb
