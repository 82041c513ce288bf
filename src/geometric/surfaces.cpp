#include "sphreverb/geometric/surfaces.hpp"

#include <cmath>
#include <numbers>

namespace sphreverb {
namespace {

void add_triangle(Mesh& m, const Vec3& a, const Vec3& b, const Vec3& c, std::size_t surface) {
  const std::size_t i = m.vertices.size();
  m.vertices.push_back(a);
  m.vertices.push_back(b);
  m.vertices.push_back(c);
  m.triangles.push_back({i, i + 1, i + 2});
  m.surface.push_back(surface);
}

}  // namespace

std::array<Vec3, 3> shape_frame(const Vec3& normal) {
  const Vec3 n = normalized(normal);
  const Vec3 ref = std::abs(n.z) > 0.9 ? Vec3{1.0, 0.0, 0.0} : Vec3{0.0, 0.0, 1.0};
  const Vec3 u = normalized(cross(n, ref));
  return {n, u, cross(n, u)};
}

void add_box(Mesh& m, const Vec3& lo, const Vec3& hi,
             const std::array<std::size_t, 6>& face_surface) {
  for (int axis = 0; axis < 3; ++axis) {
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    for (int side = 0; side < 2; ++side) {
      auto corner = [&](double s1, double s2) {
        Vec3 p;
        p[axis] = side ? hi[axis] : lo[axis];
        p[a1] = s1 ? hi[a1] : lo[a1];
        p[a2] = s2 ? hi[a2] : lo[a2];
        return p;
      };
      const std::size_t s = face_surface[2 * axis + side];
      // (e1 x e2) = +e_axis: outward on the max side, so swap the winding on the min side.
      if (side) {
        add_triangle(m, corner(0, 0), corner(1, 0), corner(1, 1), s);
        add_triangle(m, corner(0, 0), corner(1, 1), corner(0, 1), s);
      } else {
        add_triangle(m, corner(0, 0), corner(1, 1), corner(1, 0), s);
        add_triangle(m, corner(0, 0), corner(0, 1), corner(1, 1), s);
      }
    }
  }
}

void add_shape(Mesh& m, const Shape& shape, std::size_t surface, int segments) {
  const auto [n, u, v] = shape_frame(shape.normal);
  const Vec3 c = shape.center;
  const double two_pi = 2.0 * std::numbers::pi;
  auto ring = [&](int k, double r, const Vec3& centre) {
    const double phi = two_pi * k / segments;
    return centre + r * (std::cos(phi) * u + std::sin(phi) * v);
  };
  switch (shape.kind) {
    case ShapeKind::Rectangle: {
      const Vec3 du = 0.5 * shape.width * u, dv = 0.5 * shape.height * v;
      add_triangle(m, c - du - dv, c + du - dv, c + du + dv, surface);
      add_triangle(m, c - du - dv, c + du + dv, c - du + dv, surface);
      break;
    }
    case ShapeKind::Disc:
      for (int k = 0; k < segments; ++k)
        add_triangle(m, c, ring(k, shape.radius, c), ring(k + 1, shape.radius, c), surface);
      break;
    case ShapeKind::Cylinder: {
      const Vec3 b = c - 0.5 * shape.height * n, t = c + 0.5 * shape.height * n;
      for (int k = 0; k < segments; ++k) {
        add_triangle(m, ring(k, shape.radius, b), ring(k + 1, shape.radius, b),
                     ring(k + 1, shape.radius, t), surface);
        add_triangle(m, ring(k, shape.radius, b), ring(k + 1, shape.radius, t),
                     ring(k, shape.radius, t), surface);
      }
      break;
    }
  }
}

}  // namespace sphreverb
