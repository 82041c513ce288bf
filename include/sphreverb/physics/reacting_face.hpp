// The face element of a reacting mirror wall (mirror_walls.hpp): a locally reacting
// spring-mass-damper of impedance Z(w) = R + j (w M - K / w) per unit area (material.hpp eq. 1),
// driven by the pressure p on the face:
//
//     M dW/dt + R W + K X = p,        dX/dt = W,                                         (1)
//
// X (m) the face's outward displacement, W (m/s) its outward velocity. A face element is the
// first-layer particle a mirror image reflects (one state per face it is near).
//
// Time integration, once per step, staggered as the particles are (W at half steps, X and p at
// whole steps): over the step the force f = p^n - K X^n is held, and the damped mass follows it
// exactly,
//
//     W^{n+1/2} = e W^{n-1/2} + (1 - e) f / R,    e = exp(-R dt / M),                     (2)
//     X^{n+1}   = X^n + dt W^{n+1/2}.
//
// (R = 0: W^{n+1/2} = W^{n-1/2} + dt f / M.) The damper part is unconditionally stable (0 < e <= 1,
// no sign flip however large R dt / M); the spring is explicit, a leap-frog of the resonance
// w0 = sqrt(K/M), stable for w0 dt < 2. The band fit keeps w0 <= 0.5 / dt_cfl (material.hpp), so
// w0 dt <= 0.5. Without mass and spring (M -> 0, K = 0), (2) is W = p/R: the resistive face.
#pragma once

#include <cmath>

#include "sphreverb/physics/material.hpp"

namespace sphreverb {

class ReactingFaceStep {
 public:
  ReactingFaceStep() = default;
  // Pre: z.mass > 0, z.resistance >= 0, z.stiffness >= 0, dt > 0.
  ReactingFaceStep(const WallImpedance& z, double dt)
      : stiffness_(z.stiffness),
        dt_(dt),
        decay_(std::exp(-z.resistance * dt / z.mass)),
        gain_(z.resistance > 0.0 ? (1.0 - decay_) / z.resistance : dt / z.mass) {}

  // Eq. (2): advances (x, w) from (X^n, W^{n-1/2}) to (X^{n+1}, W^{n+1/2}) under p = p^n (Pa).
  void advance(double pressure, double& x, double& w) const {
    w = decay_ * w + gain_ * (pressure - stiffness_ * x);
    x += dt_ * w;
  }

  // The face's acceleration over the step eq. (2) takes from (X^n, W^{n-1/2}) under p = p^n (Pa):
  // (W^{n+1/2} - W^{n-1/2}) / dt = ((e - 1) W^{n-1/2} + (1 - e) (p - K X^n) / R) / dt, m/s^2.
  // For R dt / M -> 0 it is eq. (1)'s (p - R W - K X) / M; for R dt / M >> 1 (a stiff damper:
  // the band fit of a nearly rigid wall) the damped mass settles within the step, and the
  // acceleration stays that of W following p / R, where (p - R W^{n-1/2} - K X) / M would be
  // R dt / M times too large (walls.md, "Reacting ghost walls").
  double acceleration(double pressure, double x, double w) const {
    return ((decay_ - 1.0) * w + gain_ * (pressure - stiffness_ * x)) / dt_;
  }

 private:
  double stiffness_ = 0.0, dt_ = 0.0, decay_ = 1.0, gain_ = 0.0;
};

}  // namespace sphreverb
