#include "sphreverb/model/rotation_path.hpp"

#include <cmath>

namespace sphreverb {

namespace {
std::vector<Keyframe> as_path(const std::vector<AngleKeyframe>& keys) {
  std::vector<Keyframe> out;
  out.reserve(keys.size());
  for (const AngleKeyframe& k : keys) out.push_back({k.t, Vec3{k.angle, 0.0, 0.0}});
  return out;
}
}  // namespace

Vec3 rotate_about(const Vec3& r, const Vec3& a, double angle) {
  if (angle == 0.0) return r;  // exactly the identity (a shape not yet turned keeps its bits)
  const double c = std::cos(angle), s = std::sin(angle);
  return r * c + cross(a, r) * s + a * (dot(a, r) * (1.0 - c));
}

RotationPath::RotationPath(const std::vector<AngleKeyframe>& keyframes,
                           PathInterpolation interpolation, const Vec3& axis, const Vec3& pivot)
    : angle_(as_path(keyframes), interpolation), axis_(normalized(axis)), pivot_(pivot) {}

double RotationPath::angle(double t) const {
  if (angle_.keyframes().empty()) return 0.0;
  return angle_.position(t).x - angle_.keyframes().front().x.x;
}

double RotationPath::rate(double t) const { return angle_.velocity(t).x; }

Vec3 RotationPath::turn(const Vec3& r, double t) const { return rotate_about(r, axis_, angle(t)); }

double RotationPath::max_rate(int* segment) const { return angle_.max_speed(segment); }

}  // namespace sphreverb
