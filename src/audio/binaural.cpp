#include "sphreverb/audio/binaural.hpp"

#include <mysofa.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>

#include "sphreverb/audio/resample.hpp"
#include "sphreverb/audio/signal.hpp"

namespace sphreverb {
namespace {

constexpr int kSpeakers = 8;

// The cube's corners (unit vectors), listener frame.
std::array<std::array<double, 3>, kSpeakers> speaker_directions() {
  std::array<std::array<double, 3>, kSpeakers> u{};
  const double a = 1.0 / std::sqrt(3.0);
  for (int i = 0; i < kSpeakers; ++i) u[i] = {(i & 1) ? a : -a, (i & 2) ? a : -a, (i & 4) ? a : -a};
  return u;
}

// Full linear convolution of x with h, added into out (size >= x + h - 1).
void convolve_add(const std::vector<double>& x, const std::vector<double>& h,
                  std::vector<double>& out) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] == 0.0) continue;
    for (std::size_t k = 0; k < h.size(); ++k) out[i + k] += x[i] * h[k];
  }
}

// The HRIR delayed by `delay` s (rounded to whole samples at `rate`), resampled to `to_rate`.
std::vector<double> prepare(const std::vector<float>& ir, double delay, double rate,
                            double to_rate) {
  Signal s{rate, {}};
  const auto shift = static_cast<std::size_t>(std::max(0.0, std::round(delay * rate)));
  s.samples.assign(shift, 0.0);
  for (float v : ir) s.samples.push_back(v);
  return resample(s, to_rate).samples;
}

}  // namespace

namespace {

// What makes a loaded SOFA file unusable as an HRIR set, in words ("" if nothing): its sample rate
// (finite, in [kLeastHrirRate, kMostHrirRate] Hz), its dimensions (two receivers, M measurements
// of N taps, DataIR holding M R N values), NaN or infinite taps, or no tap other than zero.
constexpr double kLeastHrirRate = 1000.0, kMostHrirRate = 1e6;
std::string hrir_defect(const MYSOFA_HRTF& h) {
  const double fs = h.DataSamplingRate.values[0];
  if (!std::isfinite(fs) || fs < kLeastHrirRate || fs > kMostHrirRate)
    return "Data.SamplingRate " + std::to_string(fs) + " Hz is not in [1000, 1e6] Hz";
  if (h.R != 2) return std::to_string(h.R) + " receivers (ears), not 2";
  if (h.M == 0 || h.N == 0)
    return "no impulse responses (M = " + std::to_string(h.M) +
           " measurements of N = " + std::to_string(h.N) + " taps)";
  const std::size_t expected = std::size_t{h.M} * h.R * h.N;
  if (h.DataIR.values == nullptr || h.DataIR.elements != expected)
    return "Data.IR holds " + std::to_string(h.DataIR.elements) +
           " values, not M R N = " + std::to_string(expected);
  std::size_t bad = 0, nonzero = 0;
  for (std::size_t i = 0; i < expected; ++i) {
    const float v = h.DataIR.values[i];
    if (!std::isfinite(v))
      ++bad;
    else if (v != 0.0f)
      ++nonzero;
  }
  if (bad > 0)
    return "Data.IR holds " + std::to_string(bad) + " NaN or infinite values of " +
           std::to_string(expected);
  if (nonzero == 0) return "Data.IR is all zero (silent HRIRs)";
  return "";
}

}  // namespace

HrtfSet::HrtfSet(const std::string& path, double rate) : rate_(rate), path_(path) {
  if (!std::isfinite(rate) || rate <= 0.0)
    throw SignalError(path + ": rendering rate " + std::to_string(rate) + " Hz is not > 0");
  int err = 0;
  MYSOFA_HRTF* raw = mysofa_load(path.c_str(), &err);
  if (raw == nullptr || err != MYSOFA_OK || raw->DataSamplingRate.elements < 1) {
    if (raw != nullptr) mysofa_free(raw);
    throw SignalError(path + ": not a SOFA HRTF file libmysofa can read (error " +
                      std::to_string(err) + ")");
  }
  const std::string bad = hrir_defect(*raw);
  file_rate_ = raw->DataSamplingRate.values[0];
  mysofa_free(raw);
  if (!bad.empty()) throw SignalError(path + ": " + bad + " (a SOFA HRIR set is needed)");
  // Opened at the file's own rate: the resampling is ours (audio/resample.hpp).
  easy_ = mysofa_open(path.c_str(), static_cast<float>(file_rate_), &length_, &err);
  if (easy_ == nullptr || err != MYSOFA_OK || length_ <= 0)
    throw SignalError(path + ": libmysofa cannot prepare the HRTF set (error " +
                      std::to_string(err) + ")");
}

HrtfSet::~HrtfSet() {
  if (easy_ != nullptr) mysofa_close(easy_);
}

HrirPair HrtfSet::at(double x, double y, double z) {
  std::vector<float> left(static_cast<std::size_t>(length_)), right(left.size());
  float delay_left = 0.0f, delay_right = 0.0f;
  mysofa_getfilter_float(easy_, static_cast<float>(x), static_cast<float>(y), static_cast<float>(z),
                         left.data(), right.data(), &delay_left, &delay_right);
  return {prepare(left, delay_left, file_rate_, rate_),
          prepare(right, delay_right, file_rate_, rate_)};
}

std::vector<std::vector<double>> render_binaural(const std::vector<std::vector<double>>& bformat,
                                                 HrtfSet& hrtf) {
  if (bformat.size() != 4) throw SignalError("binaural rendering needs 4 B-format channels");
  const std::size_t n = bformat[0].size();
  const double weight = std::sqrt(3.0);  // 3 (SN3D, regular layout) times the max-rE 1/sqrt(3)
  std::vector<HrirPair> hrir;
  std::size_t taps = 0;
  for (const auto& u : speaker_directions()) {
    hrir.push_back(hrtf.at(u[0], u[1], u[2]));
    taps = std::max({taps, hrir.back().left.size(), hrir.back().right.size()});
  }
  std::vector<std::vector<double>> ears(2, std::vector<double>(n + taps - 1, 0.0));
  const auto dirs = speaker_directions();
  for (int i = 0; i < kSpeakers; ++i) {
    const auto& u = dirs[i];
    std::vector<double> feed(n);
    for (std::size_t t = 0; t < n; ++t)  // W Y Z X
      feed[t] = (bformat[0][t] +
                 weight * (u[0] * bformat[3][t] + u[1] * bformat[1][t] + u[2] * bformat[2][t])) /
                kSpeakers;
    convolve_add(feed, hrir[i].left, ears[0]);
    convolve_add(feed, hrir[i].right, ears[1]);
  }
  return ears;
}

}  // namespace sphreverb
