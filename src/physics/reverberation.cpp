#include "sphreverb/physics/reverberation.hpp"

#include <cmath>
#include <limits>

namespace sphreverb {

namespace {
const double k60 = 24.0 * std::log(10.0);  // eqs. (1), (2): 60 dB = ln(10^6) of energy
}

Reverberation diffuse_field_t60(double volume, std::span<const AbsorbingSurface> surfaces,
                                double c) {
  Reverberation r;
  r.volume = volume;
  std::array<double, 6> absorption{};  // A per band, m^2 (Sabine units)
  for (const AbsorbingSurface& s : surfaces) {
    r.area += s.area;
    for (std::size_t b = 0; b < absorption.size(); ++b) absorption[b] += s.area * s.alpha_st[b];
  }
  const double inf = std::numeric_limits<double>::infinity();
  for (std::size_t b = 0; b < absorption.size(); ++b) {
    const double a = r.area > 0.0 ? absorption[b] / r.area : 0.0;
    r.mean_alpha[b] = a;
    r.sabine[b] = absorption[b] > 0.0 ? k60 * volume / (c * absorption[b]) : inf;
    r.eyring[b] = a <= 0.0 ? inf : a >= 1.0 ? 0.0 : k60 * volume / (-c * r.area * std::log1p(-a));
  }
  return r;
}

double random_incidence_absorption(double alpha_n) {
  if (!(alpha_n > 0.0)) return 0.0;
  return statistical_absorption(alpha_n >= 1.0 ? 1.0 : hard_resistance_ratio(alpha_n));
}

double normal_incidence_absorption(double alpha_st) {
  if (!(alpha_st > 0.0)) return 0.0;
  return normal_absorption(resistance_ratio_for_statistical(alpha_st));
}

}  // namespace sphreverb
