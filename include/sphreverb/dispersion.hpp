// Numerical dispersion of the SPH scheme: the phase speed falls below c0 as the wavelength
// approaches the kernel's support. The highest usable frequency of a run is where the measured
// phase-speed error reaches a tolerance: f_max = c0 / (PPW_tol dx), PPW = wavelength / dx.
//
// The table behind ppw_for_phase_error() is measured, not derived: validation case V1 (a plane
// pulse in a rigid duct, phase speed from the cross-spectrum of two receivers,
// postproc/validate_dispersion.py) at dx = 1 cm for each kernel and h/dx listed in
// src/dispersion.cpp. Between the measured h/dx values the PPW is interpolated linearly; outside
// them it is clamped to the nearest end (and the README says so).
#pragma once

#include "sphreverb/scene.hpp"

namespace sphreverb {

// The phase-speed error (relative, |c - c0| / c0) at which f_max is placed.
// 1.5 %: the V1 pass threshold of VALIDATION.md (and V4's for modes at >= 30 PPW).
inline constexpr double kFmaxPhaseError = 0.015;

// Points (particle spacings) per wavelength at which the measured |phase-speed error| of
// `kernel` at `h_over_dx` reaches `tolerance`. Only tolerance == kFmaxPhaseError is tabulated;
// other values throw std::invalid_argument.
double ppw_for_phase_error(KernelKind kernel, double h_over_dx, double tolerance);

}  // namespace sphreverb
