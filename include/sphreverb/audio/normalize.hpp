// The seed's normalisation of a receiver's signal for the 16-bit WAV.
#pragma once

#include <vector>

namespace sphreverb {

// Removes the mean (DC) and scales so the peak magnitude is 1; an all-zero or constant signal
// becomes all zeros (what is left of a constant is rounding noise, not signal).
std::vector<double> remove_dc_and_normalize(const std::vector<double>& x);

}  // namespace sphreverb
