// Joining the wave (SPH) response below a crossover frequency with the geometric response above
// it.
//
// Calibration: the geometric response is in the units of image_sources.hpp, the SPH one in Pa
// for the emitter's drive. The geometric response already carries the SPH source's drive
// high-pass (synthesis.hpp, source_filter.hpp); for the comparisons below it also passes through
// the SPH records' causal low-pass at f_max (record_lowpass), so that both have the same source
// spectrum and the same delay (0.49 ms of group delay at 858 Hz) when the split divides them. Both
// are band-passed to the overlap octave [crossover / 2, crossover] (band_energy: LR4 high-pass at
// crossover / 2 and low-pass at crossover, run forwards and then backwards, zero phase with 48
// dB/octave skirts, so that the slowly decaying low room modes of the SPH response below the octave
// do not leak into it) and their energies compared: the mismatch is 10 log10(E_geo / E_sph) (dB,
// before calibration) and the geometric response is scaled by g = sqrt(E_sph / E_geo). The same
// comparison over the early part [0, split) and the late part [split, end) of the responses, after
// calibration, says how far the two agree in time (0 dB each when the geometric part has the SPH
// part's decay in the overlap band). The split is `split` seconds, or (split = 0) the time at which
// the SPH response's overlap-band energy decay curve (Schroeder) has fallen 10 dB: early is the
// first 90 % of the SPH energy, late the last 10 %, whatever the room's reverberation time.
//
// The geometric response's diffuse part is noise scaled to the ray histograms
// (geometric/synthesis.hpp): one realisation's energy in the overlap octave over a window of T
// seconds scatters by about 1 / sqrt(B T) (B the octave's width), several dB over the early
// part of a small room at a few hundred Hz. The geometric energies of the calibration and of the
// early / late comparison are therefore the mean over several realisations of the geometric
// response (kCalibrationRealisations in the output writer): the same image sources and histograms
// with independent noise streams (realisation_seed), the expectation the ray model predicts
// rather than one draw of it. The full response joins the first realisation (`geo`).
//
// Crossover: full = LR4_lowpass(sph) + LR4_highpass(g geo) at the crossover: a Linkwitz-Riley
// pair, whose sum is an allpass, so where both parts agree the full response has the parts'
// magnitude (no dip or bump at the crossover), with the phase of a 2nd-order allpass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sphreverb {

struct HybridParams {
  double rate = 44100.0;   // Hz
  double crossover = 0.0;  // Hz, in (0, rate / 4)
  double split = 0.0;      // s, the early / late boundary of the comparison; 0 = the -10 dB time
  // Hz, >= 0: the causal Butterworth low-pass (order kRecordLowpassOrder) the SPH records carry
  // (io/output.hpp, at f_max); the geometric response passes through it for the calibration and
  // the early / late levels only (not for `full`). 0: none.
  double record_lowpass = 0.0;
};

// The order of the SPH records' low-pass at f_max (io/output.cpp).
inline constexpr int kRecordLowpassOrder = 4;

struct HybridResult {
  std::vector<double> full;  // the joined response, the SPH response's length
  double mismatch_db = 0.0;  // overlap octave, whole response, before calibration
  double gain = 1.0;         // g applied to the geometric response (1 when either is silent)
  double early_db = 0.0;     // 10 log10(g^2 E_geo / E_sph) over [0, split), after calibration
  double late_db = 0.0;      // the same over [split, end)
  double split = 0.0;        // s, the early / late boundary used
};

// Realisations of the geometric response the calibration averages over (the first included).
inline constexpr std::size_t kCalibrationRealisations = 16;

// The noise seed of realisation k of a response synthesised with `seed`: `seed` itself for k = 0,
// an independent stream for every k >= 1.
std::uint64_t realisation_seed(std::uint64_t seed, std::size_t k);

// `geo` is cut or zero-padded to sph's length; `more` holds further realisations of it (other
// noise, the same image sources and histograms), averaged with it for the calibration and the
// early / late levels; empty: `geo` alone.
HybridResult join_hybrid(const std::vector<double>& sph, std::vector<double> geo,
                         const HybridParams& p, const std::vector<std::vector<double>>& more = {});

// The join alone with a given gain: LR4_lowpass(sph) + LR4_highpass(gain geo) at p.crossover,
// `geo` cut or zero-padded to sph's length. join_hybrid's `full` is crossover_join with its
// `gain`, sample for sample; the other channels of a B-format response are joined with the
// omnidirectional channel's gain.
std::vector<double> crossover_join(const std::vector<double>& sph, std::vector<double> geo,
                                   double gain, const HybridParams& p);

// x band-passed to [lo, hi] Hz: LR4 high-pass at lo and low-pass at hi, run forwards and then
// backwards (zero phase, the LR4 magnitude squared), padded with zeros on both sides while
// filtering so that neither pass cuts the other's ringing. x's length.
std::vector<double> band_pass_zero_phase(const std::vector<double>& x, double rate, double lo,
                                         double hi);

// Energy of `x` in the octave [lo, hi] Hz (LR4 high-pass at lo, low-pass at hi, forwards and
// backwards: zero phase, the LR4 magnitude squared), summed over the samples [first, last).
double band_energy(const std::vector<double>& x, double rate, double lo, double hi,
                   std::size_t first, std::size_t last);

}  // namespace sphreverb
