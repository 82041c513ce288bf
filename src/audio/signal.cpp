// Audio signals (see include/sphreverb/signal.hpp for the contracts).
//
// Filters: windowed sinc with a Kaiser window, w(r) = I0(beta sqrt(1 - r^2)) / I0(beta) for
// |r| <= 1 (Kaiser & Schafer 1980; Oppenheim & Schafer, "Discrete-Time Signal Processing", 3rd ed.,
// eqs. 7.72-7.75). beta = 10 gives about 100 dB of side-lobe rejection; with 32 zero crossings of
// the sinc on each side the transition band is about +-10 % of the cut-off, centred on it (the
// cut-off is the half-amplitude point of the filter).
// Sweep: exponential sine sweep of Farina, "Simultaneous measurement of impulse response and
// distortion with a swept-sine technique", AES 108th Convention (2000), eq. (2).
#include "sphreverb/audio/signal.hpp"

#include <sndfile.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <numbers>
#include <system_error>

namespace sphreverb {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kKaiserBeta = 10.0;     // side lobes near -100 dB
constexpr int kZeroCrossings = 32;       // sinc zero crossings kept on each side of the centre
constexpr int kTablePerCrossing = 2048;  // resampling kernel table points per zero crossing
constexpr double kFadeSeconds = 0.005;   // sweep fade-in / fade-out length

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

struct SndfileCloser {
  void operator()(SNDFILE* f) const { sf_close(f); }
};
using SndfileHandle = std::unique_ptr<SNDFILE, SndfileCloser>;

// Conversion to 16-bit PCM with the same scale that libsndfile's normalised reading uses
// (x = s / 32768), so a value read back is within 1/32768 of the value written (clipped to
// [-1, 1]); NaN becomes 0.
short to_pcm16(double x) {
  if (std::isnan(x)) return 0;
  const double s = std::clamp(std::nearbyint(x * 32768.0), -32768.0, 32767.0);
  return static_cast<short>(s);
}

}  // namespace

Signal read_wav(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw SignalError(path + ": no such file");
  if (fs::is_directory(path, ec)) throw SignalError(path + ": is a directory, not a sound file");
  if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) == 0 && !ec) {
    throw SignalError(path + ": file is empty (0 bytes)");
  }

  SF_INFO info{};
  SndfileHandle file(sf_open(path.c_str(), SFM_READ, &info));
  if (!file) {
    throw SignalError(path + ": not a sound file libsndfile can read (" + sf_strerror(nullptr) +
                      ")");
  }
  if (info.channels < 1 || info.samplerate < 1) {
    throw SignalError(path + ": malformed header (" + std::to_string(info.channels) +
                      " channels at " + std::to_string(info.samplerate) + " Hz)");
  }

  // Read in blocks until the end, so that a wrong frame count in the header does not matter.
  const auto channels = static_cast<std::size_t>(info.channels);
  constexpr sf_count_t kBlockFrames = 65536;
  std::vector<double> block(static_cast<std::size_t>(kBlockFrames) * channels);
  Signal out;
  out.rate = static_cast<double>(info.samplerate);
  if (info.frames > 0 && info.frames < (sf_count_t{1} << 40)) {
    out.samples.reserve(static_cast<std::size_t>(info.frames));
  }
  const double inv_channels = 1.0 / static_cast<double>(channels);
  for (;;) {
    const sf_count_t got = sf_readf_double(file.get(), block.data(), kBlockFrames);
    if (got <= 0) break;
    for (sf_count_t f = 0; f < got; ++f) {
      const double* frame = block.data() + static_cast<std::size_t>(f) * channels;
      double sum = 0.0;
      for (std::size_t c = 0; c < channels; ++c) sum += frame[c];
      out.samples.push_back(channels == 1 ? sum : sum * inv_channels);
    }
  }
  if (const int err = sf_error(file.get()); err != SF_ERR_NO_ERROR) {
    throw SignalError(path + ": read error (" + sf_error_number(err) + ")");
  }
  if (out.samples.empty()) throw SignalError(path + ": contains no audio frames");
  return out;
}

