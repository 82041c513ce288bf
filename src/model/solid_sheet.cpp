#include "sphreverb/model/solid_sheet.hpp"

#include <algorithm>
#include <cmath>

namespace sphreverb {

SolidSheet::SolidSheet(const WallShape& shape, double depth) : shape_(shape), depth_(depth) {
  // Bounding box: the corners of the (chamfered) slab or the column's end discs, per axis.
  const WallShape& w = shape_;
  Vec3 half_u, half_v, back;
  switch (w.shape) {
    case ShapeKind::Rectangle:
      half_u = (0.5 * w.width + depth) * w.u, half_v = (0.5 * w.height + depth) * w.v;
      back = -depth * w.normal;
      break;
    case ShapeKind::Disc:
      half_u = (w.radius + depth) * w.u, half_v = (w.radius + depth) * w.v;
      back = -depth * w.normal;
      break;
    case ShapeKind::Cylinder:
      half_u = w.radius * w.u, half_v = w.radius * w.v;
      back = w.height * w.normal;
      break;
  }
  const Vec3 base = w.shape == ShapeKind::Cylinder ? w.center - 0.5 * back : w.center;
  for (int a = 0; a < 3; ++a) {
    const double extent = std::abs(half_u[a]) + std::abs(half_v[a]);
    lo_[a] = std::min(base[a], base[a] + back[a]) - extent;
    hi_[a] = std::max(base[a], base[a] + back[a]) + extent;
  }
}

bool SolidSheet::solid(const Vec3& x) const {
  const WallShape& w = shape_;
  const Vec3 r = x - w.center;
  const double along = dot(r, w.normal);
  switch (w.shape) {
    case ShapeKind::Rectangle: {
      const double s = -along;  // depth behind the plane
      return s >= 0.0 && s <= depth_ && std::abs(dot(r, w.u)) <= 0.5 * w.width + s &&
             std::abs(dot(r, w.v)) <= 0.5 * w.height + s;
    }
    case ShapeKind::Disc: {
      const double s = -along;
      return s >= 0.0 && s <= depth_ && norm(r - along * w.normal) <= w.radius + s;
    }
    case ShapeKind::Cylinder:
      return std::abs(along) <= 0.5 * w.height && norm(r - along * w.normal) <= w.radius;
  }
  return false;
}

SheetPoint SolidSheet::closest(const Vec3& x) const {
  const WallShape& w = shape_;
  const Vec3 r = x - w.center;
  const double along = dot(r, w.normal);
  SheetPoint out;
  switch (w.shape) {
    case ShapeKind::Rectangle: {
      const double a = std::clamp(dot(r, w.u), -0.5 * w.width, 0.5 * w.width);
      const double b = std::clamp(dot(r, w.v), -0.5 * w.height, 0.5 * w.height);
      out.point = w.center + a * w.u + b * w.v;
      out.normal = -1.0 * w.normal;
      break;
    }
    case ShapeKind::Disc: {
      const Vec3 radial = r - along * w.normal;
      const double rr = norm(radial);
      out.point = rr > w.radius ? w.center + (w.radius / rr) * radial : w.center + radial;
      out.normal = -1.0 * w.normal;
      break;
    }
    case ShapeKind::Cylinder: {
      // The column's surface: the side (r = R, |along| <= H/2) and the two end discs.
      const Vec3 radial = r - along * w.normal;
      const double rr = norm(radial);
      const Vec3 dir = rr > 0.0 ? radial * (1.0 / rr) : w.u;
      const double half = 0.5 * w.height;
      const double h = std::clamp(along, -half, half);
      const bool inside = std::abs(along) <= half && rr <= w.radius;
      if (inside) {
        // Nearest of the side (R - rr) and the nearer end (half - |along|).
        if (w.radius - rr <= half - std::abs(along)) {
          out.point = w.center + h * w.normal + w.radius * dir;
          out.normal = -1.0 * dir;
        } else {
          const double end = along >= 0.0 ? half : -half;
          out.point = w.center + end * w.normal + radial;
          out.normal = (along >= 0.0 ? -1.0 : 1.0) * w.normal;
        }
      } else if (rr > w.radius) {
        // Beside the column (within or beyond its length): the side, or the rim.
        out.point = w.center + h * w.normal + w.radius * dir;
        out.normal = std::abs(along) <= half ? -1.0 * dir : (along > 0.0 ? -1.0 : 1.0) * w.normal;
      } else {
        // Above or below an end, within its radius.
        out.point = w.center + h * w.normal + radial;
        out.normal = (along > 0.0 ? -1.0 : 1.0) * w.normal;
      }
      break;
    }
  }
  out.distance = norm(x - out.point);
  return out;
}

}  // namespace sphreverb
