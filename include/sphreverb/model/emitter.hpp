// The emitter's drive: the disc's displacement along its normal as a function of the step,
// computed on rank 0 from the input signal (Wolfe & Semwal Eq. 5/7: x_t = x_rest + k s_t).
//
//  displacement  X(t) = k s(t),        V = dX/dt, dV/dt (central differences over one step)
//  velocity      V(t) = k f_s s(t),    X = integral of V (trapezoid rule): a unit sample moves the
//                                      disc by k over one sample period; dV/dt the slope of V
//                                      over the step (central difference)
//  acceleration  A(t) = k f_s^2 s(t),  V, X integrated by the trapezoid rule through two leaky
//                                      integrators, dV/dt = A - w_c V and dX/dt = V - w_c X,
//                                      w_c = 2 pi highpass: X / A = 1 / (s + w_c)^2, so the disc's
//                                      own acceleration is A high-passed (2nd order, critically
//                                      damped) at `highpass` Hz and the disc returns to rest after
//                                      an impulse instead of drifting away at constant speed (a
//                                      loudspeaker's suspension). highpass = 0: pure integration.
//                                      The disc's acceleration dV/dt = A - 2 w_c V_l + w_c^2 X,
//                                      V_l the first integrator's output.
//
// What each radiates (measured, docs/theory/emitter-receivers.md): a disc on a wall is a baffled
// piston, a monopole whose pressure follows the disc's acceleration, so the acceleration drive is
// flat (0 dB/octave), velocity +6 and displacement +12 dB/octave; a free disc is a dipole,
// 6 dB/octave steeper still.
//
// s(t) is the input at the run's sample rate f_s, delayed by one sample (so the disc starts at
// rest) and interpolated linearly between samples at the sub-sample times of the steps.
#pragma once

#include <cstdint>

#include "sphreverb/audio/signal.hpp"

namespace sphreverb {

// What the input sample s(t) sets: names "displacement", "velocity", "acceleration".
enum class Drive { Displacement, Velocity, Acceleration };

struct DriveParams {
  Drive drive = Drive::Displacement;
  double deflection = 0.0;  // m, k of the formulas above
  double dt = 0.0;          // s, the time step
  double highpass = 0.0;    // Hz, >= 0: the acceleration drive's leak (ignored by the others)
};

struct EmitterState {
  double shift = 0.0;         // m, displacement from the rest position along the normal
  double speed = 0.0;         // m/s, along the normal
  double acceleration = 0.0;  // m/s^2, along the normal (dV/dt of the drive's V(t))
};

class EmitterDrive {
 public:
  EmitterDrive() = default;
  // input: at the run's sample rate.
  EmitterDrive(Signal input, const DriveParams& params);
  // State at step n (time n dt). Must be called with n = 0, 1, 2, ... in order.
  EmitterState at(std::int64_t n);

  // Where the drive stands, for checkpoints: the next step at() expects and the integrated state.
  // resume(progress()) on a drive built from the same input continues it exactly.
  struct Progress {
    std::int64_t next = 0;
    double shift = 0.0, speed = 0.0, last_acc = 0.0, leaky_v = 0.0;  // m, m/s, m/s^2, m/s
  };
  Progress progress() const { return {next_, state_.shift, state_.speed, last_acc_, leaky_v_}; }
  void resume(const Progress& p) {
    next_ = p.next, state_ = {p.shift, p.speed}, last_acc_ = p.last_acc, leaky_v_ = p.leaky_v;
  }

 private:
  double s(double t) const;  // delayed, interpolated input
  Signal input_;
  Drive drive_ = Drive::Displacement;
  double k_ = 0.0, dt_ = 0.0, wc_ = 0.0;
  std::int64_t next_ = 0;
  EmitterState state_;
  double last_acc_ = 0.0;  // acceleration drive: the previous step's A
  double leaky_v_ = 0.0;   // acceleration drive: V of dV/dt = A - w_c V
};

}  // namespace sphreverb
