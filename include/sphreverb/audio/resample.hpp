// Band-limited sample-rate conversion through libsoxr (its very-high-quality, linear-phase
// recipe). Measured accuracy for 48 -> 44.1 kHz and 22.05 -> 44.1 kHz: docs/audio.md.
#pragma once

#include "sphreverb/audio/signal.hpp"

namespace sphreverb {

// Resamples `in` to `rate` Hz: n_out = round(n_in rate / in.rate) samples, output sample j at
// time j / rate, so sample 0 of both lies at t = 0 and nothing is delayed. Samples outside the
// input count as 0. Linear phase; flat within 1e-5 dB up to 0.8 of the lower Nyquist frequency,
// -3 dB near 0.95 of it; aliases and images below -150 dB. Identity (a copy) when the rates are
// equal. Throws SignalError for a rate that is not finite and > 0.
Signal resample(const Signal& in, double rate);

}  // namespace sphreverb
