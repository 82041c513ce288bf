// A keyframed rotation: how far a moving object has turned about a fixed axis at time t (s of
// stage 2, t = n dt), e.g. a door about its hinge.
//
// Keyframes (t_k, angle_k) with strictly increasing times, interpolated as a Path (path.hpp:
// linear, or smooth = cubic Hermite, starting and stopping at rest). The object turns about the
// unit `axis` (right-hand rule) through `pivot` (m, at the first keyframe's pose) by
//
//     theta(t) = angle(t) - angle_1                                (rad)
//
// so the shape as written in the scene is its pose at the first keyframe (and before it). The
// rotation matrix is Rodrigues' formula, R(t) r = r cos(theta) + (a x r) sin(theta) +
// a (a . r)(1 - cos(theta)), and the angular velocity omega(t) = theta'(t) a. All functions are
// pure and deterministic: every rank evaluates the same bits.
#pragma once

#include <vector>

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/path.hpp"

namespace sphreverb {

struct AngleKeyframe {
  double t = 0.0;      // s, time since stage 2 began
  double angle = 0.0;  // rad
};

class RotationPath {
 public:
  RotationPath() = default;
  // Pre: keyframes non-empty with strictly increasing times; axis non-zero (normalised here).
  RotationPath(const std::vector<AngleKeyframe>& keyframes, PathInterpolation interpolation,
               const Vec3& axis, const Vec3& pivot);

  bool moving() const { return angle_.moving(); }
  const Vec3& axis() const { return axis_; }    // unit
  const Vec3& pivot() const { return pivot_; }  // m, at the first keyframe's pose
  double angle(double t) const;                 // rad, theta(t) = angle(t) - angle_1
  double rate(double t) const;                  // rad/s, theta'(t) (0 outside the keyframes)
  Vec3 omega(double t) const { return axis_ * rate(t); }  // rad/s, angular velocity
  // R(t) r: the vector r (m, or a direction) turned by theta(t) about the axis.
  Vec3 turn(const Vec3& r, double t) const;
  // Largest |theta'| (rad/s) along the keyframes, as Path::max_speed (segment: its index k).
  double max_rate(int* segment = nullptr) const;

 private:
  Path angle_;  // the angle as the x component of a path (rad), its interpolation and sampling
  Vec3 axis_{0, 0, 1}, pivot_;
};

// Rodrigues' formula: r turned by `angle` (rad) about the unit vector a (right-hand rule).
Vec3 rotate_about(const Vec3& r, const Vec3& a, double angle);

}  // namespace sphreverb
