#include "sphreverb/solver/surfaces.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <optional>
#include <sstream>

#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/mesh_check.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "sphreverb/model/shape_mesh.hpp"
#include "sphreverb/physics/dispersion.hpp"
#include "sphreverb/solver/covered_faces.hpp"

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

namespace {
const GeometrySpec* room_mesh(const Scene& s) {
  for (const GeometrySpec& g : s.geometries)
    if (g.role == GeometryRole::Room) return &g;
  return nullptr;
}

// Where an object's triangle lies with respect to the room: in its air, on its boundary (then
// `surface` is the index in scene_surfaces of the room surface it touches), or outside it.
class RoomContact {
 public:
  enum Where { Air, Touching, Outside };

  // `mesh_base`: the index in scene_surfaces of the room mesh's first surface.
  RoomContact(const Scene& s, std::size_t mesh_base) : base_(mesh_base) {
    Vec3 lo, hi;
    if (const GeometrySpec* g = room_mesh(s)) {
      query_.emplace(*g->mesh);
      const MeshFacts f = mesh_facts(*g->mesh);
      lo = f.min, hi = f.max;
    } else if (s.room.present) {
      lo = lo_ = s.room.min, hi = hi_ = s.room.max;
    } else {
      none_ = true;
    }
    tol_ = kContactTolerance * std::max(1.0, norm(hi - lo));
  }

  Where at(const Vec3& c, std::size_t& surface) const {
    if (none_) return Air;
    if (query_) {
      const ClosestPoint p = query_->closest(c);
      if (p.distance <= tol_) {
        surface = base_ + p.surface;
        return Touching;
      }
      return query_->inside(c) ? Air : Outside;
    }
    int nearest = -1;
    double gap = 2.0 * tol_;
    for (int axis = 0; axis < 3; ++axis) {
      if (c[axis] < lo_[axis] - tol_ || c[axis] > hi_[axis] + tol_) return Outside;
      for (int side = 0; side < 2; ++side) {
        const double d = std::abs(c[axis] - (side == 0 ? lo_[axis] : hi_[axis]));
        if (d < gap) gap = d, nearest = 2 * axis + side;
      }
    }
    if (gap > tol_) return Air;
    surface = static_cast<std::size_t>(nearest);
    return Touching;
  }

 private:
  std::optional<MeshQuery> query_;
  bool none_ = false;
  Vec3 lo_, hi_;
  double tol_ = 0.0;
  std::size_t base_ = 0;
};

double triangle_area(const Mesh& m, std::size_t t) { return 0.5 * norm(m.area_vector(t)); }
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
    // A ghost-walled rectangle or disc has air on its front only.
    const int sides = b.shape == ShapeKind::Cylinder || b.wall == BoundaryWall::Ghost ? 1 : 2;
    out.push_back({"boundary." + b.name, b.material, shape_area(shapes[k++]), sides});
  }
  if (s.geometries.empty()) return out;
  // Every mesh surface with the area of its triangles; then each object triangle that is not in
  // the room's air is taken out again, and one touching the room from the room surface under it.
  std::vector<std::size_t> base;
  std::size_t room_base = 0;
  for (const GeometrySpec& g : s.geometries) {
    base.push_back(out.size());
    if (g.role == GeometryRole::Room) room_base = out.size();
    const MeshFacts facts = mesh_facts(*g.mesh);
    for (std::size_t j = 0; j < facts.surfaces.size(); ++j)
      out.push_back({"geometry." + g.name + "." + facts.surfaces[j].name, g.surface_material[j],
                     facts.surfaces[j].area, 1});
  }
  const RoomContact room(s, room_base);
  for (std::size_t i = 0; i < s.geometries.size(); ++i) {
    const GeometrySpec& g = s.geometries[i];
    if (g.role == GeometryRole::Room) continue;
    const Mesh& m = *g.mesh;
    for (std::size_t t = 0; t < m.triangle_count(); ++t) {
      const Vec3 c = (m.corner(t, 0) + m.corner(t, 1) + m.corner(t, 2)) * (1.0 / 3.0);
      std::size_t touched = 0;
      const RoomContact::Where where = room.at(c, touched);
      if (where == RoomContact::Air) continue;
      const double a = triangle_area(m, t);
      out[base[i] + m.surface[t]].area -= a;
      if (where == RoomContact::Touching) out[touched].area -= a;
    }
  }
  for (SceneSurface& f : out) f.area = std::max(0.0, f.area);
  return out;
}

