#include "sphreverb/model/emitter.hpp"

#include <algorithm>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace sphreverb {
namespace {

// Value of the signal at time t (s) by linear interpolation between samples; 0 outside
// [0, (n-1)/rate] (and for NaN t). The drive's sub-sample interpolation.
double sample_at(const Signal& s, double t) {
  const std::size_t n = s.samples.size();
  if (n == 0 || !(s.rate > 0.0)) return 0.0;
  const double last = static_cast<double>(n - 1);
  if (!(t >= 0.0) || t > last / s.rate) return 0.0;
  const double x = std::min(t * s.rate, last);
  const auto i = static_cast<std::size_t>(x);
  if (i + 1 >= n) return s.samples[n - 1];
  const double frac = x - static_cast<double>(i);
  return s.samples[i] + frac * (s.samples[i + 1] - s.samples[i]);
}

}  // namespace

EmitterDrive::EmitterDrive(Signal input, const DriveParams& params)
    : input_(std::move(input)),
      drive_(params.drive),
      k_(params.deflection),
      dt_(params.dt),
      wc_(2.0 * std::numbers::pi * params.highpass) {
  // The one-sample delay: a leading zero, so the drive ramps from rest to s[0] over the first
  // sample period.
  input_.samples.insert(input_.samples.begin(), 0.0);
}

double EmitterDrive::s(double t) const { return sample_at(input_, t); }

EmitterState EmitterDrive::at(std::int64_t n) {
  if (n != next_) throw std::logic_error("EmitterDrive::at: steps must be consecutive");
  const double t = static_cast<double>(n) * dt_, fs = input_.rate;
  switch (drive_) {
    case Drive::Displacement:
      state_.shift = k_ * s(t);
      state_.speed = k_ * (s(t + 0.5 * dt_) - s(t - 0.5 * dt_)) / dt_;
      state_.acceleration = k_ * (s(t + dt_) - 2.0 * s(t) + s(t - dt_)) / (dt_ * dt_);
      break;
    case Drive::Velocity: {
      const double v = k_ * fs * s(t);
      if (n > 0) state_.shift += 0.5 * dt_ * (state_.speed + v);
      state_.speed = v;
      state_.acceleration = k_ * fs * (s(t + 0.5 * dt_) - s(t - 0.5 * dt_)) / dt_;
      break;
    }
    case Drive::Acceleration: {
      // Trapezoid rule on dV/dt = A - w_c V, then on dX/dt = V - w_c X; w_c = 0 is plain
      // double integration. The disc's speed is dX/dt.
      const double a = k_ * fs * fs * s(t);
      if (n > 0) {
        const double g = 0.5 * wc_ * dt_;
        const double v = ((1.0 - g) * leaky_v_ + 0.5 * dt_ * (last_acc_ + a)) / (1.0 + g);
        state_.shift = ((1.0 - g) * state_.shift + 0.5 * dt_ * (leaky_v_ + v)) / (1.0 + g);
        leaky_v_ = v;
        state_.speed = v - wc_ * state_.shift;
      }
      state_.acceleration = a - 2.0 * wc_ * leaky_v_ + wc_ * wc_ * state_.shift;
      last_acc_ = a;
      break;
    }
  }
  ++next_;
  return state_;
}

}  // namespace sphreverb
