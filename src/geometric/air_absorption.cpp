// ISO 9613-1:1993: molar concentration of water vapour h from the relative humidity (Annex B),
// the relaxation frequencies of oxygen and nitrogen (eqs. 3, 4) and the attenuation (eq. 5).
#include "sphreverb/geometric/air_absorption.hpp"

#include <cmath>

namespace sphreverb {

double air_attenuation_db(double f, const AirState& air) {
  const double t = air.temperature + 273.15;  // K
  const double t0 = 293.15;                   // reference temperature, K
  const double t01 = 273.16;                  // triple-point isotherm, K
  const double pr = 101.325;                  // reference pressure, kPa
  const double pa_pr = air.pressure / pr;
  const double c = -6.8346 * std::pow(t01 / t, 1.261) + 4.6151;
  const double h = air.humidity * std::pow(10.0, c) / pa_pr;  // molar concentration, %
  const double fr_o = pa_pr * (24.0 + 4.04e4 * h * (0.02 + h) / (0.391 + h));
  const double fr_n = pa_pr * std::pow(t / t0, -0.5) *
                      (9.0 + 280.0 * h * std::exp(-4.170 * (std::pow(t / t0, -1.0 / 3.0) - 1.0)));
  const double f2 = f * f;
  return 8.686 * f2 *
         (1.84e-11 / pa_pr * std::sqrt(t / t0) +
          std::pow(t / t0, -2.5) * (0.01275 * std::exp(-2239.1 / t) / (fr_o + f2 / fr_o) +
                                    0.1068 * std::exp(-3352.0 / t) / (fr_n + f2 / fr_n)));
}

double air_energy_rate(double f, const AirState& air) {
  return air_attenuation_db(f, air) / (10.0 * std::log10(std::exp(1.0)));
}

BandValues air_energy_rates(const AirState& air) {
  BandValues m{};
  for (std::size_t b = 0; b < kGeoBandCount; ++b) m[b] = air_energy_rate(kGeoBands[b], air);
  return m;
}

}  // namespace sphreverb
