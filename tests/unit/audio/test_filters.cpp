// Tests of the causal Butterworth low-pass (signal.hpp, butterworth_lowpass): the magnitude
// response from the impulse response (-3 dB at the cut-off, unit DC gain, the stop-band slope),
// causality, and the argument checks.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include "sphreverb/audio/signal.hpp"

namespace sphreverb {
namespace {

constexpr double kPi = std::numbers::pi;

// Gain in dB at frequency f of the filter with impulse response h at rate fs (a DFT of h at f;
// h must have decayed to nothing by its end).
double gain_db(const std::vector<double>& h, double fs, double f) {
  std::complex<double> sum = 0.0;
  for (std::size_t n = 0; n < h.size(); ++n)
    sum += h[n] * std::polar(1.0, -2.0 * kPi * f * static_cast<double>(n) / fs);
  return 20.0 * std::log10(std::abs(sum));
}

std::vector<double> impulse_response(double fs, double cutoff, int order) {
  const Signal out = butterworth_lowpass(make_impulse(fs, 0.5), cutoff, order);
  EXPECT_EQ(out.rate, fs);
  EXPECT_EQ(out.samples.size(), static_cast<std::size_t>(fs * 0.5));
  return out.samples;
}

TEST(FiltersButterworth, MinusThreeDecibelsAtTheCutoff) {
  const double fs = 48000.0;
  for (const int order : {2, 4, 6, 8})
    for (const double fc : {500.0, 1000.0, 5000.0}) {
      const std::vector<double> h = impulse_response(fs, fc, order);
      const double g = gain_db(h, fs, fc);
      std::printf("[ measured ] order %d, cut-off %g Hz: %.4f dB at the cut-off\n", order, fc, g);
      EXPECT_NEAR(g, -10.0 * std::log10(2.0), 0.05) << "order " << order << ", " << fc << " Hz";
    }
}

TEST(FiltersButterworth, UnitGainAtDcAndFlatPassband) {
  const double fs = 48000.0, fc = 1000.0;
  for (const int order : {2, 4, 6, 8}) {
    const std::vector<double> h = impulse_response(fs, fc, order);
    double dc = 0.0;
    for (const double v : h) dc += v;
    EXPECT_NEAR(dc, 1.0, 1e-9) << "order " << order;
    // Maximally flat: within 0.01 dB up to a tenth of the cut-off.
    EXPECT_NEAR(gain_db(h, fs, 0.1 * fc), 0.0, 0.01) << "order " << order;
  }
  // A constant input settles to the same constant.
  const Signal out = butterworth_lowpass(Signal{fs, std::vector<double>(4800, 0.7)}, fc, 4);
  EXPECT_NEAR(out.samples.back(), 0.7, 1e-9);
}

TEST(FiltersButterworth, StopBandAttenuation) {
  const double fs = 48000.0, fc = 1000.0;
  for (const int order : {2, 4, 6, 8}) {
    const std::vector<double> h = impulse_response(fs, fc, order);
    const double g = gain_db(h, fs, 4.0 * fc);
    std::printf("[ measured ] order %d: %.2f dB at 4x the cut-off\n", order, g);
    // Two octaves above the cut-off: order * 6 dB/octave * 2 octaves, less a 3 dB margin.
    EXPECT_LE(g, -(order * 12.0 - 3.0)) << "order " << order;
  }
  const std::vector<double> h4 = impulse_response(fs, fc, 4);
  EXPECT_LE(gain_db(h4, fs, 4.0 * fc), -45.0);
  // Monotone fall from the cut-off up.
  double previous = 0.0;
  for (const double f : {1000.0, 1500.0, 2000.0, 4000.0, 8000.0, 16000.0, 23000.0}) {
    const double g = gain_db(h4, fs, f);
    EXPECT_LT(g, previous) << f << " Hz";
    previous = g;
  }
}

TEST(FiltersButterworth, IsCausal) {
  const double fs = 44100.0;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(2000, 0.0);
  const std::size_t onset = 137;
  for (std::size_t n = onset; n < x.size(); ++n) x[n] = u(rng);
  for (const int order : {2, 4, 8}) {
    const Signal y = butterworth_lowpass(Signal{fs, x}, 2000.0, order);
    ASSERT_EQ(y.samples.size(), x.size());
    for (std::size_t n = 0; n < onset; ++n) ASSERT_EQ(y.samples[n], 0.0) << "sample " << n;
    EXPECT_NE(y.samples[onset], 0.0);  // and the response starts with the input
  }
}

TEST(FiltersButterworth, RejectsBadArguments) {
  const Signal in{48000.0, std::vector<double>(100, 1.0)};
  for (const int order : {-2, 0, 1, 3, 5, 7, 9, 10})
    EXPECT_THROW(butterworth_lowpass(in, 1000.0, order), SignalError) << "order " << order;
  for (const double fc : {-1.0, 0.0, 24000.0, 24000.1, 50000.0, std::nan("")})
    EXPECT_THROW(butterworth_lowpass(in, fc, 4), SignalError) << "cut-off " << fc;
  EXPECT_NO_THROW(butterworth_lowpass(in, 23999.0, 4));
}

}  // namespace
}  // namespace sphreverb
