#include "sphreverb/geometric/source_filter.hpp"

#include <cstdint>
#include <numbers>

#include "sphreverb/model/emitter.hpp"

namespace sphreverb {

std::vector<double> drive_highpass(const std::vector<double>& x, double rate, double highpass) {
  if (!(highpass > 0.0) || x.empty()) return x;
  const double dt = 1.0 / rate, wc = 2.0 * std::numbers::pi * highpass;
  // A = k fs^2 s with k = 1 / fs^2: the drive's input acceleration is x itself.
  EmitterDrive drive(Signal{rate, x}, {Drive::Acceleration, dt * dt, dt, highpass});
  std::vector<double> y(x.size(), 0.0);
  drive.at(0);
  // Step n reads the input sample n - 1 (the drive's one-sample delay): y[n - 1] is its output.
  for (std::size_t n = 1; n <= x.size(); ++n) {
    drive.at(static_cast<std::int64_t>(n));
    const EmitterDrive::Progress s = drive.progress();
    y[n - 1] = s.last_acc - wc * s.leaky_v - wc * s.speed;  // d^2X/dt^2 = A - w_c V - w_c X'
  }
  return y;
}

}  // namespace sphreverb
