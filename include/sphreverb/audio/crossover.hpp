// Linkwitz-Riley crossovers: complementary 4th-order low- and high-pass filters whose sum is an
// allpass (flat magnitude), and a band split built from them whose bands sum to an allpass too.
//
// LR4 = two cascaded 2nd-order Butterworth sections (Q = 1/sqrt(2)) from the bilinear transform
// with the cut-off pre-warped: -6 dB at the cut-off for both halves, 24 dB/octave slopes, and
// LP4(z) + HP4(z) = AP2(z) exactly (the analogue identity survives the bilinear map), so
// |LP4 + HP4| = 1 at every frequency. Causal (no pre-ringing), not linear phase.
#pragma once

#include <vector>

#include "sphreverb/audio/signal.hpp"

namespace sphreverb {

// LR4 low-pass / high-pass of `samples` at `cutoff` Hz (rate Hz). Requires 0 < cutoff < rate / 2
// (else SignalError).
std::vector<double> lr4_lowpass(const std::vector<double>& samples, double rate, double cutoff);
std::vector<double> lr4_highpass(const std::vector<double>& samples, double rate, double cutoff);
// LP4 + HP4 at `cutoff`: the allpass that the pair sums to.
std::vector<double> lr4_allpass(const std::vector<double>& samples, double rate, double cutoff);

// Band k of a split at the ascending crossover frequencies `edges` (K edges, K + 1 bands):
// band 0 = LP(e0), band k = LP(e_k) HP(e_{k-1}) ... HP(e0), band K = HP(e_{K-1}) ... HP(e0), and
// band k further passes the allpasses of every edge above it, so that the K + 1 bands of one
// input sum to AP(e0) ... AP(e_{K-1}) applied to it (flat magnitude). Edges must lie in
// (0, rate / 2) (else SignalError).
std::vector<double> lr4_band(const std::vector<double>& samples, double rate,
                             const std::vector<double>& edges, int band);

// Zero-phase band split: each crossover is a 2nd-order Butterworth pair run forwards and then
// backwards (magnitude |B2|^2: the LR4 magnitude, no phase). Butterworth filters are power
// complementary, |B2_lp|^2 + |B2_hp|^2 = 1, so low + high = the input at every frequency and
// band k = LPzp(e_k) HPzp(e_{k-1}) ... HPzp(e0) of the tree sums over the K + 1 bands to the
// input itself (to rounding, and up to the truncation of the IIR tails at the ends: the signal is
// padded with `pad` zeros on both sides while filtering). Non-causal: a band's impulse response
// rings symmetrically about the impulse.
std::vector<double> zero_phase_band(const std::vector<double>& samples, double rate,
                                    const std::vector<double>& edges, int band,
                                    std::size_t pad = 4096);

}  // namespace sphreverb
