#include "sphreverb/emitter.hpp"

#include <stdexcept>

namespace sphreverb {

EmitterDrive::EmitterDrive(Signal input, Drive drive, double deflection, double dt)
    : input_(std::move(input)), drive_(drive), k_(deflection), dt_(dt) {
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
      break;
    case Drive::Velocity: {
      const double v = k_ * fs * s(t);
      if (n > 0) state_.shift += 0.5 * dt_ * (state_.speed + v);
      state_.speed = v;
      break;
    }
    case Drive::Acceleration: {
      const double a = k_ * fs * fs * s(t);
      if (n > 0) {
        const double v = state_.speed + 0.5 * dt_ * (last_acc_ + a);
        state_.shift += 0.5 * dt_ * (state_.speed + v);
        state_.speed = v;
      }
      last_acc_ = a;
      break;
    }
  }
  ++next_;
  return state_;
}

}  // namespace sphreverb
