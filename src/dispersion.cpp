#include "sphreverb/dispersion.hpp"

#include <array>
#include <stdexcept>

namespace sphreverb {

namespace {
struct Point {
  double h_over_dx, ppw;
};
// Measured by V1 (tests/validation/full/V1.sh; README "Highest usable frequency"): PPW where
// |c(f) - c0| / c0 first reaches 1 %, scanning from long to short wavelengths.
constexpr std::array<Point, 1> kWendland = {{{1.3, 20.0}}};
constexpr std::array<Point, 1> kCubic = {{{1.3, 20.0}}};

template <std::size_t N>
double interpolate(const std::array<Point, N>& t, double q) {
  if (q <= t.front().h_over_dx) return t.front().ppw;
  for (std::size_t i = 1; i < N; ++i) {
    if (q <= t[i].h_over_dx) {
      const double w = (q - t[i - 1].h_over_dx) / (t[i].h_over_dx - t[i - 1].h_over_dx);
      return t[i - 1].ppw + w * (t[i].ppw - t[i - 1].ppw);
    }
  }
  return t.back().ppw;
}
}  // namespace

double ppw_for_phase_error(KernelKind kernel, double h_over_dx, double tolerance) {
  if (tolerance != kFmaxPhaseError)
    throw std::invalid_argument("ppw_for_phase_error: only the tabulated tolerance is measured");
  return kernel == KernelKind::WendlandC2 ? interpolate(kWendland, h_over_dx)
                                          : interpolate(kCubic, h_over_dx);
}

}  // namespace sphreverb
