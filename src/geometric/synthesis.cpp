#include "sphreverb/geometric/synthesis.hpp"

#include <cmath>

#include "sphreverb/audio/crossover.hpp"
#include "sphreverb/geometric/counter_rng.hpp"

namespace sphreverb {

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
    const std::vector<double> band = zero_phase_band(s, p.rate, edges, static_cast<int>(b));
    for (std::size_t i = 0; i < n; ++i) out[i] += band[i];
  }
  return out;
}

}  // namespace sphreverb
