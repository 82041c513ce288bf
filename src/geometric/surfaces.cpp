#include "sphreverb/geometric/surfaces.hpp"

#include <cmath>
#include <numbers>

#include "sphreverb/model/boundary.hpp"

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
  append_triangles(WallShape::from(shape), surface, m, segments);
}

void add_mesh(Mesh& m, const Mesh& part, const std::vector<std::size_t>& surface_slot) {
  const std::size_t first = m.vertices.size();
  m.vertices.insert(m.vertices.end(), part.vertices.begin(), part.vertices.end());
  for (std::size_t t = 0; t < part.triangles.size(); ++t) {
    const auto& tri = part.triangles[t];
    m.triangles.push_back({first + tri[0], first + tri[1], first + tri[2]});
    m.surface.push_back(surface_slot.at(part.surface[t]));
  }
}

}  // namespace sphreverb
