// Tests of resample() (resample.hpp) against the physics of an ideal band-limited resampler: a
// click keeps its time, a tone its frequency, phase and amplitude; the pass band is flat, the
// stop band rejects aliases and images, and what remains of a sine is noise far below it. The
// "[ measured ]" lines are the numbers quoted in docs/audio.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "sphreverb/audio/resample.hpp"
#include "tones.hpp"

namespace sphreverb {
namespace {

using test::db;
using test::fit_tones;
using test::kPi;
using test::tone;

struct RateCase {
  double from;
  double to;
};

void PrintTo(const RateCase& c, std::ostream* os) { *os << c.from << " -> " << c.to << " Hz"; }

// "48000_to_44100", a test-name suffix.
std::string name(const ::testing::TestParamInfo<RateCase>& info) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f_to_%.0f", info.param.from, info.param.to);
  std::string s = buf;
  for (char& c : s)
    if (c == '.') c = '_';
  return s;
}

std::string label(const RateCase& c) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g -> %g Hz", c.from, c.to);
  return buf;
}

// One second of input; the fits skip 0.1 s at either end, where the filter sees the edges.
class ResampleQuality : public ::testing::TestWithParam<RateCase> {
 protected:
  double from() const { return GetParam().from; }
  double to() const { return GetParam().to; }
  double nyquist() const { return 0.5 * std::min(from(), to()); }
  std::size_t n_in() const { return static_cast<std::size_t>(std::round(from())); }
  std::size_t begin() const { return static_cast<std::size_t>(0.1 * to()); }
  std::size_t end() const { return static_cast<std::size_t>(0.9 * to()); }

  // Resamples a tone of frequency f, amplitude a, phase p.
  std::vector<double> tone_out(double f, double a = 0.5, double p = 0.0) const {
    const Signal out = resample(Signal{from(), tone(from(), f, n_in(), a, p)}, to());
    EXPECT_EQ(out.samples.size(), static_cast<std::size_t>(std::round(to())));
    return out.samples;
  }
  // Gain (dB) of a tone of frequency f.
  double gain(double f) const {
    return db(fit_tones(tone_out(f), to(), f, begin(), end()).amplitude / 0.5);
  }
};

TEST_P(ResampleQuality, ClickKeepsItsTime) {
  // A click at input sample n0 is the band-limited pulse centred on t0 = n0 / from: its phase
  // about t0 is zero at every pass-band frequency (linear phase, no delay). Clicks on and off the
  // output grid (48 -> 44.1 kHz: n0 = 24001 lies at output sample 22050.91875).
  double worst = 0.0;
  for (const std::size_t n0 : {n_in() / 2, n_in() / 2 + 1, n_in() / 2 + 7}) {
    std::vector<double> x(n_in(), 0.0);
    x[n0] = 1.0;
    const std::vector<double> y = resample(Signal{from(), x}, to()).samples;
    const double centre = static_cast<double>(n0) / from() * to();  // in output samples
    for (const double f : {500.0, 1000.0, 2000.0, 5000.0}) {
      const double delay = -std::arg(test::response(y, to(), f, centre)) / (2.0 * kPi * f) * to();
      worst = std::max(worst, std::abs(delay));
    }
    const auto peak = std::max_element(y.begin(), y.end()) - y.begin();
    EXPECT_EQ(peak, std::lround(centre)) << label(GetParam()) << ", click at " << n0;
  }
  std::printf("[ measured ] %s: click delay |tau| <= %.2e output samples\n",
              label(GetParam()).c_str(), worst);
  EXPECT_LT(worst, 1e-6) << label(GetParam());
}

TEST_P(ResampleQuality, ToneKeepsFrequencyPhaseAndAmplitude) {
  const double f = 1000.0, amplitude = 0.5, phase = 0.3;
  const std::vector<double> y = tone_out(f, amplitude, phase);
  const test::ToneFit fit = fit_tones(y, to(), f, begin(), end());
  // The frequency from the phase advance between the two halves of the fitted span.
  const std::size_t mid = (begin() + end()) / 2;
  const double p1 = fit_tones(y, to(), f, begin(), mid).phase;
  const double p2 = fit_tones(y, to(), f, mid, end()).phase;
  const double frequency_error =
      (p2 - p1) / (2.0 * kPi * static_cast<double>(mid - begin()) / to());
  std::printf(
      "[ measured ] %s: 1 kHz tone: phase error %.2e rad, gain %.2e dB, frequency error "
      "%.2e Hz\n",
      label(GetParam()).c_str(), fit.phase - phase, db(fit.amplitude / amplitude), frequency_error);
  EXPECT_LT(std::abs(fit.phase - phase), 1e-8);  // 1e-8 rad = 7e-8 samples at 44.1 kHz
  EXPECT_LT(std::abs(db(fit.amplitude / amplitude)), 1e-6);
  EXPECT_LT(std::abs(frequency_error), 1e-6);
}

TEST_P(ResampleQuality, SineToNoiseAbove150Decibels) {
  double worst = 1e9;
  for (const double f : {100.0, 1000.0, 0.5 * nyquist(), 0.8 * nyquist()}) {
    const test::ToneFit fit = fit_tones(tone_out(f), to(), f, begin(), end());
    worst = std::min(worst, db(fit.amplitude / std::sqrt(2.0) / fit.residual_rms));
  }
  std::printf("[ measured ] %s: SNR of sines 100 Hz .. 0.8 Nyquist >= %.1f dB\n",
              label(GetParam()).c_str(), worst);
  EXPECT_GT(worst, 150.0);
}

