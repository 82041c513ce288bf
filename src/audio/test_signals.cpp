// The built-in inputs (see test_signals.hpp). Sweep: exponential sine sweep of Farina,
// "Simultaneous measurement of impulse response and distortion with a swept-sine technique",
// AES 108th Convention (2000), eq. (2).
#include "sphreverb/audio/test_signals.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace sphreverb {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kFadeSeconds = 0.005;  // sweep fade-in / fade-out length

void require(bool ok, const std::string& what) {
  if (!ok) throw SignalError(what);
}

bool positive_finite(double x) { return std::isfinite(x) && x > 0.0; }

std::string num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

// Number of samples of a built-in signal: round(duration * rate), at least one.
std::size_t builtin_length(const char* name, double rate, double duration) {
  require(positive_finite(rate), std::string(name) + ": rate must be > 0 Hz, got " + num(rate));
  require(std::isfinite(duration) && duration >= 0.0,
          std::string(name) + ": duration must be >= 0 s, got " + num(duration));
  const double n = std::round(duration * rate);
  require(n < 1e10, std::string(name) + ": " + num(n) + " samples is too long");
  return std::max<std::size_t>(1, static_cast<std::size_t>(n));
}

// Raised-cosine fades, g = (1 - cos(pi k / nf)) / 2 for the k-th sample from either end
// (k = 0 is the first/last sample, g = 0 there) over nf samples at each end.
void fade_ends(std::vector<double>& s, std::size_t nf) {
  const std::size_t n = s.size();
  for (std::size_t k = 0; k < nf && k < n; ++k) {
    const double g = 0.5 * (1.0 - std::cos(kPi * static_cast<double>(k) / static_cast<double>(nf)));
    s[k] *= g;
    s[n - 1 - k] *= g;
  }
}

}  // namespace

Signal make_impulse(double rate, double duration) {
  Signal s;
  s.rate = rate;
  s.samples.assign(builtin_length("make_impulse", rate, duration), 0.0);
  s.samples[0] = 1.0;
  return s;
}

Signal make_sweep(double rate, double duration, double f0, double f1) {
  const std::size_t n = builtin_length("make_sweep", rate, duration);
  require(positive_finite(f0) && f0 <= 0.5 * rate,
          "make_sweep: f0 must be in (0, rate/2 = " + num(0.5 * rate) + "] Hz, got " + num(f0));
  require(positive_finite(f1) && f1 <= 0.5 * rate,
          "make_sweep: f1 must be in (0, rate/2 = " + num(0.5 * rate) + "] Hz, got " + num(f1));

  // x(t) = sin(2 pi f0 T / L (exp(t L / T) - 1)), L = ln(f1 / f0), over T = n / rate; the limit
  // L -> 0 is the constant tone sin(2 pi f0 t).
  Signal s;
  s.rate = rate;
  s.samples.resize(n);
  const double T = static_cast<double>(n) / rate;
  const double L = std::log(f1 / f0);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / rate;
    const double phase =
        std::abs(L) < 1e-12 ? 2.0 * kPi * f0 * t : 2.0 * kPi * f0 * T / L * std::expm1(t * L / T);
    s.samples[i] = std::sin(phase);
  }
  // 5 ms fades, or a quarter of the signal if shorter.
  const double fade_seconds = std::min(kFadeSeconds, 0.25 * T);
  fade_ends(s.samples, static_cast<std::size_t>(std::round(fade_seconds * rate)));
  return s;
}

}  // namespace sphreverb
