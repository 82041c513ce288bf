// Test helpers for the audio tests: sampled tones, least-squares tone fits, and the gain of an
// impulse response. Header-only, included by the tests of this folder.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <numbers>
#include <vector>

namespace sphreverb::test {

constexpr double kPi = std::numbers::pi;

// amplitude sin(2 pi f i / rate + phase), i = 0..n-1.
inline std::vector<double> tone(double rate, double f, std::size_t n, double amplitude = 1.0,
                                double phase = 0.0) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = amplitude * std::sin(2.0 * kPi * f * static_cast<double>(i) / rate + phase);
  }
  return x;
}

// The least-squares fit y[i] ~ a sin(w t_i) + b cos(w t_i) + c sin(w2 t_i) + d cos(w2 t_i) over
// i in [from, to), t_i = i / rate, w = 2 pi f, w2 = 2 pi f2 (f2 = 0: one tone only).
struct ToneFit {
  double amplitude = 0.0;         // of the tone f: hypot(a, b)
  double phase = 0.0;             // rad, of the tone f as amplitude sin(w t + phase)
  double second_amplitude = 0.0;  // of the tone f2
  double residual_rms = 0.0;      // what the fitted tones leave
};

inline ToneFit fit_tones(const std::vector<double>& y, double rate, double f, std::size_t from,
                         std::size_t to, double f2 = 0.0) {
  const int m = f2 > 0.0 ? 4 : 2;
  auto basis = [&](std::size_t i, int k) {
    const double t = static_cast<double>(i) / rate, w = 2.0 * kPi * (k < 2 ? f : f2);
    return k % 2 == 0 ? std::sin(w * t) : std::cos(w * t);
  };
  double a[4][5] = {};  // normal equations, augmented
  for (std::size_t i = from; i < to; ++i) {
    double b[4];
    for (int k = 0; k < m; ++k) b[k] = basis(i, k);
    for (int r = 0; r < m; ++r) {
      for (int c = 0; c < m; ++c) a[r][c] += b[r] * b[c];
      a[r][4] += b[r] * y[i];
    }
  }
  for (int p = 0; p < m; ++p) {  // Gaussian elimination (the matrix is symmetric positive)
    for (int r = p + 1; r < m; ++r) {
      const double q = a[r][p] / a[p][p];
      for (int c = p; c < 5; ++c) a[r][c] -= q * a[p][c];
    }
  }
  double x[4] = {};
  for (int r = m - 1; r >= 0; --r) {
    double s = a[r][4];
    for (int c = r + 1; c < m; ++c) s -= a[r][c] * x[c];
    x[r] = s / a[r][r];
  }
  ToneFit fit;
  fit.amplitude = std::hypot(x[0], x[1]);
  fit.phase = std::atan2(x[1], x[0]);
  fit.second_amplitude = std::hypot(x[2], x[3]);
  double sum = 0.0;
  for (std::size_t i = from; i < to; ++i) {
    double e = y[i];
    for (int k = 0; k < m; ++k) e -= x[k] * basis(i, k);
    sum += e * e;
  }
  fit.residual_rms = std::sqrt(sum / static_cast<double>(to - from));
  return fit;
}

inline double db(double ratio) { return 20.0 * std::log10(ratio); }

// Gain in dB at frequency f of the filter with impulse response h at rate fs whose time origin
// is sample `centre` (a DFT of h at f; h must have decayed to nothing by its ends).
inline std::complex<double> response(const std::vector<double>& h, double fs, double f,
                                     double centre = 0.0) {
  std::complex<double> sum = 0.0;
  for (std::size_t n = 0; n < h.size(); ++n)
    sum += h[n] * std::polar(1.0, -2.0 * kPi * f * (static_cast<double>(n) - centre) / fs);
  return sum;
}

inline double gain_db(const std::vector<double>& h, double fs, double f, double centre = 0.0) {
  return db(std::abs(response(h, fs, f, centre)));
}

}  // namespace sphreverb::test
