#include "sphreverb/geometric/bands.hpp"

#include <cmath>

namespace sphreverb {

std::vector<double> geo_band_edges() {
  std::vector<double> e;
  for (std::size_t k = 0; k + 1 < kGeoBandCount; ++k)
    e.push_back(std::sqrt(kGeoBands[k] * kGeoBands[k + 1]));
  return e;
}

}  // namespace sphreverb
