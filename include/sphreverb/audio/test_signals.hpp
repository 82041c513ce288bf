// The built-in inputs of the emitter (`[emitter] input = impulse | sweep`).
#pragma once

#include "sphreverb/audio/signal.hpp"

namespace sphreverb {

// Both last round(duration * rate) samples, at least one; throw SignalError unless rate > 0 and
// duration >= 0 (both finite).

// A single-sample click: s[0] = 1, zero after.
Signal make_impulse(double rate, double duration);

// Exponential sine sweep from f0 to f1 Hz (both in (0, rate/2]) over the whole duration T,
// amplitude 1 (Farina, AES 108th Convention, 2000, eq. 2):
//   s(t) = sin(2 pi f0 T / L (exp(t L / T) - 1)),  L = ln(f1 / f0)  (f0 = f1: the tone f0),
// with raised-cosine fades of 5 ms (a quarter of T if shorter) at both ends.
Signal make_sweep(double rate, double duration, double f0, double f1);

}  // namespace sphreverb
