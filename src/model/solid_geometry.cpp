#include "sphreverb/model/solid_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace sphreverb {

struct SolidGeometry::Part {
  GeometryPart spec;
  std::optional<MeshQuery> query;                  // meshes only
  Vec3 lo, hi;                                     // bounding box, m
  std::vector<std::vector<std::size_t>> incident;  // per vertex: its triangles
  explicit Part(GeometryPart p) : spec(std::move(p)) {
    if (!spec.mesh) {
      lo = spec.sheet.lo(), hi = spec.sheet.hi();
      return;
    }
    query.emplace(*spec.mesh);
    const Mesh& m = *spec.mesh;
    lo = hi = m.vertices.empty() ? Vec3{} : m.vertices[0];
    for (const Vec3& v : m.vertices)
      for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], v[a]), hi[a] = std::max(hi[a], v[a]);
    incident.resize(m.vertices.size());
    for (std::size_t t = 0; t < m.triangles.size(); ++t)
      for (int k = 0; k < 3; ++k) incident[m.triangles[t][k]].push_back(t);
  }
  bool sheet() const { return !spec.mesh; }
  double distance(const Vec3& x) const {
    return sheet() ? spec.sheet.closest(x).distance : query->closest(x).distance;
  }
  // False only if the part lies farther than r from x (then distance(x) > r).
  bool near(const Vec3& x, double r) const { return sheet() || query->near(x, r); }
  bool in_box(const Vec3& x) const {
    for (int a = 0; a < 3; ++a)
      if (x[a] < lo[a] || x[a] > hi[a]) return false;
    return true;
  }
};

SolidGeometry::SolidGeometry(std::vector<GeometryPart> parts) {
  for (auto& p : parts) parts_.push_back(std::make_unique<Part>(std::move(p)));
}
SolidGeometry::SolidGeometry() = default;
SolidGeometry::SolidGeometry(SolidGeometry&&) noexcept = default;
SolidGeometry& SolidGeometry::operator=(SolidGeometry&&) noexcept = default;
SolidGeometry::~SolidGeometry() = default;

bool SolidGeometry::has_room() const {
  for (const auto& p : parts_)
    if (p->spec.room) return true;
  return false;
}

bool SolidGeometry::is_air(const Vec3& x) const {
  if (!in_air_region(x)) return false;
  if (clearance_ <= 0.0) return true;
  for (const auto& p : parts_)
    if (p->near(x, clearance_) && p->distance(x) <= clearance_) return false;
  return true;
}

bool SolidGeometry::in_air_region(const Vec3& x) const {
  for (const auto& p : parts_) {
    if (p->sheet()) {
      if (p->in_box(x) && p->spec.sheet.solid(x)) return false;
    } else if (p->spec.room) {
      if (!p->in_box(x) || p->query->side(x) != MeshSide::Inside) return false;
    } else if (p->in_box(x) && p->query->side(x) != MeshSide::Outside) {
      return false;
    }
  }
  return true;
}

WallContact SolidGeometry::contact(const Vec3& x) const {
  WallContact c;
  c.distance = std::numeric_limits<double>::infinity();
  if (parts_.empty()) return c;
  ClosestPoint best;
  SheetPoint best_sheet;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    if (parts_[i]->sheet()) {
      const SheetPoint sp = parts_[i]->spec.sheet.closest(x);
      if (sp.distance < c.distance) c.distance = sp.distance, c.part = i, best_sheet = sp;
    } else {
      const ClosestPoint cp = parts_[i]->query->closest(x);
      if (cp.distance < c.distance) c.distance = cp.distance, c.part = i, best = cp;
    }
  }
  const Vec3 away = x - (parts_[c.part]->sheet() ? best_sheet.point : best.point);
  const double tiny = 1e-12 * std::max(1.0, c.distance);
  const auto add_face = [&](const Vec3& nt, const Part& p) {
    for (int f = 0; f < c.faces; ++f)
      if (dot(c.normal[f], nt) > 1.0 - 1e-9) return;
    if (c.faces == 3) return;
    c.normal[c.faces] = nt;
    c.admittance[c.faces] = p.spec.admittance.empty() ? 0.0 : p.spec.admittance[0];
    if (!p.spec.reacting.empty()) c.reacting[c.faces] = p.spec.reacting[0];
    ++c.faces;
  };
  if (parts_[c.part]->sheet()) {
    c.point = best_sheet.point;
    add_face(best_sheet.normal, *parts_[c.part]);
  } else {
    add_mesh_faces(c, best, x);
  }
  // Boundary shapes meeting the nearest point (an edge or a corner shared with the best part):
  // their faces that x lies behind, in part order.
  const double tol = 1e-9 * std::max(1.0, c.distance);
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    if (i == c.part || !parts_[i]->sheet()) continue;
    const SheetPoint sp = parts_[i]->spec.sheet.closest(x);
    if (sp.distance > c.distance + tol || norm(sp.point - c.point) > tol) continue;
    if (dot(sp.normal, away) > tiny) add_face(sp.normal, *parts_[i]);
  }
  return c;
}

