// Plane-wave reflection off a locally reacting wall of real normalised impedance zeta = Z/(rho0 c)
// (the resistive wall the SPH part builds from a normal-incidence absorption, physics/material.hpp
// eq. 3): at the angle of incidence theta from the wall's normal (Kuttruff, Room Acoustics, 5th
// ed., Eq. 2.36 with a locally reacting wall),
//
//     R(theta) = (zeta cos(theta) - 1) / (zeta cos(theta) + 1),                            (1)
//
// the pressure reflection factor: real, R(0) = sqrt(1 - alpha_n), negative below
// cos(theta) = 1 / zeta, -1 at grazing incidence. The energy a reflection removes is 1 - R^2;
// its average over a diffuse (cosine-weighted) incidence is the random-incidence (Paris)
// absorption alpha_st = int_0^1 (1 - R^2) 2 mu d mu, mu = cos(theta).
#pragma once

#include <algorithm>
#include <cmath>

namespace sphreverb {

// Eq. (1). zeta > 0; cos_theta = |cos| of the angle between the incident direction and the
// wall's normal, clamped to [0, 1].
inline double wall_reflection(double zeta, double cos_theta) {
  const double zc = zeta * std::clamp(std::abs(cos_theta), 0.0, 1.0);
  return (zc - 1.0) / (zc + 1.0);
}

}  // namespace sphreverb
