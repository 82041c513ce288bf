#include "sphreverb/geometric/synthesis.hpp"

#include <algorithm>
#include <cmath>

#include "sphreverb/audio/filters.hpp"
#include "sphreverb/geometric/counter_rng.hpp"

namespace sphreverb {
namespace {

// x through a Butterworth filter of order kSplitOrder forwards and then backwards: zero phase,
// magnitude |B|^2. A low- and a high-pass at one cut-off are power complementary (bilinear
// transform, pre-warped), so their zero-phase versions sum to the input.
constexpr int kSplitOrder = 4;

void forward_backward(std::vector<double>& x, double rate, double cutoff, bool high) {
  Signal s{rate, std::move(x)};
  for (int pass = 0; pass < 2; ++pass) {
    s = high ? butterworth_highpass(s, cutoff, kSplitOrder)
             : butterworth_lowpass(s, cutoff, kSplitOrder);
    std::reverse(s.samples.begin(), s.samples.end());
  }
  x = std::move(s.samples);
}

// Band `band` of the zero-phase tree at `edges`: HP(e_0) ... HP(e_{band-1}) LP(e_band); the bands
// sum to the input. Padded with `pad` zeros on both sides while filtering.
std::vector<double> split_band(const std::vector<double>& in, double rate,
                               const std::vector<double>& edges, std::size_t band,
                               std::size_t pad) {
  std::vector<double> x(pad, 0.0);
  x.insert(x.end(), in.begin(), in.end());
  x.resize(x.size() + pad, 0.0);
  for (std::size_t e = 0; e < band; ++e) forward_backward(x, rate, edges[e], true);
  if (band < edges.size()) forward_backward(x, rate, edges[band], false);
  return {x.begin() + static_cast<std::ptrdiff_t>(pad),
          x.begin() + static_cast<std::ptrdiff_t>(pad + in.size())};
}

}  // namespace

std::vector<double> synthesize_response(const std::vector<ImageSource>& taps,
                                        const std::vector<std::vector<double>>& energy,
                                        const SynthesisParams& p) {
  const std::size_t n = p.samples;
  std::vector<std::size_t> bin_of(n);
  std::vector<std::size_t> count;
  for (std::size_t i = 0; i < n; ++i) {
    bin_of[i] = static_cast<std::size_t>(static_cast<double>(i) / p.rate / p.bin_width);
    if (bin_of[i] >= count.size()) count.resize(bin_of[i] + 1, 0);
    ++count[bin_of[i]];
  }
  std::vector<double> noise(n);
  for (std::size_t i = 0; i < n; ++i) noise[i] = (CounterRng(p.seed, i).next() >> 63) ? 1.0 : -1.0;
  const std::vector<double> edges = geo_band_edges();
  std::vector<double> out(n, 0.0);
  for (std::size_t b = 0; b < kGeoBandCount; ++b) {
    std::vector<double> s(n, 0.0);
    for (const ImageSource& tap : taps) {
      const auto i = static_cast<std::size_t>(std::llround(tap.delay * p.rate));
      if (i < n) s[i] += tap.amplitude[b];
    }
    if (b < energy.size()) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = bin_of[i];
        if (k < energy[b].size() && energy[b][k] > 0.0)
          s[i] += noise[i] * std::sqrt(energy[b][k] / static_cast<double>(count[k]));
      }
    }
    const std::vector<double> band = split_band(s, p.rate, edges, b, 8192);
    for (std::size_t i = 0; i < n; ++i) out[i] += band[i];
  }
  return out;
}

}  // namespace sphreverb
