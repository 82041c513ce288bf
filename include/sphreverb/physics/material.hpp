// Wall materials given by their absorption coefficient: the mapping from a normal-incidence
// absorption coefficient alpha (one broadband value or six octave bands, 125 Hz ... 4 kHz) to the
// parameters of the tethered force wall (boundary.hpp), and the plane-wave formulas behind it.
//
// The tethered wall is a locally reacting, single-degree-of-freedom impedance per unit area:
//
//     Z(w) = R + j (w M - K / w),        zeta = Z / (rho0 c)                         (1)
//
// R the damper (Pa s/m), K the spring (Pa/m), M = M_layer + M_add the moving areal mass (kg/m^2):
// the tethered air layer itself, M_layer = n_t rho0 dx (n_t lattice layers lie within the tether
// zone h of the wall), plus an optional added mass. At normal incidence (Kuttruff, Room
// Acoustics, 5th ed., Eq. 2.12/2.13):
//
//     r = (zeta - 1) / (zeta + 1),       alpha = 1 - |r|^2                                (2)
//
// and at an angle theta (locally reacting) zeta -> zeta cos(theta); the random-incidence
// ("statistical", Paris) coefficient is alpha_st = int_0^{pi/2} alpha(theta) sin(2 theta) dtheta
// (Kuttruff Eq. 2.42). For real zeta it is closed-form (8/zeta^2)[zeta - 2 ln(1+zeta) +
// zeta/(1+zeta)], at most 0.951 (zeta = 1.6).
//
// A broadband alpha maps to a resistive wall on the "hard" branch zeta >= 1 (a wall denser than
// air; the soft branch zeta < 1 would be a pressure-release surface that turns the room's modes
// upside down):
//
//     zeta = (1 + sqrt(1 - alpha)) / (1 - sqrt(1 - alpha)),    R = zeta rho0 c                (3)
//
// with a weak spring K = 0.02 rho0 c w_lo (its reactance is 2 % of rho0 c at the lowest band
// edge f_lo = 88 Hz, it only holds the layer's mean position) and no added mass. Band values are
// fitted by (1) with R, K, M free (least squares in alpha at the six band centres): this one
// resonator covers porous layers (alpha rising with frequency: stiffness-controlled below), panel
// absorbers (a resonance) and flat absorbers; it cannot follow a band curve with more than one
// extremum (the fit's residual is reported).
#pragma once

#include <array>
#include <complex>

namespace sphreverb {

// Octave-band centres of `absorption_bands`, Hz.
inline constexpr std::array<double, 6> kOctaveBands = {125.0, 250.0, 500.0, 1000.0, 2000.0, 4000.0};
// Lowest band edge f_lo = 125 / sqrt(2) Hz: the weak spring of eq. (3) is set there.
inline constexpr double kLowestBandEdge = 88.388347648318;

// Parameters of the wall per unit area (the values the tethers act with are these divided among
// the tethered layers, see WallModel::per_tether).
struct WallImpedance {
  double resistance = 0.0;  // R, Pa s/m
  double mass = 0.0;        // M, kg/m^2, the total moving mass (tethered air layer included)
  double stiffness = 0.0;   // K, Pa/m

  // Z(w) of eq. (1), Pa s/m.
  std::complex<double> at(double omega) const;
};

// Eq. (2): normal-incidence absorption of a normalised impedance zeta = Z / (rho0 c).
double normal_absorption(std::complex<double> zeta);
// Random-incidence (Paris) absorption of a locally reacting zeta, by Gauss-Legendre quadrature.
double statistical_absorption(std::complex<double> zeta);
// Eq. (3): the real zeta >= 1 with normal_absorption(zeta) = alpha, alpha in [0, 1).
double hard_resistance_ratio(double alpha);
// The real zeta >= 1.6 with statistical_absorption(zeta) = alpha_st, alpha_st in [0, 0.951]
// (tables quote random-incidence values; values above the maximum are clamped to it).
double resistance_ratio_for_statistical(double alpha_st);
inline constexpr double kMaxStatisticalAbsorption = 0.9510;

// A fit of eq. (1) to octave-band normal-incidence coefficients.
struct BandFit {
  WallImpedance wall;
  std::array<double, 6> fitted{};  // alpha of the fitted wall at the band centres
  double rms_error = 0.0;          // root mean square of (fitted - given) over the bands
};

// Least-squares fit of R, K, M (M >= layer_mass) to `alpha` at kOctaveBands. rho_c = rho0 c.
// The resonance sqrt(K/M) / (2 pi) stays below f0_max (Hz): the solver passes 0.5 / (2 pi dt_cfl),
// so a fitted wall never needs more substeps than the CFL bound.
BandFit fit_bands(const std::array<double, 6>& alpha, double rho_c, double layer_mass,
                  double f0_max = 2e4);

// The wall for one broadband alpha, eq. (3). layer_mass = n_t rho0 dx.
WallImpedance wall_for_absorption(double alpha, double rho_c, double layer_mass);

// Number of lattice layers within the tether zone: sites at (k + 1/2) dx from the wall with
// (k + 1/2) dx < h, i.e. ceil(h/dx - 1/2) (1 for h = 1.3 dx).
int tethered_layers(double h_over_dx);

}  // namespace sphreverb
