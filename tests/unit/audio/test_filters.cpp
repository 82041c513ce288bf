// Tests of the filters (filters.hpp). The causal Butterworth low-pass: the magnitude response from
// the impulse response (-3 dB at the cut-off, unit DC gain, the stop-band slope), causality, and
// the argument checks. The zero-phase low-pass + decimation: half amplitude at the cut-off, its
// -3 dB point, a flat pass band, the stop band, no delay, the kept samples and the edges. The
// causal Butterworth high-pass: -3 dB at the cut-off, zero DC gain, the slope below, causality.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include "sphreverb/audio/filters.hpp"
#include "sphreverb/audio/test_signals.hpp"
#include "tones.hpp"

namespace sphreverb {
namespace {

using test::gain_db;
using test::kPi;
using test::tone;

double rms(const std::vector<double>& x, std::size_t from, std::size_t to) {
  double sum = 0.0;
  for (std::size_t i = from; i < to; ++i) sum += x[i] * x[i];
  return std::sqrt(sum / static_cast<double>(to - from));
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

// ---- causal Butterworth high-pass -----------------------------------------------------------

std::vector<double> highpass_response(double fs, double cutoff, int order, double seconds) {
  const Signal out = butterworth_highpass(make_impulse(fs, seconds), cutoff, order);
  EXPECT_EQ(out.rate, fs);
  return out.samples;
}

TEST(FiltersButterworthHighpass, MinusThreeDecibelsAtTheCutoffAndFlatAbove) {
  const double fs = 44100.0;
  for (const int order : {2, 4, 6, 8})
    for (const double fc : {20.0, 100.0, 1000.0}) {
      const std::vector<double> h = highpass_response(fs, fc, order, 4.0);
      const double g = gain_db(h, fs, fc);
      std::printf("[ measured ] high-pass order %d, %g Hz: %.4f dB at the cut-off\n", order, fc, g);
      EXPECT_NEAR(g, -10.0 * std::log10(2.0), 0.05) << "order " << order << ", " << fc << " Hz";
      // Maximally flat: within 0.01 dB from ten times the cut-off.
      EXPECT_NEAR(gain_db(h, fs, 10.0 * fc), 0.0, 0.01) << "order " << order << ", " << fc;
    }
}

TEST(FiltersButterworthHighpass, ZeroDcGainAndTheSlopeBelowTheCutoff) {
  const double fs = 44100.0, fc = 20.0;
  for (const int order : {2, 4, 6, 8}) {
    const std::vector<double> h = highpass_response(fs, fc, order, 4.0);
    double dc = 0.0;
    for (const double v : h) dc += v;
    EXPECT_NEAR(dc, 0.0, 1e-9) << "order " << order;
    // One octave below: |H|^2 = 1 / (1 + 2^(2 order)), i.e. ~6 order dB.
    const double expect = -10.0 * std::log10(1.0 + std::pow(2.0, 2.0 * order));
    EXPECT_NEAR(gain_db(h, fs, 0.5 * fc), expect, 0.1) << "order " << order;
  }
  // A constant input decays to zero (the output convention removes a pressure offset).
  const Signal out = butterworth_highpass(Signal{fs, std::vector<double>(44100, 0.7)}, fc, 4);
  EXPECT_LT(std::abs(out.samples.back()), 1e-4);
}

TEST(FiltersButterworthHighpass, IsCausal) {
  const double fs = 44100.0;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(2000, 0.0);
  const std::size_t onset = 211;
  for (std::size_t n = onset; n < x.size(); ++n) x[n] = u(rng);
  for (const int order : {2, 4, 8}) {
    const Signal y = butterworth_highpass(Signal{fs, x}, 20.0, order);
    ASSERT_EQ(y.samples.size(), x.size());
    for (std::size_t n = 0; n < onset; ++n) ASSERT_EQ(y.samples[n], 0.0) << "sample " << n;
    EXPECT_NE(y.samples[onset], 0.0);
  }
}

TEST(FiltersButterworthHighpass, RejectsBadArguments) {
  const Signal in{48000.0, std::vector<double>(100, 1.0)};
  for (const int order : {0, 1, 3, 10})
    EXPECT_THROW(butterworth_highpass(in, 20.0, order), SignalError) << "order " << order;
  for (const double fc : {-1.0, 0.0, 24000.0, std::nan("")})
    EXPECT_THROW(butterworth_highpass(in, fc, 4), SignalError) << "cut-off " << fc;
}

// ---- zero-phase low-pass + decimation --------------------------------------------------------

// The low-pass's taps: its response to a click in the middle of a long silence (factor 1).
std::vector<double> lowpass_taps(double rate, double cutoff, std::size_t& centre) {
  const std::size_t n = 8192;
  centre = n / 2;
  std::vector<double> x(n, 0.0);
  x[centre] = 1.0;
  return lowpass_decimate(Signal{rate, x}, 1, cutoff).samples;
}

TEST(FiltersLowpassDecimate, HalfAmplitudeAtTheCutoffAndItsMinusThreeDecibelPoint) {
  const double rate = 48000.0;
  for (const double fc : {2000.0, 9000.0, 21600.0}) {
    std::size_t centre = 0;
    const std::vector<double> h = lowpass_taps(rate, fc, centre);
    const double at_cutoff = gain_db(h, rate, fc, static_cast<double>(centre));
    // The -3 dB point, by bisection on the monotone transition band [0.85, 1.0] fc.
    double lo = 0.85 * fc, hi = fc;
    for (int i = 0; i < 40; ++i) {
      const double mid = 0.5 * (lo + hi);
      (gain_db(h, rate, mid, static_cast<double>(centre)) > -10.0 * std::log10(2.0) ? lo : hi) =
          mid;
    }
    std::printf("[ measured ] cut-off %g Hz: %.4f dB at the cut-off, -3 dB at %.4f of it\n", fc,
                at_cutoff, lo / fc);
    EXPECT_NEAR(at_cutoff, 20.0 * std::log10(0.5), 0.01) << fc;  // half amplitude
    EXPECT_NEAR(lo / fc, 0.983, 0.003) << fc;  // the Kaiser transition is +-10 % of the cut-off
  }
}

TEST(FiltersLowpassDecimate, FlatPassBandDeepStopBandNoDelay) {
  const double rate = 48000.0, fc = 9000.0;
  std::size_t centre = 0;
  const std::vector<double> h = lowpass_taps(rate, fc, centre);
  double ripple = 0.0, stop = -1e9, phase = 0.0;
  for (double f = 10.0; f <= 0.85 * fc; f += 10.0) {
    const std::complex<double> r = test::response(h, rate, f, static_cast<double>(centre));
    ripple = std::max(ripple, std::abs(20.0 * std::log10(std::abs(r))));
    phase = std::max(phase, std::abs(std::arg(r)));
  }
  for (double f = 1.12 * fc; f < 0.5 * rate; f += 10.0)
    stop = std::max(stop, gain_db(h, rate, f, static_cast<double>(centre)));
  std::printf(
      "[ measured ] cut-off %g Hz: |gain| <= %.2e dB and |phase| <= %.1e rad up to 0.85 "
      "cut-off; <= %.1f dB from 1.12 cut-off\n",
      fc, ripple, phase, stop);
  EXPECT_LT(ripple, 1e-4);
  EXPECT_LT(phase, 1e-9);  // symmetric taps: zero phase, no delay
  EXPECT_LT(stop, -100.0);
}

TEST(FiltersLowpassDecimate, LowSinePassesUnchangedAndUndelayed) {
  const double rate = 441000.0;
  const int factor = 10;
  const std::size_t n = 44100;  // 0.1 s
  const double phase = 0.3;
  const Signal in{rate, tone(rate, 1000.0, n, 1.0, phase)};
  const Signal out = lowpass_decimate(in, factor, 20000.0);
  EXPECT_DOUBLE_EQ(out.rate, 44100.0);
  ASSERT_EQ(out.samples.size(), n / factor);
  double err = 0.0;
  for (std::size_t k = 100; k + 100 < out.samples.size(); ++k) {
    const double t = static_cast<double>(k) / out.rate;
    err = std::max(err, std::abs(out.samples[k] - std::sin(2.0 * kPi * 1000.0 * t + phase)));
  }
  EXPECT_LT(err, 1e-3);
  EXPECT_LT(err, 1e-4) << "quality margin";
}

TEST(FiltersLowpassDecimate, SineAboveCutoffAttenuatedMoreThan40dB) {
  const double rate = 441000.0;
  const Signal in{rate, tone(rate, 30000.0, 44100)};
  for (int factor : {1, 10}) {
    const Signal out = lowpass_decimate(in, factor, 20000.0);
    const std::size_t edge = out.samples.size() / 10;
    const double gain = rms(out.samples, edge, out.samples.size() - edge) / std::sqrt(0.5);
    EXPECT_LT(20.0 * std::log10(gain), -40.0) << "factor " << factor;
    EXPECT_LT(20.0 * std::log10(gain), -80.0) << "factor " << factor << " (quality margin)";
  }
}

TEST(FiltersLowpassDecimate, FactorOneKeepsLengthAndLowSignals) {
  const Signal in{48000.0, tone(48000.0, 500.0, 4800)};
  const Signal out = lowpass_decimate(in, 1, 10000.0);
  EXPECT_EQ(out.rate, 48000.0);
  ASSERT_EQ(out.samples.size(), in.samples.size());
  for (std::size_t i = 200; i + 200 < in.samples.size(); ++i) {
    ASSERT_NEAR(out.samples[i], in.samples[i], 1e-4) << i;
  }
}

TEST(FiltersLowpassDecimate, OutputLengthAndEdges) {
  // Samples 0, f, 2f, ... are kept: ceil(n / factor) of them. A constant stays constant (unit DC
  // gain) away from the ends; at sample 0 the filter sees zeros before the signal, so it returns
  // 2 * (1/2 + h[0]/2) with h[0] = 2 cutoff / rate = 0.2.
  const Signal in{1000.0, std::vector<double>(2003, 2.0)};
  const Signal out = lowpass_decimate(in, 5, 100.0);
  EXPECT_EQ(out.samples.size(), 401u);
  EXPECT_DOUBLE_EQ(out.rate, 200.0);
  EXPECT_NEAR(out.samples.front(), 1.2, 1e-3);
  EXPECT_NEAR(out.samples[200], 2.0, 1e-12);
}

TEST(FiltersLowpassDecimate, RejectsBadArguments) {
  const Signal in{1000.0, std::vector<double>(10, 1.0)};
  EXPECT_THROW(lowpass_decimate(in, 0, 100.0), SignalError);
  EXPECT_THROW(lowpass_decimate(in, -3, 100.0), SignalError);
  EXPECT_THROW(lowpass_decimate(in, 2, 0.0), SignalError);
  EXPECT_THROW(lowpass_decimate(in, 2, 500.0), SignalError);
  EXPECT_THROW(lowpass_decimate(in, 2, std::nan("")), SignalError);
  EXPECT_THROW(lowpass_decimate(Signal{0.0, {1.0}}, 2, 100.0), SignalError);
  EXPECT_TRUE(lowpass_decimate(Signal{1000.0, {}}, 2, 100.0).samples.empty());
}

}  // namespace
}  // namespace sphreverb
