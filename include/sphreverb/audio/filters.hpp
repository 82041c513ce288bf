// The filters that turn a receiver's per-step record into audio: a causal Butterworth low-pass
// (removes the band above the resolution's highest usable frequency) and a zero-phase
// windowed-sinc low-pass with decimation (anti-aliasing down to the output rate).
#pragma once

#include "sphreverb/audio/signal.hpp"

namespace sphreverb {

// Low-pass (windowed-sinc FIR, Kaiser window, zero phase: the output is not delayed) at `cutoff`
// Hz, the half-amplitude point, and keep every `factor`-th sample, starting with sample 0:
// out[k] = lowpassed[k * factor]; out.rate = in.rate / factor. Unit gain at DC, flat within
// 1e-4 dB up to 0.85 cutoff, -3 dB at 0.983 cutoff, below -100 dB from 1.12 cutoff up (measured,
// tests/unit/audio/test_filters.cpp); samples outside the input count as 0. factor = 1 still
// filters.
// Requires in.rate > 0, factor >= 1, 0 < cutoff < in.rate / 2 (else SignalError).
Signal lowpass_decimate(const Signal& in, int factor, double cutoff);

// Causal Butterworth low-pass of even `order` (2, 4, 6, 8) at `cutoff` Hz, as cascaded biquads
// from the bilinear transform (cut-off pre-warped): -3 dB at the cut-off, no pre-ringing (the
// response starts with the input), group delay ~ order / (4 pi cutoff) at low frequencies.
// Requires 0 < cutoff < in.rate / 2 (else SignalError).
Signal butterworth_lowpass(const Signal& in, double cutoff, int order);

// s, the group delay of butterworth_lowpass(., cutoff, order) at `rate` Hz at the frequency f
// (Hz, below rate / 2): the analog prototype's, sum over its poles p = cutoff' (sigma + i beta)
// of -sigma / ((w / cutoff' - beta)^2 + sigma^2) / cutoff', at the pre-warped frequency w and
// cut-off cutoff' of the bilinear transform, times its derivative dw'/dw = 1 / cos^2(pi f / rate).
double butterworth_group_delay(double f, double cutoff, int order, double rate);

// Causal (minimum-phase) Butterworth high-pass of even `order` (2, 4, 6, 8) at `cutoff` Hz: the
// same cascade with each section the bilinear-transform high-pass biquad. -3 dB at the cut-off,
// 6 order dB/octave below it, zero gain at DC; the output is 0 until the input starts (nothing
// before an onset). Order 4 at 20 Hz: -24 dB at 10 Hz, -0.017 dB at 40 Hz, |group delay| under
// 0.4 ms from 50 Hz and under 0.01 ms (0.4 samples at 44.1 kHz) from 1 kHz up.
// Requires 0 < cutoff < in.rate / 2 (else SignalError).
Signal butterworth_highpass(const Signal& in, double cutoff, int order);

}  // namespace sphreverb