TEST_P(ResampleQuality, PassBandFlatToEightTenthsOfNyquist) {
  double ripple = 0.0;
  for (int k = 0; k <= 40; ++k) {
    const double f = 20.0 * std::pow(0.8 * nyquist() / 20.0, k / 40.0);
    ripple = std::max(ripple, std::abs(gain(f)));
  }
  const double g90 = gain(0.9 * nyquist()), g95 = gain(0.95 * nyquist());
  const double g99 = gain(0.99 * nyquist());
  std::printf(
      "[ measured ] %s: |gain| <= %.2e dB over 20 Hz .. 0.8 Nyquist; %.4f dB at 0.9, "
      "%.2f dB at 0.95, %.1f dB at 0.99 Nyquist\n",
      label(GetParam()).c_str(), ripple, g90, g95, g99);
  EXPECT_LT(ripple, 1e-5);
  EXPECT_GT(g90, -0.01);  // the band reaches 0.9 Nyquist
  EXPECT_NEAR(g95, -3.0, 1.0);
  EXPECT_LT(g99, -60.0);
}

TEST_P(ResampleQuality, StopBandBelowMinus150Decibels) {
  double worst = -1e9;
  if (from() > to()) {
    // Down: tones between the output's and the input's Nyquist frequency must vanish (all that
    // is left of them is aliasing).
    for (double f = nyquist(); f < 0.495 * from(); f += 0.01 * nyquist()) {
      const std::vector<double> y = tone_out(f);
      double sum = 0.0;
      for (std::size_t i = begin(); i < end(); ++i) sum += y[i] * y[i];
      const double rms = std::sqrt(sum / static_cast<double>(end() - begin()));
      worst = std::max(worst, db(rms / (0.5 / std::sqrt(2.0))));
    }
  } else {
    // Up: a tone f < 0.8 Nyquist must not bring its image at from - f.
    for (double f = 100.0; f <= 0.8 * nyquist(); f += 0.02 * nyquist()) {
      const test::ToneFit fit = fit_tones(tone_out(f), to(), f, begin(), end(), from() - f);
      worst = std::max(worst, db(fit.second_amplitude / 0.5));
    }
  }
  std::printf("[ measured ] %s: aliases / images <= %.1f dB\n", label(GetParam()).c_str(), worst);
  EXPECT_LT(worst, -150.0);
}

INSTANTIATE_TEST_SUITE_P(Rates, ResampleQuality,
                         ::testing::Values(RateCase{48000.0, 44100.0}, RateCase{22050.0, 44100.0}),
                         name);

// ---- other ratios and the contract's edges --------------------------------------------------

class ResampleRatios : public ::testing::TestWithParam<RateCase> {};

TEST_P(ResampleRatios, SineMatchesAnalyticAwayFromTheEnds) {
  const auto [from, to] = GetParam();
  const double duration = 0.2, f = 1000.0;
  const auto n = static_cast<std::size_t>(std::round(duration * from));
  const Signal out = resample(Signal{from, tone(from, f, n)}, to);
  EXPECT_EQ(out.rate, to);
  EXPECT_EQ(out.samples.size(), static_cast<std::size_t>(std::round(double(n) * to / from)));
  double err = 0.0;
  for (std::size_t j = 0; j < out.samples.size(); ++j) {
    const double t = static_cast<double>(j) / to;
    if (t < 0.02 || t > duration - 0.02) continue;
    err = std::max(err, std::abs(out.samples[j] - std::sin(2.0 * kPi * f * t)));
  }
  EXPECT_LT(err, 1e-7) << label(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Rates, ResampleRatios,
                         ::testing::Values(RateCase{44100.0, 8000.0}, RateCase{8000.0, 44100.0},
                                           RateCase{44100.0, 44100.0 * 1.0001},
                                           RateCase{96000.0, 44100.0}),
                         name);

TEST(ResampleEdges, EqualRatesCopy) {
  const Signal in{44100.0, {0.1, -0.2, 0.3, 0.7}};
  const Signal out = resample(in, 44100.0);
  EXPECT_EQ(out.rate, in.rate);
  EXPECT_EQ(out.samples, in.samples);
}

TEST(ResampleEdges, LengthIsTheRoundedDuration) {
  for (const std::size_t n : {1u, 2u, 3u, 7u, 1001u}) {
    const Signal out = resample(Signal{48000.0, std::vector<double>(n, 0.25)}, 44100.0);
    EXPECT_EQ(out.samples.size(),
              static_cast<std::size_t>(std::round(static_cast<double>(n) * 44100.0 / 48000.0)));
  }
}

TEST(ResampleEdges, DownsamplingRemovesContentAboveTheNewBand) {
  // 15 kHz at 48 kHz, to 16 kHz (Nyquist 8 kHz): must not alias into the output.
  const Signal out = resample(Signal{48000.0, tone(48000.0, 15000.0, 9600)}, 16000.0);
  double sum = 0.0;
  for (std::size_t i = 400; i + 400 < out.samples.size(); ++i)
    sum += out.samples[i] * out.samples[i];
  EXPECT_LT(std::sqrt(sum / static_cast<double>(out.samples.size() - 800)), 1e-7);
}

TEST(ResampleEdges, EmptyInputAndBadRates) {
  const Signal out = resample(Signal{48000.0, {}}, 44100.0);
  EXPECT_TRUE(out.samples.empty());
  EXPECT_EQ(out.rate, 44100.0);
  EXPECT_THROW(resample(Signal{48000.0, {1.0}}, 0.0), SignalError);
  EXPECT_THROW(resample(Signal{0.0, {1.0}}, 44100.0), SignalError);
  EXPECT_THROW(resample(Signal{48000.0, {1.0}}, std::nan("")), SignalError);
  EXPECT_THROW(resample(Signal{48000.0, {1.0}}, INFINITY), SignalError);
}

}  // namespace
}  // namespace sphreverb
