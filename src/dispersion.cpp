#include "sphreverb/dispersion.hpp"

#include <array>
#include <stdexcept>

namespace sphreverb {

namespace {
struct Point {
  double h_over_dx, ppw;
};
// Measured by V1 at dx = 1 cm (tests/validation/full/V1.sh: 2.4 m duct, receivers 0.6 m apart;
// README "Highest usable frequency"): the PPW where |c(f) - c0| / c0 first reaches 1.5 %,
// scanning from long to short wavelengths. The lattice theory of the scheme
// (postproc/sphreverb_post/dispersion.py) gives 20.9, 24.1, 30.0, 37.4 (Wendland C2) and 20.9,
// 25.9, 31.4, 39.8 (cubic spline) at h/dx = 1.0, 1.3, 1.6, 2.0. At h/dx >= 1.6 the measured
// curves ripple about the theory by up to +-1 % (an artefact of the set-up not yet explained),
// so their first crossing, used here, is conservative (the cubic spline at h/dx = 2.0 is past
// 1.5 % already at 60 PPW, the longest wavelength the set-up resolves: 60 is a lower bound for
// it, the theory gives 39.8). At h/dx = 1 both kernels reach only the six nearest neighbours
// and reduce to the same central difference (c/c0 = sin(k dx)/(k dx)).
constexpr std::array<Point, 4> kWendland = {{{1.0, 21.0}, {1.3, 22.7}, {1.6, 34.3}, {2.0, 54.8}}};
constexpr std::array<Point, 4> kCubic = {{{1.0, 21.0}, {1.3, 26.0}, {1.6, 33.2}, {2.0, 60.0}}};

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
