// Equations of state for air: gauge pressure p' (Pa) as a function of density rho (kg/m^3), so
// that p'(rho0) = 0 and the lattice at rest feels no force. The momentum equation may add a
// constant background pressure (FluidSpec::background_pressure) on top.
//
//  Linear     p' = c0^2 (rho - rho0)                            (linear acoustics)
//  IdealGas   p' = p0 ((rho/rho0)^gamma - 1),  p0 = rho0 c0^2 / gamma
//             (adiabatic ideal gas; the seed's "ideal gas" EOS, written as a deflection)
#pragma once

#include <cmath>

namespace sphreverb {

// Scene names "linear", "ideal_gas".
enum class EosKind { Linear, IdealGasAdiabatic };

struct Eos {
  EosKind kind = EosKind::Linear;
  double rho0 = 1.204;  // kg/m^3
  double c0 = 343.0;    // m/s
  double gamma = 1.4;

  double pressure(double rho) const {
    if (kind == EosKind::Linear) return c0 * c0 * (rho - rho0);
    const double p0 = rho0 * c0 * c0 / gamma;
    return p0 * (std::pow(rho / rho0, gamma) - 1.0);
  }
  // Local sound speed c = sqrt(dp/drho).
  double sound_speed(double rho) const {
    if (kind == EosKind::Linear) return c0;
    return c0 * std::pow(rho / rho0, 0.5 * (gamma - 1.0));
  }
};

}  // namespace sphreverb
