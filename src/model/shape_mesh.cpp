#include "sphreverb/model/shape_mesh.hpp"

#include <array>
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

Mesh box_mesh(const Vec3& lo, const Vec3& hi) {
  Mesh m;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        m.vertices.push_back({i ? hi.x : lo.x, j ? hi.y : lo.y, k ? hi.z : lo.z});
  const auto vertex = [](int axis, int side, int u, int v) {  // corner (u, v) of a face
    int c[3];
    c[axis] = side, c[(axis + 1) % 3] = u, c[(axis + 2) % 3] = v;
    return static_cast<std::size_t>(c[0] + 2 * c[1] + 4 * c[2]);
  };
  static const char* const kNames[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
  for (int face = 0; face < 6; ++face) {
    const int axis = face / 2, side = face % 2;
    m.surface_names.push_back(kNames[face]);
    const std::size_t a = vertex(axis, side, 0, 0), b = vertex(axis, side, 1, 0),
                      c = vertex(axis, side, 1, 1), d = vertex(axis, side, 0, 1);
    // (b - a) x (d - a) points along +axis; the face at lo looks along -axis.
    for (std::array<std::size_t, 3> t : {std::array<std::size_t, 3>{a, b, c}, {a, c, d}}) {
      if (side == 0) std::swap(t[1], t[2]);
      m.triangles.push_back(t);
      m.surface.push_back(static_cast<std::size_t>(face));
    }
  }
  return m;
}

}  // namespace sphreverb
