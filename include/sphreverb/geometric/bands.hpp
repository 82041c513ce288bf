// The octave bands of the geometric part: 125 Hz ... 8 kHz, seven centres, and the crossover
// edges between them (the geometric mean of neighbouring centres). Every per-band quantity of the
// geometric layer (absorption, air attenuation, energies) is a BandValues in this order.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace sphreverb {

inline constexpr std::size_t kGeoBandCount = 7;
inline constexpr std::array<double, kGeoBandCount> kGeoBands = {125.0,  250.0,  500.0, 1000.0,
                                                                2000.0, 4000.0, 8000.0};
using BandValues = std::array<double, kGeoBandCount>;

// The six edges sqrt(f_k f_{k+1}) between the bands (Hz): 176.8 ... 5657 Hz. Band 0 reaches down
// to 0 Hz and band 6 up to the Nyquist frequency in the filter bank (audio/crossover.hpp).
std::vector<double> geo_band_edges();

// Wall material of the geometric part: random-incidence (statistical) absorption per band, the
// wall's real normalised impedance per band where it is known, and one scattering coefficient
// (the fraction of reflected energy sent in a Lambert direction). In a band with impedance > 0
// a reflection at the angle theta has the pressure factor R(theta) of wall_reflection.hpp (the
// image sources) and removes 1 - R(theta)^2 of the energy (the rays), `absorption` being that
// wall's random-incidence value; with impedance 0 it removes `absorption` at every angle.
struct GeoMaterial {
  BandValues absorption{};  // in [0, 1]
  double scattering = 0.0;  // in [0, 1]
  BandValues impedance{};   // zeta = Z / (rho0 c), real, >= 1; 0: angle-independent absorption
};

}  // namespace sphreverb
