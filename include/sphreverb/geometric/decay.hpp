// Reverberation from energy decays: Schroeder's backward integral, T30 from it (ISO 3382-1: the
// line fitted between -5 and -35 dB, extrapolated to 60 dB), and Eyring's formula as reference.
#pragma once

#include <vector>

namespace sphreverb {

// The energy decay curve in dB: 10 log10(sum_{j >= i} e_j / sum_j e_j); -inf past the last
// non-zero value.
std::vector<double> schroeder_db(const std::vector<double>& energy);

// T30 (s) of an energy sequence at spacing dt (s): least-squares line through the EDC between
// -5 and -35 dB, times 60 / its slope. 0 when the EDC does not reach -35 dB.
double t30(const std::vector<double>& energy, double dt);

// The same fit between -5 dB and `lowest` dB (< -5; -25 for T20, -35 for T30), times
// 60 / its slope; 0 when the EDC does not reach `lowest`.
double decay_time(const std::vector<double>& energy, double dt, double lowest);

// Eyring's reverberation time (s): T = 24 ln(10) V / (c (-S ln(1 - alpha) + 4 m V)), alpha the
// area-weighted mean absorption, m the air's energy decay rate (1/m; 0 = no air absorption).
double eyring_t60(double volume, double area, double mean_alpha, double air_rate,
                  double sound_speed);

}  // namespace sphreverb