double air_volume(const Scene& s) {
  const Vec3 size = s.room.present ? s.room.max - s.room.min : s.fluid.fill_max - s.fluid.fill_min;
  const GeometrySpec* room = room_mesh(s);
  double v = room ? mesh_facts(*room->mesh).volume : size.x * size.y * size.z;
  for (const BoundarySpec& b : s.boundaries)
    if (b.shape == ShapeKind::Cylinder) v -= std::numbers::pi * b.radius * b.radius * b.height;
  for (const GeometrySpec& g : s.geometries)
    if (g.role == GeometryRole::Object) v -= mesh_facts(*g.mesh).volume;
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

namespace {

// The diffuse-field estimate over exposed_surfaces (covered_faces.hpp), each surface's
// random-incidence alpha from `alpha` (false: unknown, and the estimate empty).
template <class Alpha>
Reverberation reverberation_over(const Scene& s, bool& known, Alpha alpha) {
  known = true;
  std::vector<AbsorbingSurface> absorbing;
  for (const SceneSurface& f : exposed_surfaces(s)) {
    AbsorbingSurface a;
    a.area = f.area * f.sides;
    known = alpha(s.material(f.material), a.alpha_st) && known;
    absorbing.push_back(a);
  }
  if (!known) return {};
  return diffuse_field_t60(air_volume(s), absorbing, s.fluid.sound_speed);
}

}  // namespace

Reverberation scene_reverberation(const Scene& s, bool& known) {
  return reverberation_over(s, known, [&](const MaterialSpec& m, std::array<double, 6>& a) {
    return material_random_absorption(s, m.name, a);
  });
}

Reverberation table_reverberation(const Scene& s, bool& known) {
  return reverberation_over(s, known, [](const MaterialSpec& m, std::array<double, 6>& a) {
    a.fill(0.0);
    if (m.rigid) return true;
    for (std::size_t b = 0; b < kOctaveBands.size(); ++b) {
      if (!m.absorption_octaves.empty())
        a[b] = m.absorption_octaves[b];
      else if (!m.absorption.empty())
        a[b] = random_incidence_absorption(m.absorption[std::min(b, m.absorption.size() - 1)]);
      else
        return false;
    }
    return true;
  });
}

namespace {
std::size_t material_id(Mesh& mesh, const std::string& material) {
  auto& names = mesh.surface_names;
  const auto it = std::find(names.begin(), names.end(), material);
  if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
  names.push_back(material);
  return names.size() - 1;
}
}  // namespace

Mesh scene_surface_mesh(const Scene& s) {
  Mesh mesh;
  const std::vector<SceneSurface> surfaces = scene_surfaces(s);
  const std::vector<WallShape> shapes = surface_shapes(s);
  for (std::size_t k = 0; k < shapes.size(); ++k)
    append_triangles(shapes[k], material_id(mesh, surfaces[k].material), mesh);
  for (const GeometrySpec& g : s.geometries) {
    const Mesh& m = *g.mesh;
    const std::size_t first = mesh.vertices.size();
    mesh.vertices.insert(mesh.vertices.end(), m.vertices.begin(), m.vertices.end());
    std::vector<std::size_t> id;
    for (const std::string& material : g.surface_material)
      id.push_back(material_id(mesh, material));
    for (std::size_t t = 0; t < m.triangle_count(); ++t) {
      std::array<std::size_t, 3> c = m.triangles[t];
      for (std::size_t& v : c) v += first;
      if (g.role == GeometryRole::Room) std::swap(c[1], c[2]);  // its normals point out of the air
      mesh.triangles.push_back(c);
      mesh.surface.push_back(id[m.surface[t]]);
    }
  }
  return mesh;
}

std::vector<std::pair<std::string, double>> area_per_material(const Scene& s) {
  std::vector<std::pair<std::string, double>> out;
  for (const SceneSurface& f : exposed_surfaces(s)) {
    auto it =
        std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == f.material; });
    if (it == out.end()) it = out.insert(out.end(), {f.material, 0.0});
    it->second += f.area * f.sides;
  }
  return out;
}

