// A keyframed path: where a moving source or receiver is at time t (s of stage 2, t = n dt).
//
// Keyframes (t_k, x_k) with strictly increasing times. Before t_0 the point rests at x_0, after
// the last keyframe at x_last. Between keyframes:
//   linear  x(t) = x_k + (t - t_k) / (t_k+1 - t_k) (x_k+1 - x_k)   (speed jumps at keyframes)
//   smooth  cubic Hermite with Catmull-Rom tangents m_k = (x_k+1 - x_k-1) / (t_k+1 - t_k-1) at
//           inner keyframes and zero velocity at the first and last (the point starts and stops
//           at rest): x(t) and its velocity are continuous (C1).
// A path of one keyframe is a fixed point. All functions are pure and deterministic: every rank
// evaluates the same position bit for bit.
#pragma once

#include <vector>

#include "sphreverb/core/vec3.hpp"

namespace sphreverb {

enum class PathInterpolation { Linear, Smooth };

struct Keyframe {
  double t = 0.0;  // s, time since stage 2 began
  Vec3 x;          // m
};

class Path {
 public:
  Path() = default;
  // Pre: keyframes non-empty, times strictly increasing (the scene parser checks it).
  Path(std::vector<Keyframe> keyframes, PathInterpolation interpolation);

  bool moving() const { return keys_.size() > 1; }
  Vec3 position(double t) const;  // m
  Vec3 velocity(double t) const;  // m/s (the derivative of position; 0 outside the keyframes)
  // Largest speed along the path (m/s): exact per segment for linear, sampled at 64 points per
  // segment (and its ends) for smooth. segment: index k of the segment [t_k, t_k+1] it is on.
  double max_speed(int* segment = nullptr) const;
  const std::vector<Keyframe>& keyframes() const { return keys_; }

 private:
  Vec3 tangent(std::size_t k) const;  // m/s, smooth: the Hermite tangent at keyframe k

  std::vector<Keyframe> keys_;
  PathInterpolation interpolation_ = PathInterpolation::Linear;
};

}  // namespace sphreverb
