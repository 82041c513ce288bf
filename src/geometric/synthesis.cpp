#include "sphreverb/geometric/synthesis.hpp"

#include <algorithm>
#include <cmath>

#include "sphreverb/audio/filters.hpp"
#include "sphreverb/geometric/counter_rng.hpp"
#include "sphreverb/geometric/source_filter.hpp"

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

// The response's samples grouped by histogram bin: bin[i] and the sample count per bin.
struct BinMap {
  std::vector<std::size_t> bin, count;
};

BinMap bin_map(const SynthesisParams& p) {
  BinMap m;
  m.bin.resize(p.samples);
  for (std::size_t i = 0; i < p.samples; ++i) {
    m.bin[i] = static_cast<std::size_t>(static_cast<double>(i) / p.rate / p.bin_width);
    if (m.bin[i] >= m.count.size()) m.count.resize(m.bin[i] + 1, 0);
    ++m.count[m.bin[i]];
  }
  return m;
}

// +-1 per sample from CounterRng(key, i).
std::vector<double> sign_noise(std::uint64_t key, std::size_t n) {
  std::vector<double> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = (CounterRng(key, i).next() >> 63) ? 1.0 : -1.0;
  return w;
}

// The stream of the part of axis a's tail that is uncorrelated with W.
std::uint64_t residual_key(std::uint64_t seed, std::size_t axis) {
  return splitmix64(seed ^ (0xA5A5A5A5A5A5A5A5ULL + axis));
}

// Sums the bands of the per-band signals `band_signal(b)` through the zero-phase tree.
template <class BandSignal>
std::vector<double> split_and_sum(const SynthesisParams& p, BandSignal band_signal) {
  const std::vector<double> edges = geo_band_edges();
  std::vector<double> out(p.samples, 0.0);
  for (std::size_t b = 0; b < kGeoBandCount; ++b) {
    const std::vector<double> band = split_band(band_signal(b), p.rate, edges, b, 8192);
    for (std::size_t i = 0; i < p.samples; ++i) out[i] += band[i];
  }
  return drive_highpass(out, p.rate, p.source_highpass);
}

// Band b's taps, each amplitude times weight(tap).
template <class Weight>
void add_taps(std::vector<double>& s, const std::vector<ImageSource>& taps, std::size_t b,
              const SynthesisParams& p, Weight weight) {
  for (const ImageSource& tap : taps) {
    const auto i = static_cast<std::size_t>(std::llround(tap.delay * p.rate));
    if (i < s.size()) s[i] += tap.amplitude[b] * weight(tap);
  }
}

}  // namespace

std::vector<double> synthesize_response(const std::vector<ImageSource>& taps,
                                        const std::vector<std::vector<double>>& energy,
                                        const SynthesisParams& p) {
  const std::size_t n = p.samples;
  const BinMap bins = bin_map(p);
  const std::vector<double> noise = sign_noise(p.seed, n);
  return split_and_sum(p, [&](std::size_t b) {
    std::vector<double> s(n, 0.0);
    add_taps(s, taps, b, p, [](const ImageSource&) { return 1.0; });
    if (b < energy.size()) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = bins.bin[i];
        if (k < energy[b].size() && energy[b][k] > 0.0)
          s[i] += noise[i] * std::sqrt(energy[b][k] / static_cast<double>(bins.count[k]));
      }
    }
    return s;
  });
}

std::vector<std::vector<double>> synthesize_bformat(
    const std::vector<ImageSource>& taps, const std::vector<std::vector<double>>& energy,
    const std::vector<std::vector<BinMoments>>& moments, const SynthesisParams& p) {
  const std::size_t n = p.samples;
  const BinMap bins = bin_map(p);
  const std::vector<double> noise = sign_noise(p.seed, n);
  std::vector<std::vector<double>> out;
  out.push_back(synthesize_response(taps, energy, p));  // W
  constexpr std::size_t kAxisOfAcn[3] = {1, 2, 0};      // ACN 1, 2, 3 = Y, Z, X
  for (std::size_t axis : kAxisOfAcn) {
    const std::vector<double> residual = sign_noise(residual_key(p.seed, axis), n);
    out.push_back(split_and_sum(p, [&](std::size_t b) {
      std::vector<double> s(n, 0.0);
      add_taps(s, taps, b, p,
               [axis](const ImageSource& t) { return t.direction[static_cast<int>(axis)]; });
      if (b < energy.size() && b < moments.size()) {
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t k = bins.bin[i];
          if (k >= energy[b].size() || k >= moments[b].size() || !(energy[b][k] > 0.0)) continue;
          const double e = energy[b][k], first = moments[b][k][axis];
          const double rest = std::max(0.0, moments[b][k][3 + axis] - first * first / e);
          const double nk = static_cast<double>(bins.count[k]);
          s[i] += noise[i] * first / std::sqrt(e * nk) + residual[i] * std::sqrt(rest / nk);
        }
      }
      return s;
    }));
  }
  return out;
}

}  // namespace sphreverb
