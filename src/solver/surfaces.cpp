#include "sphreverb/solver/surfaces.hpp"

#include <algorithm>
#include <numbers>

#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/shape_mesh.hpp"

namespace sphreverb {

namespace {
// Each surface's shape, in the order of scene_surfaces.
std::vector<WallShape> surface_shapes(const Scene& s) {
  std::vector<WallShape> shapes;
  if (s.room.present)
    for (const WallShape& f : box_faces(s.room.min, s.room.max)) shapes.push_back(f);
  for (const BoundarySpec& b : s.boundaries)
    shapes.push_back(
        WallShape::from(Shape{b.shape, b.center, b.normal, b.width, b.height, b.radius}));
  return shapes;
}
}  // namespace

std::vector<SceneSurface> scene_surfaces(const Scene& s) {
  std::vector<SceneSurface> out;
  const std::vector<WallShape> shapes = surface_shapes(s);
  std::size_t k = 0;
  if (s.room.present)
    for (int f = 0; f < 6; ++f, ++k)
      out.push_back({"room." + room_face_key(f).substr(9), s.room.face_material[f],
                     shape_area(shapes[k]), 1});
  for (const BoundarySpec& b : s.boundaries) {
    const int sides = b.shape == ShapeKind::Cylinder ? 1 : 2;
    out.push_back({"boundary." + b.name, b.material, shape_area(shapes[k++]), sides});
  }
  return out;
}

double air_volume(const Scene& s) {
  const Vec3 size = s.room.present ? s.room.max - s.room.min : s.fluid.fill_max - s.fluid.fill_min;
  double v = size.x * size.y * size.z;
  for (const BoundarySpec& b : s.boundaries)
    if (b.shape == ShapeKind::Cylinder) v -= std::numbers::pi * b.radius * b.radius * b.height;
  return v;
}

bool material_random_absorption(const Scene& s, const std::string& name,
                                std::array<double, 6>& alpha_st) {
  alpha_st.fill(0.0);
  const MaterialSpec& m = s.material(name);
  if (m.rigid) return true;
  if (m.absorption.empty()) return false;
  const double rho_c = s.fluid.rest_density * s.fluid.sound_speed;
  for (std::size_t b = 0; b < kOctaveBands.size(); ++b) {
    const double w = 2.0 * std::numbers::pi * kOctaveBands[b];
    alpha_st[b] = random_incidence_absorption(normal_absorption(m.impedance.at(w) / rho_c));
  }
  return true;
}

Reverberation scene_reverberation(const Scene& s, bool& known) {
  known = true;
  std::vector<AbsorbingSurface> absorbing;
  for (const SceneSurface& f : scene_surfaces(s)) {
    AbsorbingSurface a;
    a.area = f.area * f.sides;
    known = material_random_absorption(s, f.material, a.alpha_st) && known;
    absorbing.push_back(a);
  }
  if (!known) return {};
  return diffuse_field_t60(air_volume(s), absorbing, s.fluid.sound_speed);
}

Mesh scene_surface_mesh(const Scene& s) {
  Mesh mesh;
  const std::vector<SceneSurface> surfaces = scene_surfaces(s);
  const std::vector<WallShape> shapes = surface_shapes(s);
  for (std::size_t k = 0; k < surfaces.size(); ++k) {
    const auto& names = mesh.surface_names;
    auto it = std::find(names.begin(), names.end(), surfaces[k].material);
    const std::size_t id = static_cast<std::size_t>(it - names.begin());
    if (it == names.end()) mesh.surface_names.push_back(surfaces[k].material);
    append_triangles(shapes[k], id, mesh);
  }
  return mesh;
}

}  // namespace sphreverb
