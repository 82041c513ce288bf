#include "sphreverb/model/shape_mesh.hpp"

#include <cmath>
#include <numbers>

namespace sphreverb {

namespace {
std::size_t add_vertex(Mesh& m, const Vec3& v) {
  m.vertices.push_back(v);
  return m.vertices.size() - 1;
}
// Adds triangle (a, b, c), flipped if needed so that its normal points along `towards`.
void add_triangle(Mesh& m, std::size_t a, std::size_t b, std::size_t c, const Vec3& towards,
                  std::size_t surface) {
  const Vec3 n = cross(m.vertices[b] - m.vertices[a], m.vertices[c] - m.vertices[a]);
  if (dot(n, towards) < 0.0) std::swap(b, c);
  m.triangles.push_back({a, b, c});
  m.surface.push_back(surface);
}
}  // namespace

void append_triangles(const WallShape& s, std::size_t surface, Mesh& m, int segments) {
  const double two_pi = 2.0 * std::numbers::pi;
  const auto ring = [&](int k) {  // unit radial direction k of `segments`
    const double phi = two_pi * k / segments;
    return std::cos(phi) * s.u + std::sin(phi) * s.v;
  };
  switch (s.shape) {
    case ShapeKind::Rectangle: {
      const Vec3 hu = 0.5 * s.width * s.u, hv = 0.5 * s.height * s.v;
      const std::size_t a = add_vertex(m, s.center - hu - hv),
                        b = add_vertex(m, s.center + hu - hv),
                        c = add_vertex(m, s.center + hu + hv),
                        d = add_vertex(m, s.center - hu + hv);
      add_triangle(m, a, b, c, s.normal, surface);
      add_triangle(m, a, c, d, s.normal, surface);
      break;
    }
    case ShapeKind::Disc: {
      const std::size_t centre = add_vertex(m, s.center), first = m.vertices.size();
      for (int k = 0; k < segments; ++k) add_vertex(m, s.center + s.radius * ring(k));
      for (int k = 0; k < segments; ++k)
        add_triangle(m, centre, first + k, first + (k + 1) % segments, s.normal, surface);
      break;
    }
    case ShapeKind::Cylinder: {
      const Vec3 half = 0.5 * s.height * s.normal;
      const std::size_t first = m.vertices.size();
      for (int k = 0; k < segments; ++k) {
        add_vertex(m, s.center - half + s.radius * ring(k));
        add_vertex(m, s.center + half + s.radius * ring(k));
      }
      for (int k = 0; k < segments; ++k) {
        const std::size_t lo0 = first + 2 * k, hi0 = lo0 + 1,
                          lo1 = first + 2 * ((k + 1) % segments), hi1 = lo1 + 1;
        const Vec3 out = ring(k) + ring(k + 1);  // the facet's outward direction
        add_triangle(m, lo0, lo1, hi1, out, surface);
        add_triangle(m, lo0, hi1, hi0, out, surface);
      }
      break;
    }
  }
}

double shape_area(const WallShape& s) {
  switch (s.shape) {
    case ShapeKind::Rectangle:
      return s.width * s.height;
    case ShapeKind::Disc:
      return std::numbers::pi * s.radius * s.radius;
    case ShapeKind::Cylinder:
      return 2.0 * std::numbers::pi * s.radius * s.height;
  }
  return 0.0;
}

}  // namespace sphreverb