void write_wav(const std::string& path, double rate,
               const std::vector<std::vector<double>>& channels, bool pcm16) {
  require(!channels.empty(), path + ": cannot write a WAV file with no channels");
  require(channels.size() <= 1024,
          path + ": too many channels (" + std::to_string(channels.size()) + ")");
  const std::size_t frames = channels.front().size();
  for (std::size_t c = 1; c < channels.size(); ++c) {
    require(channels[c].size() == frames, path + ": channels differ in length (channel 0 has " +
                                              std::to_string(frames) + " samples, channel " +
                                              std::to_string(c) + " has " +
                                              std::to_string(channels[c].size()) + ")");
  }
  const double whole_rate = std::round(rate);
  require(std::isfinite(rate) && whole_rate >= 1.0 && whole_rate <= INT_MAX &&
              std::abs(rate - whole_rate) <= 1e-6,
          path + ": a WAV sample rate must be a whole number of Hz >= 1, got " + num(rate));

  const std::string partial = path + ".partial";
  SF_INFO info{};
  info.samplerate = static_cast<int>(whole_rate);
  info.channels = static_cast<int>(channels.size());
  info.format = SF_FORMAT_WAV | (pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT);

  auto fail = [&](const std::string& what) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw SignalError(path + ": " + what);
  };

  SNDFILE* raw = sf_open(partial.c_str(), SFM_WRITE, &info);
  if (raw == nullptr) fail(std::string("cannot open for writing (") + sf_strerror(nullptr) + ")");
  SndfileHandle file(raw);
  // No PEAK chunk: it carries a time stamp, and the same samples must give the same bytes.
  sf_command(raw, SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);

  // Write interleaved frames in blocks.
  const std::size_t nch = channels.size();
  constexpr std::size_t kBlockFrames = 16384;
  std::vector<double> block_f;
  std::vector<short> block_s;
  if (pcm16) {
    block_s.resize(kBlockFrames * nch);
  } else {
    block_f.resize(kBlockFrames * nch);
  }
  for (std::size_t start = 0; start < frames; start += kBlockFrames) {
    const std::size_t count = std::min(kBlockFrames, frames - start);
    for (std::size_t f = 0; f < count; ++f) {
      for (std::size_t c = 0; c < nch; ++c) {
        const double x = channels[c][start + f];
        if (pcm16) {
          block_s[f * nch + c] = to_pcm16(x);
        } else {
          block_f[f * nch + c] = x;
        }
      }
    }
    const auto want = static_cast<sf_count_t>(count);
    const sf_count_t wrote = pcm16 ? sf_writef_short(file.get(), block_s.data(), want)
                                   : sf_writef_double(file.get(), block_f.data(), want);
    if (wrote != want) {
      const std::string why = sf_strerror(file.get());
      file.reset();
      fail("write failed after " + std::to_string(start) + " frames (" + why + ")");
    }
  }
  if (sf_close(file.release()) != 0) fail("closing the file failed (data may be incomplete)");

  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    const std::string why = std::generic_category().message(errno);
    fail("cannot rename " + partial + " to the final name (" + why + ")");
  }
}

Signal resample(const Signal& in, double rate) {
  require(positive_finite(in.rate), "resample: input rate must be > 0 Hz, got " + num(in.rate));
  require(positive_finite(rate), "resample: output rate must be > 0 Hz, got " + num(rate));
  if (rate == in.rate) return in;

  Signal out;
  out.rate = rate;
  const std::size_t n_in = in.samples.size();
  const double n_out_real = std::round(static_cast<double>(n_in) * rate / in.rate);
  require(n_out_real < 1e10, "resample: output of " + num(n_out_real) + " samples is too long");
  const auto n_out = static_cast<std::size_t>(n_out_real);
  out.samples.assign(n_out, 0.0);
  if (n_in == 0 || n_out == 0) return out;

  // Band-limited interpolation: y(t) = sum_i x_i h(t rate_in - i), with
  // h(u) = c sinc(c u) w(c u / K), c = 2 fc / rate_in, fc = 0.45 min(rate_in, rate).
  const double fc = 0.45 * std::min(in.rate, rate);
  const double c = 2.0 * fc / in.rate;  // zero crossings per input sample
  const double half_width = static_cast<double>(kZeroCrossings) / c;  // input samples

  // Table of windowed_sinc(z) at z = m / kTablePerCrossing, linearly interpolated (error < 1e-7
  // of the peak per tap); one trailing zero so that interpolation at the last point is safe.
  const std::size_t table_size = static_cast<std::size_t>(kZeroCrossings) * kTablePerCrossing + 2;
  std::vector<double> table(table_size, 0.0);
  for (std::size_t m = 0; m + 1 < table_size; ++m) {
    table[m] = windowed_sinc(static_cast<double>(m) / kTablePerCrossing);
  }
  const double table_scale = c * kTablePerCrossing;  // table points per input sample
  const double table_end = static_cast<double>(table_size - 2);

  const double step = in.rate / rate;  // input samples per output sample
  const double last = static_cast<double>(n_in - 1);
  for (std::size_t j = 0; j < n_out; ++j) {
    const double x = static_cast<double>(j) * step;  // position in input samples
    const double lo_real = std::max(0.0, std::ceil(x - half_width));
    const double hi_real = std::min(last, std::floor(x + half_width));
    if (lo_real > hi_real) continue;
    const auto lo = static_cast<std::size_t>(lo_real);
    const auto hi = static_cast<std::size_t>(hi_real);
    double acc = 0.0;
    for (std::size_t i = lo; i <= hi; ++i) {
      const double pos = std::abs(x - static_cast<double>(i)) * table_scale;
      if (pos >= table_end) continue;
      const auto m = static_cast<std::size_t>(pos);
      const double frac = pos - static_cast<double>(m);
      const double h = table[m] + frac * (table[m + 1] - table[m]);
      acc += h * in.samples[i];
    }
    out.samples[j] = c * acc;
  }
  return out;
}

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

  // Raised-cosine fades, g = (1 - cos(pi k / nf)) / 2 for the k-th sample from either end
  // (k = 0 is the first/last sample, g = 0 there); 5 ms, or a quarter of the signal if shorter.
  const double fade_seconds = std::min(kFadeSeconds, 0.25 * T);
  const auto nf = static_cast<std::size_t>(std::round(fade_seconds * rate));
  for (std::size_t k = 0; k < nf && k < n; ++k) {
    const double g = 0.5 * (1.0 - std::cos(kPi * static_cast<double>(k) / static_cast<double>(nf)));
    s.samples[k] *= g;
    s.samples[n - 1 - k] *= g;
  }
  return s;
}

