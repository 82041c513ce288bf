// The spherical-wave reflection factor of a locally reacting plane (Chien & Soroka, J. Sound
// Vib. 43, 9 (1975); Attenborough, Li & Horoshenkov, "Predicting Outdoor Sound", 2007, ch. 2):
// a point source's sound reflected by a plane of normalised impedance zeta, heard over a path of
// length r (source image to receiver) arriving at the angle theta from the normal, is the image's
// spherical wave times
//
//     Q = R + (1 - R) F(w),   R = (zeta cos(theta) - 1) / (zeta cos(theta) + 1),
//     w = sqrt(i k r / 2) (cos(theta) + 1 / zeta),   F(w) = 1 + i sqrt(pi) w W(w),
//
// W(w) = exp(-w^2) erfc(-i w) Faddeeva's function (libcerf), time convention exp(-i omega t).
// For a real zeta, w lies on the diagonal arg w = pi / 4 and F is a function of |w| alone: it is
// tabulated once from libcerf (cubic Hermite, error below 1e-8) and is its asymptotic series
// beyond |w| = 6.
// Far from grazing (|w| large) F -> 0 and Q -> R, the plane-wave factor (wall_reflection.hpp); at
// grazing incidence R = -1 while Q -> F(w), which tends to 1 when k r is small: the ground wave
// that a plane-wave factor misses. A rigid plane (zeta infinite, here zeta <= 0) has Q = 1.
#pragma once

#include <complex>

namespace sphreverb {

// Q above for real zeta > 0 (<= 0: rigid, Q = 1), cos_theta in [0, 1], kr = k r >= 0.
std::complex<double> spherical_reflection(double zeta, double cos_theta, double kr);

}  // namespace sphreverb
