// Filters (see filters.hpp).
//
// Decimation low-pass: windowed sinc with a Kaiser window, w(r) = I0(beta sqrt(1 - r^2)) / I0(beta)
// for |r| <= 1 (Kaiser & Schafer 1980; Oppenheim & Schafer, "Discrete-Time Signal Processing",
// 3rd ed., eqs. 7.72-7.75). beta = 10 gives about 100 dB of side-lobe rejection; with 32 zero
// crossings of the sinc on each side the transition band is about +-10 % of the cut-off, centred
// on it (the cut-off is the half-amplitude point of the filter).
// Butterworth: pole pair k of an order-N filter has Q = 1 / (2 sin((2k + 1) pi / (2N))); each
// section is the bilinear-transform low-pass (or high-pass) biquad of R. Bristow-Johnson's "Audio
// EQ Cookbook"; the high-pass is the same cascade with s -> w0 / s (same poles' Q values).
#include "sphreverb/audio/filters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace sphreverb {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kKaiserBeta = 10.0;  // side lobes near -100 dB
constexpr int kZeroCrossings = 32;    // sinc zero crossings kept on each side of the centre

// Modified Bessel function of the first kind, order 0: I0(x) = sum_k ((x/2)^k / k!)^2.
double bessel_i0(double x) {
  const double q = 0.25 * x * x;
  double term = 1.0;
  double sum = 1.0;
  for (int k = 1; k < 500; ++k) {
    term *= q / (static_cast<double>(k) * static_cast<double>(k));
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return sum;
}

// Kaiser window at r in [-1, 1]; 0 outside.
double kaiser(double r) {
  if (std::abs(r) >= 1.0) return 0.0;
  return bessel_i0(kKaiserBeta * std::sqrt(1.0 - r * r)) / bessel_i0(kKaiserBeta);
}

// sin(pi z) / (pi z), 1 at z = 0.
double sinc(double z) {
  if (std::abs(z) < 1e-12) return 1.0;
  return std::sin(kPi * z) / (kPi * z);
}

// Windowed sinc as a function of z measured in zero crossings: sinc(z) * w(z / kZeroCrossings).
double windowed_sinc(double z) { return sinc(z) * kaiser(z / static_cast<double>(kZeroCrossings)); }

std::string num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

void require(bool ok, const std::string& what) {
  if (!ok) throw SignalError(what);
}

// Symmetric low-pass taps h[k] = c sinc(c k) w(c k / K), k = -M..M, c = 2 cutoff / rate,
// normalised to sum 1 (exact unit gain at DC); the centre tap is h[M].
std::vector<double> lowpass_taps(double rate, double cutoff) {
  const double c = 2.0 * cutoff / rate;
  const double half_real = std::ceil(static_cast<double>(kZeroCrossings) / c);
  require(half_real <= 1e7, "lowpass_decimate: cutoff " + num(cutoff) + " Hz is too low for " +
                                num(rate) + " Hz (filter would need " + num(2 * half_real + 1) +
                                " taps)");
  const auto half = static_cast<std::size_t>(half_real);
  std::vector<double> taps(2 * half + 1);
  double sum = 0.0;
  for (std::size_t m = 0; m < taps.size(); ++m) {
    const double k = static_cast<double>(m) - static_cast<double>(half);
    taps[m] = c * windowed_sinc(c * k);
    sum += taps[m];
  }
  for (double& h : taps) h /= sum;
  return taps;
}

// One biquad section y = (b0 + b1 z^-1 + b2 z^-2) / (1 + a1 z^-1 + a2 z^-2) x, in place, from rest.
struct Biquad {
  double b0, b1, b2, a1, a2;
  void run(std::vector<double>& x) const {
    double x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0;
    for (double& v : x) {
      const double y = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1, x1 = v, y2 = y1, y1 = y, v = y;
    }
  }
};

// The low-pass biquad with quality factor q at w0 = 2 pi cutoff / rate (cookbook LPF).
Biquad lowpass_biquad(double w0, double q) {
  const double cw = std::cos(w0), sw = std::sin(w0);
  const double alpha = sw / (2.0 * q), a0 = 1.0 + alpha;
  const double b0 = 0.5 * (1.0 - cw) / a0, b1 = (1.0 - cw) / a0;
  return {b0, b1, b0, -2.0 * cw / a0, (1.0 - alpha) / a0};
}

// The high-pass biquad with quality factor q at w0 = 2 pi cutoff / rate (cookbook HPF).
Biquad highpass_biquad(double w0, double q) {
  const double cw = std::cos(w0), sw = std::sin(w0);
  const double alpha = sw / (2.0 * q), a0 = 1.0 + alpha;
  const double b0 = 0.5 * (1.0 + cw) / a0, b1 = -(1.0 + cw) / a0;
  return {b0, b1, b0, -2.0 * cw / a0, (1.0 - alpha) / a0};
}

// Q of pole pair k of an order-N Butterworth filter.
double butterworth_q(int k, int order) {
  return 1.0 / (2.0 * std::sin((2.0 * k + 1.0) * kPi / (2.0 * order)));
}

void require_butterworth(const char* name, const Signal& in, double cutoff, int order) {
  require(cutoff > 0.0 && cutoff < 0.5 * in.rate,
          std::string(name) + ": cut-off " + num(cutoff) +
              " Hz must be in (0, rate/2 = " + num(0.5 * in.rate) + ")");
  require(order >= 2 && order <= 8 && order % 2 == 0,
          std::string(name) + ": order must be 2, 4, 6 or 8, got " + std::to_string(order));
}

}  // namespace

