// Numerical dispersion of the SPH scheme: the phase speed falls below c0 as the wavelength
// approaches the kernel's support. The highest usable frequency of a run is where the phase-speed
// error reaches a tolerance: f_max = c0 / (PPW_tol dx), PPW = wavelength / dx.
//
// PPW_tol comes from the scheme's lattice dispersion relation (lattice_gradient.hpp): on the
// simple cubic lattice a plane wave along the unit vector n has c/c0 = k~/k with
//   k~ = -dx^3 sum_s (n.s) G(s) sin(k n.s),
// the symbol shared by continuity and momentum. The relation is evaluated along an axis, a face
// diagonal, a body diagonal and (2, 1, 0), and the worst direction sets PPW_tol (the corrected
// gradients are exact on the axes to an order the diagonals do not share at every h/dx). V1
// measures the relation (tests/validation: the measured c(f) follows it within 1 %).
#pragma once

#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/lattice_gradient.hpp"

namespace sphreverb {

// The phase-speed error (relative, |c - c0| / c0) at which f_max is placed.
// 1.5 %: the V1 pass threshold of docs/validation.md (and V4's for modes at >= 30 PPW).
inline constexpr double kFmaxPhaseError = 0.015;

// Spacings per wavelength below which a force wall (a tethered layer: the emitter, boundaries,
// an absorbing room) is not trusted: measured in the V6 tube at 1 cm with the fourth-order
// gradient, a rigid force wall's alpha stays within 0.05 (1/3-octave means) up to 1.6 kHz
// (c / (21 dx)); it was not measured above c / (20 dx). Tethered layers also ring near their
// resonance 0.5 / dt_cfl (3-3.5 kHz at 1.5 cm), which the output low-pass at f_max removes.
inline constexpr double kForceWallPpw = 20.0;

// c/c0 - 1 of the semi-discrete scheme for a plane wave of `ppw` spacings per wavelength along
// direction n (need not be normalised).
double lattice_phase_error(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                           double ppw, const double (&n)[3]);

// Largest points per wavelength, scanning from 60 down to 2, at which |c/c0 - 1| first reaches
// `tolerance` in the worst of the four directions; 60 if it is reached at 60 already.
double ppw_for_phase_error(GradientCorrection correction, KernelKind kernel, double h_over_dx,
                           double tolerance);

// Symbol of the SPH Laplacian L(f)_i = 2 dx^3 sum_j (f_i - f_j) F_ij (interactions.hpp) on the
// lattice, in units of 1/dx^2: lambda(k) = 2 sum_s (1 - cos(k.s)) F(s) for the wavevector k dx
// (radians per spacing). Negative; about -(k dx)^2 for small k.
double laplacian_symbol(KernelKind kernel, double h_over_dx, const double (&k_dx)[3]);
// The largest |lambda| over the zone's corners (pi,0,0), (pi,pi,0), (pi,pi,pi): it bounds the
// hyperdiffusion's rate eps c lambda^2 / dx.
double laplacian_symbol_max(KernelKind kernel, double h_over_dx);

}  // namespace sphreverb
