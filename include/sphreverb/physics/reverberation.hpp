// Diffuse-field reverberation times of a closed room from its surfaces' absorption, per octave
// band (kOctaveBands, material.hpp). Air absorption is not included.
//
//     Sabine:  T60 = 24 ln(10) V / (c A),                 A = sum_i S_i alpha_i            (1)
//     Eyring:  T60 = 24 ln(10) V / (-c S ln(1 - a)),      a = A / S, S = sum_i S_i         (2)
//
// (Kuttruff, Room Acoustics, 5th ed., Eqs. 5.24 and 5.26; 24 ln 10 = 55.26, so (1) is the familiar
// 0.161 V / A at c = 343 m/s.) alpha_i is a random-incidence ("statistical") coefficient. The
// input is any list of surfaces with an area and per-band coefficients, whatever shape they come
// from (box faces, plates, triangle meshes).
#pragma once

#include <array>
#include <span>

#include "sphreverb/physics/material.hpp"

namespace sphreverb {

struct AbsorbingSurface {
  double area = 0.0;                 // m^2 exposed to the room's air (both sides counted)
  std::array<double, 6> alpha_st{};  // random-incidence absorption at kOctaveBands, [0, 1]
};

struct Reverberation {
  double volume = 0.0;                 // m^3
  double area = 0.0;                   // m^2, S
  std::array<double, 6> mean_alpha{};  // a = A / S per band
  std::array<double, 6> sabine{};      // s, eq. (1); +inf where A = 0
  std::array<double, 6> eyring{};      // s, eq. (2); +inf where a = 0, 0 where a = 1
};

// Eqs. (1) and (2) for a room of air volume `volume` (m^3) and sound speed c (m/s).
Reverberation diffuse_field_t60(double volume, std::span<const AbsorbingSurface> surfaces,
                                double c);

// Paris' random-incidence coefficient of the locally reacting wall with a real normalised
// impedance zeta >= 1 whose normal-incidence coefficient is alpha_n (the "hard" branch of
// material.hpp's eq. (3)), as postproc's report computes it; 0 stays 0, alpha_n >= 1 is zeta = 1.
double random_incidence_absorption(double alpha_n);

// Its inverse on the same branch: the normal-incidence coefficient of the locally reacting wall
// with the real normalised impedance zeta >= 1.6 (resistance_ratio_for_statistical, material.hpp)
// whose random-incidence coefficient is alpha_st; 0 stays 0, alpha_st at or above
// kMaxStatisticalAbsorption gives that maximum's alpha_n (0.951).
double normal_incidence_absorption(double alpha_st);

}  // namespace sphreverb
