#include "sphreverb/audio/normalize.hpp"

#include <algorithm>
#include <cmath>

namespace sphreverb {

std::vector<double> remove_dc_and_normalize(const std::vector<double>& x) {
  std::vector<double> y(x);
  if (y.empty()) return y;
  double mean = 0.0;
  double peak_in = 0.0;
  for (double v : y) {
    mean += v;
    peak_in = std::max(peak_in, std::abs(v));
  }
  mean /= static_cast<double>(y.size());
  double peak = 0.0;
  for (double& v : y) {
    v -= mean;
    peak = std::max(peak, std::abs(v));
  }
  // What is left of a constant signal is rounding noise of the mean; treat it as zero rather
  // than amplify it to full scale.
  if (peak > 1e-12 * peak_in) {
    const double scale = 1.0 / peak;
    for (double& v : y) v *= scale;
  } else {
    std::fill(y.begin(), y.end(), 0.0);
  }
  return y;
}

}  // namespace sphreverb
