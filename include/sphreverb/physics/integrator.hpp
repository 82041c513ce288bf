// Staggered leap-frog (symplectic Euler pair; the Yee scheme of linear acoustics):
//
//   v^{n+1/2} = v^{n-1/2} + dt a(x^n, rho^n, v^{n-1/2})          kick
//   rho^{n+1} = rho^n + dt drho/dt(x^n, v^{n+1/2})                 compress
//   x^{n+1}   = x^n + dt v^{n+1/2}                                 drift
//
// Second order, time-reversible without dissipation, stable for dt <= C h / c (C ~ 0.3-0.4 with
// h = 1.3 dx). Pure loops over the owned particles; no MPI.
#pragma once

#include <cmath>

#include "sphreverb/core/particles.hpp"

namespace sphreverb {

// v += dt a, then v *= exp(-damping dt) (stage 1's relaxation; damping = 0 in stage 2).
inline void kick(Particles& p, double dt, double damping) {
  const double keep = std::exp(-damping * dt);
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    p.vx[i] = (p.vx[i] + dt * p.ax[i]) * keep;
    p.vy[i] = (p.vy[i] + dt * p.ay[i]) * keep;
    p.vz[i] = (p.vz[i] + dt * p.az[i]) * keep;
  }
}

// rho += dt drho; x += dt v.
inline void compress_and_drift(Particles& p, double dt) {
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    p.rho[i] += dt * p.drho[i];
    p.x[i] += dt * p.vx[i];
    p.y[i] += dt * p.vy[i];
    p.z[i] += dt * p.vz[i];
  }
}

}  // namespace sphreverb
