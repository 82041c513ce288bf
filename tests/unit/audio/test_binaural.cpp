// Binaural rendering of B-format with libmysofa's default HRTF set (MIT KEMAR): a plane wave
// from the left (+y) reaches the left ear first, by an interaural time difference of the size a
// head gives (0.3-0.7 ms), and louder below 2 kHz; from the right the other way round. At a
// rendering rate other than the file's the HRIRs are resampled and the same holds.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <iostream>
#include <vector>

#include "sphreverb/audio/binaural.hpp"

namespace sphreverb {
namespace {

// Lag (s) of b behind a maximising their cross-correlation, within +-max_lag s.
double lag_of(const std::vector<double>& a, const std::vector<double>& b, double rate,
              double max_lag) {
  const int m = static_cast<int>(max_lag * rate);
  double best = -1e300;
  int best_k = 0;
  for (int k = -m; k <= m; ++k) {
    double c = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const long j = static_cast<long>(i) + k;
      if (j >= 0 && j < static_cast<long>(b.size())) c += a[i] * b[static_cast<std::size_t>(j)];
    }
    if (c > best) best = c, best_k = k;
  }
  return best_k / rate;
}

// Energy of x between f_lo and f_hi (Hz), by a direct DFT.
double band_energy(const std::vector<double>& x, double rate, double f_lo, double f_hi) {
  const std::size_t n = x.size();
  double e = 0.0;
  for (std::size_t k = 1; k < n / 2; ++k) {
    const double f = static_cast<double>(k) * rate / static_cast<double>(n);
    if (f < f_lo || f > f_hi) continue;
    std::complex<double> s = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      s +=
          x[i] * std::polar(1.0, -2.0 * M_PI * static_cast<double>(k * i) / static_cast<double>(n));
    e += std::norm(s);
  }
  return e;
}

// The ears for a plane-wave impulse from direction (0, side, 0): W = s, Y = side s.
std::vector<std::vector<double>> from_side(double side, HrtfSet& hrtf) {
  const std::size_t n = 256;
  std::vector<std::vector<double>> b(4, std::vector<double>(n, 0.0));
  b[0][20] = 1.0;
  b[1][20] = side;
  return render_binaural(b, hrtf);
}

void expect_left_leads_and_is_louder(double rate) {
  ASSERT_TRUE(std::filesystem::exists(kDefaultSofaPath)) << kDefaultSofaPath;
  HrtfSet hrtf(kDefaultSofaPath, rate);
  for (double side : {1.0, -1.0}) {
    const auto ears = from_side(side, hrtf);
    ASSERT_EQ(ears.size(), 2u);
    const std::vector<double>& near = side > 0 ? ears[0] : ears[1];
    const std::vector<double>& far = side > 0 ? ears[1] : ears[0];
    const double itd = lag_of(near, far, rate, 1.5e-3);  // the far ear lags by this
    EXPECT_GT(itd, 0.3e-3) << "rate " << rate << ", side " << side;
    EXPECT_LT(itd, 0.7e-3) << "rate " << rate << ", side " << side;
    const double ild = 10.0 * std::log10(band_energy(near, rate, 200.0, 2000.0) /
                                         band_energy(far, rate, 200.0, 2000.0));
    EXPECT_GT(ild, 1.0) << "rate " << rate << ", side " << side << " (dB)";
    std::cout << "rate " << rate << " Hz, side " << side << ": ITD " << itd * 1e3
              << " ms (0.3 to 0.7), ILD 200 Hz-2 kHz " << ild << " dB (> 1)\n";
  }
}

TEST(Binaural, SourceOnTheLeftReachesTheLeftEarFirstAndLouder) {
  expect_left_leads_and_is_louder(44100.0);
}

TEST(Binaural, ResampledHrirsKeepTheInterauralCues) { expect_left_leads_and_is_louder(48000.0); }

TEST(Binaural, UnreadableSofaFileIsASignalError) {
  EXPECT_THROW({ HrtfSet h("/nonexistent/hrtf.sofa", 44100.0); }, SignalError);
}

}  // namespace
}  // namespace sphreverb
