// Atmospheric absorption of sound, ISO 9613-1:1993, eqs. (3)-(5) and (B.1)-(B.3): the pure-tone
// attenuation coefficient of air at a frequency, temperature, relative humidity and pressure.
#pragma once

#include "sphreverb/geometric/bands.hpp"

namespace sphreverb {

struct AirState {
  double temperature = 20.0;  // degrees Celsius
  double humidity = 50.0;     // relative humidity, %
  double pressure = 101.325;  // kPa
};

// Attenuation coefficient alpha in dB/m at `frequency` Hz (ISO 9613-1 eq. 5).
double air_attenuation_db(double frequency, const AirState& air);

// The same as the energy decay rate m in 1/m: intensity ~ exp(-m d), m = alpha / (10 log10 e).
// Eyring's formula with air absorption adds 4 m V to the absorption area.
double air_energy_rate(double frequency, const AirState& air);

// m at the centres of the geometric bands.
BandValues air_energy_rates(const AirState& air);

}  // namespace sphreverb
