#include "sphreverb/solver/walls_near.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/shape.hpp"

namespace sphreverb {

namespace {

// m, the distance of x from the segment a-b.
double segment_distance(const Vec3& x, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double len2 = dot(ab, ab);
  const double t = len2 > 0.0 ? std::clamp(dot(x - a, ab) / len2, 0.0, 1.0) : 0.0;
  return norm(x - (a + t * ab));
}

// m, the distance of x from the triangle a b c: from its plane where x projects inside it, else
// from the nearest of its edges.
double triangle_distance(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = cross(b - a, c - a);
  const double n2 = dot(n, n);
  if (n2 > 0.0) {
    const double h = dot(x - a, n) / n2;
    const Vec3 q = x - h * n;  // the projection onto the plane
    const bool inside = dot(cross(b - a, q - a), n) >= 0.0 && dot(cross(c - b, q - b), n) >= 0.0 &&
                        dot(cross(a - c, q - c), n) >= 0.0;
    if (inside) return std::abs(h) * std::sqrt(n2);
  }
  return std::min(
      {segment_distance(x, a, b), segment_distance(x, b, c), segment_distance(x, c, a)});
}

}  // namespace

std::vector<NamedWall> walls_near(const Scene& scene, const Vec3& x, double range) {
  std::vector<NamedWall> out;
  const auto add = [&](std::string name, double d) {
    if (d <= range) out.push_back({std::move(name), d});
  };
  if (scene.room.present) {
    static constexpr std::array<const char*, 6> kFace = {"x_min", "x_max", "y_min",
                                                         "y_max", "z_min", "z_max"};
    const Vec3& lo = scene.room.min;
    const Vec3& hi = scene.room.max;
    for (int f = 0; f < 6; ++f) {
      const int axis = f / 2;
      // The nearest point of the face: x clamped to the box, on the face's plane.
      Vec3 q;
      for (int a = 0; a < 3; ++a) q[a] = std::clamp(x[a], lo[a], hi[a]);
      q[axis] = f % 2 == 0 ? lo[axis] : hi[axis];
      add(std::string("[room] ") + kFace[f], norm(x - q));
    }
  }
  for (const BoundarySpec& b : scene.boundaries) {
    const Shape shape{b.shape, b.center, b.normal, b.width, b.height, b.radius};
    add("[boundary." + b.name + "]", WallShape::from(shape).distance(x));
  }
  for (const GeometrySpec& g : scene.geometries) {
    if (!g.mesh) continue;
    const Mesh& m = *g.mesh;
    std::vector<double> nearest(std::max<std::size_t>(1, m.surface_names.size()), HUGE_VAL);
    for (std::size_t t = 0; t < m.triangle_count(); ++t) {
      const std::size_t s = t < m.surface.size() ? m.surface[t] : 0;
      if (s >= nearest.size()) continue;
      nearest[s] = std::min(nearest[s],
                            triangle_distance(x, m.corner(t, 0), m.corner(t, 1), m.corner(t, 2)));
    }
    for (std::size_t s = 0; s < nearest.size(); ++s)
      add("[geometry." + g.name + "]" +
              (s < m.surface_names.size() && !m.surface_names[s].empty() ? " " + m.surface_names[s]
                                                                         : std::string()),
          nearest[s]);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const NamedWall& a, const NamedWall& b) { return a.distance < b.distance; });
  return out;
}

std::string wall_list(const std::vector<NamedWall>& walls) {
  std::string s;
  for (std::size_t k = 0; k < walls.size(); ++k) {
    if (k > 0) s += k + 1 == walls.size() ? " and " : ", ";
    s += walls[k].name;
  }
  return s;
}

}  // namespace sphreverb