void SolidGeometry::add_mesh_faces(WallContact& c, const ClosestPoint& best, const Vec3& x) const {
  const Part& part = *parts_[c.part];
  const Mesh& m = *part.spec.mesh;
  const double sign = part.spec.room ? 1.0 : -1.0;  // outward normals of an object point into air
  c.point = best.point;
  // Where on its triangle the point lies: barycentric coordinates, a corner or an edge when some
  // are (nearly) zero; then the triangles around that corner or edge.
  const auto& tri = m.triangles[best.triangle];
  const Vec3 a = m.vertices[tri[0]], b = m.vertices[tri[1]], d = m.vertices[tri[2]];
  const Vec3 n = m.area_vector(best.triangle);
  const double area2 = dot(n, n);
  const double w[3] = {dot(cross(b - c.point, d - c.point), n) / area2,
                       dot(cross(d - c.point, a - c.point), n) / area2,
                       dot(cross(a - c.point, b - c.point), n) / area2};
  constexpr double kOnFeature = 1e-9;
  std::vector<std::size_t> around;
  int zero = 0;
  for (int k = 0; k < 3; ++k) zero += w[k] < kOnFeature ? 1 : 0;
  if (zero == 0) {
    around.push_back(best.triangle);
  } else if (zero == 1) {  // the edge opposite the zero coordinate
    int k0 = 0;
    while (!(w[k0] < kOnFeature)) ++k0;
    const std::size_t v1 = tri[(k0 + 1) % 3], v2 = tri[(k0 + 2) % 3];
    for (std::size_t t : part.incident[v1])
      if (std::find(m.triangles[t].begin(), m.triangles[t].end(), v2) != m.triangles[t].end())
        around.push_back(t);
  } else {  // the corner with the largest coordinate
    int k1 = 0;
    for (int k = 1; k < 3; ++k)
      if (w[k] > w[k1]) k1 = k;
    around = part.incident[tri[k1]];
  }
  std::sort(around.begin(), around.end());
  // The triangle itself first, then the distinct planes x lies behind.
  const Vec3 away = x - c.point;
  const double tiny = 1e-12 * std::max(1.0, c.distance);
  const auto add = [&](std::size_t t) {
    const Vec3 nt = sign * normalized(m.area_vector(t));
    for (int f = 0; f < c.faces; ++f)
      if (dot(c.normal[f], nt) > 1.0 - 1e-9) return;
    if (c.faces == 3) return;
    c.normal[c.faces] = nt;
    const std::size_t s = m.surface[t];
    c.admittance[c.faces] = s < part.spec.admittance.size() ? part.spec.admittance[s] : 0.0;
    if (s < part.spec.reacting.size()) c.reacting[c.faces] = part.spec.reacting[s];
    ++c.faces;
  };
  add(best.triangle);
  if (zero > 0)
    for (std::size_t t : around)
      if (t != best.triangle && dot(sign * m.area_vector(t), away) > tiny) add(t);
}

}  // namespace sphreverb
