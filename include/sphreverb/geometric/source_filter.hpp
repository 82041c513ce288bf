// The source spectrum of the geometric part: the SPH emitter's drive high-pass.
//
// The SPH disc on a wall radiates as a baffled piston, its pressure following the disc's own
// acceleration (model/emitter.hpp), and with the acceleration drive that is the input A high-
// passed by the drive's leaky integrators, X / A = 1 / (s + w_c)^2, w_c = 2 pi highpass: the disc
// acceleration s^2 X = A s^2 / (s + w_c)^2 (2nd order, critically damped; -6 dB at the corner,
// -4.6 dB at 1.2 and -1.4 dB at 2.4 times it, phase 180 deg at DC falling to 90 deg at the corner
// and 0 far above). A monopole's volume velocity passes through the same drive at its own
// `highpass` (solver/assembly.hpp). The image sources and ray histograms are those of a flat
// point source; passing the synthesised response through the same filter gives the geometric
// part the SPH part's source spectrum, so that the calibration in the overlap octave and the
// early / late comparison (hybrid.hpp) compare like with like.
//
// The filter is the emitter's own discrete one: an EmitterDrive (acceleration drive, unit
// deflection per fs^2) run at the response's sample rate (dt = 1 / rate, trapezoid rule, i.e.
// the bilinear transform: at 250 Hz and 44.1 kHz its warping is below 1e-3 in frequency up to a
// few kHz), read as the disc's acceleration d^2X/dt^2 = A - w_c V - w_c dX/dt from its state,
// and advanced by the drive's one-sample delay so that the output is causal and not delayed.
#pragma once

#include <vector>

namespace sphreverb {

// x (any units, at `rate` Hz) through the acceleration drive's high-pass at `highpass` Hz: the
// disc acceleration for the input acceleration x, same length, same units. highpass = 0: x
// unchanged. Requires rate > 0, highpass >= 0.
std::vector<double> drive_highpass(const std::vector<double>& x, double rate, double highpass);

}  // namespace sphreverb