ObliqueWalls oblique_hard_walls(const Scene& s) {
  ObliqueWalls out;
  const auto hard = [&](const std::string& name) {
    const MaterialSpec& m = s.material(name);
    return m.rigid || (!m.absorption.empty() &&
                       *std::min_element(m.absorption.begin(), m.absorption.end()) < kHardAlpha);
  };
  const double aligned = std::cos(kAlignedDegrees * std::numbers::pi / 180.0);
  const auto oblique = [&](const Vec3& n) {
    const double length = norm(n);
    return length > 0.0 &&
           std::max({std::abs(n.x), std::abs(n.y), std::abs(n.z)}) < aligned * length;
  };
  const auto add = [&](const std::string& section, double area) {
    if (!(area > 0.0)) return;
    out.sections.push_back("[" + section + "]");
    out.area += area;
  };
  for (const GeometrySpec& g : s.geometries) {
    if (g.moves() || !g.mesh) continue;
    double area = 0.0;
    for (std::size_t t = 0; t < g.mesh->triangle_count(); ++t) {
      const Vec3 n = g.mesh->area_vector(t);
      if (oblique(n) && hard(g.surface_material.at(g.mesh->surface[t]))) area += 0.5 * norm(n);
    }
    add("geometry." + g.name, area);
  }
  for (const BoundarySpec& b : s.boundaries) {
    if (b.wall != BoundaryWall::Ghost || b.shape == ShapeKind::Cylinder || !oblique(b.normal) ||
        !hard(b.material))
      continue;
    add("boundary." + b.name,
        b.shape == ShapeKind::Disc ? std::numbers::pi * b.radius * b.radius : b.width * b.height);
  }
  return out;
}

ObliqueGrowth oblique_growth(const Scene& s) {
  ObliqueGrowth out;
  if (!(s.time.duration > kObliqueWarnAfter)) return out;
  out.walls = oblique_hard_walls(s);
  if (out.walls.sections.empty()) return out;
  bool known = false;
  const Reverberation r = scene_reverberation(s, known);
  if (known) {
    out.absorption = r.mean_alpha[0] * r.area;
    for (double a : r.mean_alpha) out.absorption = std::min(out.absorption, a * r.area);
  }
  out.grows = kObliqueGain * out.walls.area > out.absorption;
  return out;
}

double hyperviscosity_of(const Scene& s) {
  const FluidSpec& f = s.fluid;
  if (!f.hyperviscosity_auto) return f.hyperviscosity;
  if (!oblique_growth(s).grows) return 0.0;
  // The filter's limit (config/derived.cpp, check_filters): eps c lambda^2 / dx n dt <= 1.
  const double lam = laplacian_symbol_max(f.kernel, f.h_over_dx);
  const double eps_max =
      f.spacing / (f.sound_speed * lam * lam * kHyperdiffusionEvery * s.derived.dt);
  return std::min(kAutoHyperviscosity, 0.9 * eps_max);
}

ObliqueMessage oblique_wall_message(const Scene& s) {
  const ObliqueGrowth g = oblique_growth(s);
  if (!g.grows) return {};
  const double eps = hyperviscosity_of(s);
  if (eps > 0.0 && !s.fluid.hyperviscosity_auto) return {};
  std::ostringstream o;
  o << std::setprecision(4);
  for (std::size_t k = 0; k < g.walls.sections.size(); ++k)
    o << (k > 0 ? ", " : "") << g.walls.sections[k];
  o << ": " << g.walls.area << " m^2 of hard surface (rigid, or alpha_n below " << kHardAlpha
    << ") oblique to the lattice, against the room's " << g.absorption
    << " m^2 of absorption: such walls can make the air's energy grow over long records (a rigid "
       "box turned 30 degrees at 1 cm from about 40 ms, a plaster one too); ";
  if (eps > 0.0) {
    o << "[fluid] hyperviscosity = auto turns the velocity filter on (" << eps
      << "), which keeps them bounded and absorbs a little at them (docs/limitations.md, "
         "\"Oblique mesh walls\")";
    return {o.str(), false};
  }
  o << "[fluid] hyperviscosity = 0 leaves them so; `auto` (the default) or 0.005 keeps them "
       "bounded and absorbs a little at them (docs/limitations.md, \"Oblique mesh walls\")";
  return {o.str(), true};
}

}  // namespace sphreverb