double sample_at(const Signal& s, double t) {
  const std::size_t n = s.samples.size();
  if (n == 0 || !(s.rate > 0.0)) return 0.0;
  const double last = static_cast<double>(n - 1);
  if (!(t >= 0.0) || t > last / s.rate) return 0.0;
  const double x = std::min(t * s.rate, last);
  const auto i = static_cast<std::size_t>(x);
  if (i + 1 >= n) return s.samples[n - 1];
  const double frac = x - static_cast<double>(i);
  return s.samples[i] + frac * (s.samples[i + 1] - s.samples[i]);
}

Signal lowpass_decimate(const Signal& in, int factor, double cutoff) {
  require(positive_finite(in.rate),
          "lowpass_decimate: input rate must be > 0 Hz, got " + num(in.rate));
  require(factor >= 1, "lowpass_decimate: factor must be >= 1, got " + std::to_string(factor));
  require(std::isfinite(cutoff) && cutoff > 0.0 && cutoff < 0.5 * in.rate,
          "lowpass_decimate: cutoff must be in (0, rate/2 = " + num(0.5 * in.rate) + ") Hz, got " +
              num(cutoff));

  // Symmetric taps h[k] = c sinc(c k) w(c k / K), k = -M..M, c = 2 cutoff / rate, normalised to
  // sum 1 (exact unit gain at DC); centred, so the output is not delayed.
  const double c = 2.0 * cutoff / in.rate;
  const double half_real = std::ceil(static_cast<double>(kZeroCrossings) / c);
  require(half_real <= 1e7, "lowpass_decimate: cutoff " + num(cutoff) + " Hz is too low for " +
                                num(in.rate) + " Hz (filter would need " + num(2 * half_real + 1) +
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
  if (!(cutoff > 0.0 && cutoff < 0.5 * in.rate))
    throw SignalError("butterworth_lowpass: cut-off " + std::to_string(cutoff) +
                      " Hz must be in (0, rate/2)");
  if (order < 2 || order > 8 || order % 2 != 0)
    throw SignalError("butterworth_lowpass: order must be 2, 4, 6 or 8");
  Signal out = in;
  // Pole pair k of an order-N Butterworth filter has Q = 1 / (2 sin((2k + 1) pi / (2N))); each
  // section is the bilinear-transform low-pass biquad (RBJ audio-EQ cookbook form).
  const double w0 = 2.0 * std::numbers::pi * cutoff / in.rate;
  const double cw = std::cos(w0), sw = std::sin(w0);
  for (int k = 0; k < order / 2; ++k) {
    const double q = 1.0 / (2.0 * std::sin((2.0 * k + 1.0) * std::numbers::pi / (2.0 * order)));
    const double alpha = sw / (2.0 * q), a0 = 1.0 + alpha;
    const double b0 = 0.5 * (1.0 - cw) / a0, b1 = (1.0 - cw) / a0, b2 = b0;
    const double a1 = -2.0 * cw / a0, a2 = (1.0 - alpha) / a0;
    double x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0;
    for (double& v : out.samples) {
      const double y = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1, x1 = v, y2 = y1, y1 = y, v = y;
    }
  }
  return out;
}

std::vector<double> remove_dc_and_normalize(const std::vector<double>& x) {
  std::vector<double> y(x);
  if (y.empty()) return y;
  double mean = 0.0;
  double peak_in = 0.0;
  for (double v : y) {
    mean += v;
    peak_in = std::max(peak_in, std::abs(v));
  }
  mean /= static_cast<double>(y.size());
  double peak = 0.0;
  for (double& v : y) {
    v -= mean;
    peak = std::max(peak, std::abs(v));
  }
  // What is left of a constant signal is rounding noise of the mean; treat it as zero rather
  // than amplify it to full scale.
  if (peak > 1e-12 * peak_in) {
    const double scale = 1.0 / peak;
    for (double& v : y) v *= scale;
  } else {
    std::fill(y.begin(), y.end(), 0.0);
  }
  return y;
}

}  // namespace sphreverb
