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
// of image_sources.hpp. With source_highpass > 0 the sum then passes through the emitter's drive
// high-pass (source_filter.hpp), the spectrum of the SPH source, and the band energies are those
// times the filter's |H|^2.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/geometric/image_sources.hpp"
#include "sphreverb/geometric/ray_tracer.hpp"

namespace sphreverb {

struct SynthesisParams {
  double rate = 44100.0;    // Hz
  std::size_t samples = 0;  // response length
  double bin_width = 1e-3;  // s, of the energy histogram
  std::uint64_t seed = 1;
  // Hz, >= 0: the source's drive high-pass (source_filter.hpp), applied to every synthesised
  // channel; 0 = a flat point source.
  double source_highpass = 0.0;
};

// `energy[b]` are the histogram bins of band b (any count; bins past the response are ignored).
// Taps at or after `samples` are dropped.
std::vector<double> synthesize_response(const std::vector<ImageSource>& taps,
                                        const std::vector<std::vector<double>>& energy,
                                        const SynthesisParams& p);

// First-order B-format (ambiX: ACN W Y Z X, SN3D) of the same response: channel 0 (W) is
// synthesize_response's result, sample for sample. A component a (x, y, z) of the direction u a
// sound comes from (unit, from the receiver towards the image or back along the ray) weights
// it: a tap adds amplitude u_a, so a single arrival gives (W, Y, Z, X) = A (1, u_y, u_z, u_x).
// The tail of bin k (energy E, moments M_a = sum e u_a, Q_a = sum e u_a^2 from the ray tracer,
// `moments[b][k]`) is, in axis a,
//     w[n] M_a / sqrt(E n_k) + v_a[n] sqrt((Q_a - M_a^2 / E) / n_k),
// w the W noise and v_a an independent +-1 stream per axis: over the bin, in expectation,
// sum W a = M_a (the energy-weighted mean arrival direction, i.e. the active intensity) and
// sum a^2 = Q_a (the spread of the arrivals over the axis: E / 3 in a diffuse field, E u_a^2
// for one direction).
// Correlations between the axes' residuals (the off-diagonal second moments) are not kept.
std::vector<std::vector<double>> synthesize_bformat(
    const std::vector<ImageSource>& taps, const std::vector<std::vector<double>>& energy,
    const std::vector<std::vector<BinMoments>>& moments, const SynthesisParams& p);

}  // namespace sphreverb
