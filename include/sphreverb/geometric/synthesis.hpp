// From image sources and energy histograms to a pressure response at an audio rate.
//
// Per octave band b a signal s_b holds
//   - each image source as a single-sample tap of its band amplitude at round(delay * rate)
//     (delays exact to half a sample), and
//   - the histogram's energy as white noise shaped by it: in bin k (the samples n with
//     floor(n / rate / bin_width) = k, n_k of them) s_b[n] += w[n] sqrt(E_b[k] / n_k), w[n] = +-1
//     from CounterRng(seed, n), the same w in every band (so equal band energies give white
//     noise again);
// and the response is sum_b Band_b(s_b), Band_b the zero-phase band split at the edges between
// the octaves: a tree of 4th-order Butterworth low- and high-passes, each run forwards and then
// backwards (magnitude |B4|^2, 48 dB/octave skirts; a low- and a high-pass at one edge are power
// complementary, so the bands sum to the input: a tap with equal amplitudes in every band stays a
// single sample, and delays are not shifted). The steep skirts keep each band's decay in its own
// octave: with 24 dB/octave skirts an octave analysis of the response picks up the slower decay
// of the band below (measured in the default room: 1 kHz T30 48 ms for a 33 ms histogram decay).
// Band 0 extends down to 0 Hz and band 6 (8 kHz) up to rate / 2. The expected energy of the
// result in band b is then the band share of sum(taps^2) + sum_k E_b[k], in the amplitude units
// of image_sources.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/geometric/image_sources.hpp"

namespace sphreverb {

struct SynthesisParams {
  double rate = 44100.0;    // Hz
  std::size_t samples = 0;  // response length
  double bin_width = 1e-3;  // s, of the energy histogram
  std::uint64_t seed = 1;
};

// `energy[b]` are the histogram bins of band b (any count; bins past the response are ignored).
// Taps at or after `samples` are dropped.
std::vector<double> synthesize_response(const std::vector<ImageSource>& taps,
                                        const std::vector<std::vector<double>>& energy,
                                        const SynthesisParams& p);

}  // namespace sphreverb