Signal lowpass_decimate(const Signal& in, int factor, double cutoff) {
  require(std::isfinite(in.rate) && in.rate > 0.0,
          "lowpass_decimate: input rate must be > 0 Hz, got " + num(in.rate));
  require(factor >= 1, "lowpass_decimate: factor must be >= 1, got " + std::to_string(factor));
  require(std::isfinite(cutoff) && cutoff > 0.0 && cutoff < 0.5 * in.rate,
          "lowpass_decimate: cutoff must be in (0, rate/2 = " + num(0.5 * in.rate) + ") Hz, got " +
              num(cutoff));
  const std::vector<double> taps = lowpass_taps(in.rate, cutoff);
  const std::size_t half = taps.size() / 2;

  Signal out;
  out.rate = in.rate / factor;
  const std::size_t n = in.samples.size();
  const auto step = static_cast<std::size_t>(factor);
  const std::size_t n_out = (n + step - 1) / step;
  out.samples.resize(n_out);
  // out[k] = sum_j h[j - i] x[j] over the j in range, i = k factor (samples outside are 0).
  for (std::size_t k = 0; k < n_out; ++k) {
    const std::size_t i = k * step;
    const std::size_t lo = i >= half ? i - half : 0;
    const std::size_t hi = std::min(n - 1, i + half);
    const double* h = taps.data() + (lo + half - i);
    const double* x = in.samples.data() + lo;
    double acc = 0.0;
    for (std::size_t j = 0; j <= hi - lo; ++j) acc += h[j] * x[j];
    out.samples[k] = acc;
  }
  return out;
}

Signal butterworth_lowpass(const Signal& in, double cutoff, int order) {
  require_butterworth("butterworth_lowpass", in, cutoff, order);
  Signal out = in;
  const double w0 = 2.0 * kPi * cutoff / in.rate;
  for (int k = 0; k < order / 2; ++k) lowpass_biquad(w0, butterworth_q(k, order)).run(out.samples);
  return out;
}

double butterworth_group_delay(double f, double cutoff, int order, double rate) {
  const auto warp = [&](double x) { return 2.0 * rate * std::tan(kPi * x / rate); };
  const double wc = warp(cutoff), w = warp(f) / wc;
  double tau = 0.0;
  for (int k = 1; k <= order; ++k) {
    const double angle = kPi * (2.0 * k + order - 1.0) / (2.0 * order);
    const double sigma = std::cos(angle), beta = std::sin(angle);
    tau += -sigma / ((w - beta) * (w - beta) + sigma * sigma);
  }
  const double c = std::cos(kPi * f / rate);
  return tau / wc / (c * c);
}

Signal butterworth_highpass(const Signal& in, double cutoff, int order) {
  require_butterworth("butterworth_highpass", in, cutoff, order);
  Signal out = in;
  const double w0 = 2.0 * kPi * cutoff / in.rate;
  for (int k = 0; k < order / 2; ++k) highpass_biquad(w0, butterworth_q(k, order)).run(out.samples);
  return out;
}

}  // namespace sphreverb
