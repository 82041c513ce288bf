// Linkwitz-Riley crossovers (see crossover.hpp). Each Butterworth section is the bilinear-transform
// biquad of R. Bristow-Johnson's "Audio EQ Cookbook" with Q = 1/sqrt(2); LR4 is two of them.
#include "sphreverb/audio/crossover.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "sphreverb/core/number_text.hpp"

namespace sphreverb {
namespace {

struct Biquad {
  double b0, b1, b2, a1, a2;
};

Biquad butterworth2(double rate, double cutoff, bool high) {
  if (!(cutoff > 0.0 && cutoff < 0.5 * rate)) {
    throw SignalError("crossover at " + format_number(cutoff) + " Hz: must lie in (0, " +
                      format_number(0.5 * rate) + ") Hz");
  }
  const double k = std::tan(std::numbers::pi * cutoff / rate);
  const double q = 1.0 / std::numbers::sqrt2;
  const double norm = 1.0 / (1.0 + k / q + k * k);
  Biquad f{};
  if (high) {
    f.b0 = norm, f.b1 = -2.0 * norm, f.b2 = norm;
  } else {
    f.b0 = k * k * norm, f.b1 = 2.0 * f.b0, f.b2 = f.b0;
  }
  f.a1 = 2.0 * (k * k - 1.0) * norm;
  f.a2 = (1.0 - k / q + k * k) * norm;
  return f;
}

// Direct form I, zero initial state.
void apply(const Biquad& f, std::vector<double>& x) {
  double x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0;
  for (double& v : x) {
    const double y = f.b0 * v + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2;
    x2 = x1, x1 = v, y2 = y1, y1 = y, v = y;
  }
}

std::vector<double> lr4(std::vector<double> x, double rate, double cutoff, bool high) {
  const Biquad f = butterworth2(rate, cutoff, high);
  apply(f, x);
  apply(f, x);
  return x;
}

// One Butterworth biquad forwards, then backwards.
void forward_backward(const Biquad& f, std::vector<double>& x) {
  apply(f, x);
  std::reverse(x.begin(), x.end());
  apply(f, x);
  std::reverse(x.begin(), x.end());
}

}  // namespace

std::vector<double> zero_phase_band(const std::vector<double>& samples, double rate,
                                    const std::vector<double>& edges, int band, std::size_t pad) {
  const int n_edges = static_cast<int>(edges.size());
  if (band < 0 || band > n_edges) throw SignalError("zero_phase_band: band index out of range");
  std::vector<double> x(samples.size() + 2 * pad, 0.0);
  std::copy(samples.begin(), samples.end(), x.begin() + static_cast<std::ptrdiff_t>(pad));
  for (int e = 0; e < band; ++e) forward_backward(butterworth2(rate, edges[e], true), x);
  if (band < n_edges) forward_backward(butterworth2(rate, edges[band], false), x);
  return {x.begin() + static_cast<std::ptrdiff_t>(pad),
          x.begin() + static_cast<std::ptrdiff_t>(pad + samples.size())};
}

std::vector<double> lr4_lowpass(const std::vector<double>& samples, double rate, double cutoff) {
  return lr4(samples, rate, cutoff, false);
}

std::vector<double> lr4_highpass(const std::vector<double>& samples, double rate, double cutoff) {
  return lr4(samples, rate, cutoff, true);
}

std::vector<double> lr4_allpass(const std::vector<double>& samples, double rate, double cutoff) {
  std::vector<double> lo = lr4(samples, rate, cutoff, false);
  const std::vector<double> hi = lr4(samples, rate, cutoff, true);
  for (std::size_t i = 0; i < lo.size(); ++i) lo[i] += hi[i];
  return lo;
}

std::vector<double> lr4_band(const std::vector<double>& samples, double rate,
                             const std::vector<double>& edges, int band) {
  const int n_edges = static_cast<int>(edges.size());
  if (band < 0 || band > n_edges) throw SignalError("lr4_band: band index out of range");
  std::vector<double> x = samples;
  for (int e = 0; e < band; ++e) x = lr4(std::move(x), rate, edges[e], true);
  if (band < n_edges) x = lr4(std::move(x), rate, edges[band], false);
  for (int e = band + 1; e < n_edges; ++e) x = lr4_allpass(x, rate, edges[e]);
  return x;
}

}  // namespace sphreverb
