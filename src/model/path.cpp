#include "sphreverb/model/path.hpp"

#include <algorithm>
#include <utility>

namespace sphreverb {

Path::Path(std::vector<Keyframe> keyframes, PathInterpolation interpolation)
    : keys_(std::move(keyframes)), interpolation_(interpolation) {}

Vec3 Path::tangent(std::size_t k) const {
  if (k == 0 || k + 1 >= keys_.size()) return {};  // starts and stops at rest
  return (keys_[k + 1].x - keys_[k - 1].x) * (1.0 / (keys_[k + 1].t - keys_[k - 1].t));
}

namespace {
// The segment containing t: k with t_k <= t < t_k+1, for t inside the keyframes.
std::size_t segment_of(const std::vector<Keyframe>& keys, double t) {
  const auto it = std::upper_bound(keys.begin(), keys.end(), t,
                                   [](double v, const Keyframe& k) { return v < k.t; });
  return static_cast<std::size_t>(it - keys.begin()) - 1;
}
}  // namespace

Vec3 Path::position(double t) const {
  if (keys_.empty()) return {};
  if (!(t > keys_.front().t)) return keys_.front().x;
  if (t >= keys_.back().t) return keys_.back().x;
  const std::size_t k = segment_of(keys_, t);
  const Keyframe &a = keys_[k], &b = keys_[k + 1];
  const double span = b.t - a.t, u = (t - a.t) / span;
  if (interpolation_ == PathInterpolation::Linear) return a.x + (b.x - a.x) * u;
  // Cubic Hermite basis: h00 = 2u^3 - 3u^2 + 1, h10 = u^3 - 2u^2 + u, h01 = -2u^3 + 3u^2,
  // h11 = u^3 - u^2; tangents scaled by the segment's duration.
  const double u2 = u * u, u3 = u2 * u;
  return a.x * (2 * u3 - 3 * u2 + 1) + tangent(k) * (span * (u3 - 2 * u2 + u)) +
         b.x * (-2 * u3 + 3 * u2) + tangent(k + 1) * (span * (u3 - u2));
}

Vec3 Path::velocity(double t) const {
  if (keys_.size() < 2 || !(t > keys_.front().t) || t >= keys_.back().t) return {};
  const std::size_t k = segment_of(keys_, t);
  const Keyframe &a = keys_[k], &b = keys_[k + 1];
  const double span = b.t - a.t, u = (t - a.t) / span;
  if (interpolation_ == PathInterpolation::Linear) return (b.x - a.x) * (1.0 / span);
  const double u2 = u * u;
  return a.x * ((6 * u2 - 6 * u) / span) + tangent(k) * (3 * u2 - 4 * u + 1) +
         b.x * ((-6 * u2 + 6 * u) / span) + tangent(k + 1) * (3 * u2 - 2 * u);
}

double Path::max_speed(int* segment) const {
  double best = 0.0;
  int where = 0;
  for (std::size_t k = 0; k + 1 < keys_.size(); ++k) {
    const Keyframe &a = keys_[k], &b = keys_[k + 1];
    const int samples = interpolation_ == PathInterpolation::Linear ? 0 : 64;
    for (int i = 0; i <= samples; ++i) {
      const double t =
          samples == 0 ? 0.5 * (a.t + b.t) : a.t + (b.t - a.t) * (static_cast<double>(i) / samples);
      // The segment's own formula at its ends (velocity() picks the next segment at t_k+1).
      const double tt = std::min(t, b.t - 1e-12 * (b.t - a.t));
      const double v = norm(velocity(std::max(tt, a.t + 1e-12 * (b.t - a.t))));
      if (v > best) best = v, where = static_cast<int>(k);
    }
  }
  if (segment) *segment = where;
  return best;
}

}  // namespace sphreverb
