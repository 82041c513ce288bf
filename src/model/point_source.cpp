#include "sphreverb/model/point_source.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace sphreverb {

double source_peak_volume(const Signal& input, const DriveParams& drive, std::int64_t steps) {
  EmitterDrive d(input, drive);
  double peak = 0.0;
  for (std::int64_t n = 0; n < steps; ++n) peak = std::max(peak, std::abs(d.at(n).shift));
  return peak;
}

double source_displacement_ratio(double peak_volume, double sigma) {
  return kSourceDisplacementPeak * peak_volume / (sigma * sigma * sigma);
}

PointSources::PointSources(std::vector<PointSourceParams> sources)
    : sources_(std::move(sources)), candidates_(sources_.size()) {}

void PointSources::rebuild(const Particles& p, double margin) {
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    candidates_[k].clear();
    if (sources_[k].path.moving()) continue;
    const Vec3 xs = sources_[k].path.position(0.0);
    const double r = sources_[k].cutoff() + margin;
    for (std::size_t i = 0; i < p.n_owned; ++i) {
      const Vec3 d = p.position(i) - xs;
      if (dot(d, d) <= r * r) candidates_[k].push_back(static_cast<std::uint32_t>(i));
    }
  }
}

void PointSources::add_to_continuity(Particles& p, const std::vector<double>& volume_velocity,
                                     double t) const {
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const PointSourceParams& s = sources_[k];
    const double q = k < volume_velocity.size() ? volume_velocity[k] : 0.0;
    if (q == 0.0) continue;
    const Vec3 xs = s.path.position(t);
    const double two_s2 = 2.0 * s.sigma * s.sigma, rc2 = s.cutoff() * s.cutoff();
    const double amp =
        s.rest_density * q / (std::pow(2.0 * std::numbers::pi, 1.5) * s.sigma * s.sigma * s.sigma);
    const auto add = [&](std::size_t i) {
      const Vec3 d = p.position(i) - xs;
      const double r2 = dot(d, d);
      if (r2 < rc2) p.drho[i] += amp * std::exp(-r2 / two_s2);
    };
    if (s.path.moving())
      for (std::size_t i = 0; i < p.n_owned; ++i) add(i);
    else
      for (std::uint32_t i : candidates_[k]) add(i);
  }
}

}  // namespace sphreverb
