#include "sphreverb/model/boundary.hpp"

#include <algorithm>
#include <cmath>

namespace sphreverb {

namespace {
// In-plane axes of a plane with unit normal n: u = normalised(n x ref), v = n x u, with ref = z
// unless n is (nearly) along z, then ref = x. Documented in docs/scene-reference.md for `size = W
// H`.
void plane_axes(const Vec3& n, Vec3& u, Vec3& v) {
  const Vec3 ref = std::abs(n.z) > 0.9 ? Vec3{1, 0, 0} : Vec3{0, 0, 1};
  u = normalized(cross(n, ref));
  v = cross(n, u);
}
}  // namespace

WallShape WallShape::from(const Shape& b) {
  WallShape w;
  w.shape = b.kind;
  w.center = b.center;
  w.normal = normalized(b.normal);
  plane_axes(w.normal, w.u, w.v);
  w.width = b.width, w.height = b.height, w.radius = b.radius;
  return w;
}

WallShape WallShape::disc(const Vec3& center, const Vec3& normal, double radius) {
  Shape b;
  b.kind = ShapeKind::Disc, b.center = center, b.normal = normal, b.radius = radius;
  return from(b);
}

MeshBody::MeshBody(std::shared_ptr<const Mesh> m, const Vec3& ref)
    : mesh(std::move(m)), query(*mesh), reference(ref), lo(mesh->vertices.at(0)), hi(lo) {
  for (const Vec3& x : mesh->vertices)
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], x[a]), hi[a] = std::max(hi[a], x[a]);
}

WallShape WallShape::mesh(std::shared_ptr<const MeshBody> body) {
  WallShape w;
  w.center = body->reference;
  w.u = {1, 0, 0}, w.v = {0, 1, 0}, w.normal = {0, 0, 1};
  w.body = std::move(body);
  return w;
}

namespace {
// The point x of a posed mesh surface w mapped back into its pose at t = 0 (boundary.hpp):
// x0 = c + R^T (x - c(t)), R's columns being w.u, w.v, w.normal.
Vec3 to_body(const WallShape& w, const Vec3& x) {
  const Vec3 r = x - w.center;
  return w.body->reference + Vec3{dot(r, w.u), dot(r, w.v), dot(r, w.normal)};
}
// The body-frame vector a turned into the pose: R a.
Vec3 from_body(const WallShape& w, const Vec3& a) { return w.u * a.x + w.v * a.y + w.normal * a.z; }
}  // namespace

bool WallShape::may_reach(const Vec3& p, double range) const {
  return !body || body->query.near(to_body(*this, p), range);
}

WallProbe WallShape::probe_mesh(const Vec3& p) const {
  const Vec3 x0 = to_body(*this, p);
  const ClosestPoint c = body->query.closest(x0);
  const Vec3 r = x0 - c.point;
  // Outside or inside: the face normal decides where it is clear (over a face, or within 60
  // degrees of it at an edge or corner), the exact side test elsewhere.
  const double along = dot(r, c.normal);
  double sign = 1.0;
  if (std::abs(along) > 0.5 * c.distance && c.distance > 0.0)
    sign = along > 0.0 ? 1.0 : -1.0;
  else
    sign = body->query.side(x0) == MeshSide::Inside ? -1.0 : 1.0;
  WallProbe out;
  out.in_extent = true;
  out.distance = sign * c.distance;
  // The distance's gradient; on the surface itself (no direction) the face normal.
  const Vec3 n = c.distance > 1e-12 ? r * (sign / c.distance) : c.normal;
  out.normal = from_body(*this, n);
  return out;
}

WallProbe WallShape::probe(const Vec3& p, const Vec3& shift) const {
  if (body) return probe_mesh(p - shift);
  const Vec3 r = p - (center + shift);
  const double along = dot(r, normal);
  WallProbe out;
  switch (shape) {
    case ShapeKind::Rectangle:
      out.in_extent = std::abs(dot(r, u)) <= 0.5 * width && std::abs(dot(r, v)) <= 0.5 * height;
      out.distance = along, out.normal = normal;
      break;
    case ShapeKind::Disc:
      out.in_extent = norm(r - along * normal) <= radius;
      out.distance = along, out.normal = normal;
      break;
    case ShapeKind::Cylinder: {
      const Vec3 radial = r - along * normal;
      const double rr = norm(radial);
      out.in_extent = std::abs(along) <= 0.5 * height && rr > 0.0;
      out.distance = rr - radius;
      out.normal = rr > 0.0 ? radial * (1.0 / rr) : u;
      break;
    }
  }
  return out;
}

WallShape Wall::pose(double t) const {
  WallShape w = shape;
  if (!rotation.moving()) {
    w.center = shape.center + offset(t);
    return w;
  }
  w.center = point_at(shape.center, t);
  w.normal = rotation.turn(shape.normal, t);
  w.u = rotation.turn(shape.u, t);
  w.v = rotation.turn(shape.v, t);
  return w;
}

Vec3 Wall::point_at(const Vec3& x0, double t) const {
  if (!rotation.moving()) return x0 + offset(t);
  return rotation.pivot() + offset(t) + rotation.turn(x0 - rotation.pivot(), t);
}

Vec3 Wall::velocity_at(const Vec3& x, double t) const {
  Vec3 v = path.moving() ? path.velocity(t) : Vec3{};
  if (rotation.moving()) v = v + cross(rotation.omega(t), x - (rotation.pivot() + offset(t)));
  return v;
}

double Wall::reach() const {
  if (!rotation.moving()) return 0.0;
  const Vec3 a = rotation.axis();
  // Distance of a point from the axis through the pivot.
  const auto off_axis = [&](const Vec3& x) {
    const Vec3 r = x - rotation.pivot();
    return norm(r - a * dot(a, r));
  };
  const WallShape& w = shape;
  if (w.body) {  // the farthest vertex
    double best = 0.0;
    for (const Vec3& x : w.body->mesh->vertices) best = std::max(best, off_axis(x));
    return best;
  }
  switch (w.shape) {
    case ShapeKind::Rectangle: {  // convex: the farthest point is a corner
      double best = 0.0;
      for (const double su : {-0.5, 0.5})
        for (const double sv : {-0.5, 0.5})
          best = std::max(best, off_axis(w.center + w.u * (su * w.width) + w.v * (sv * w.height)));
      return best;
    }
    case ShapeKind::Disc:
      return off_axis(w.center) + w.radius;
    case ShapeKind::Cylinder:
      return off_axis(w.center) + std::hypot(w.radius, 0.5 * w.height);
  }
  return 0.0;
}

double Wall::max_surface_speed() const {
  return (path.moving() ? path.max_speed() : 0.0) +
         (rotation.moving() ? rotation.max_rate() * reach() : 0.0);
}

double WallShape::distance(const Vec3& p) const {
  if (body) {
    const Vec3 x0 = to_body(*this, p);
    return body->query.side(x0) == MeshSide::Inside ? 0.0 : body->query.closest(x0).distance;
  }
  const Vec3 r = p - center;
  const double along = dot(r, normal);
  switch (shape) {
    case ShapeKind::Rectangle: {
      const double du = std::max(0.0, std::abs(dot(r, u)) - 0.5 * width);
      const double dv = std::max(0.0, std::abs(dot(r, v)) - 0.5 * height);
      return std::hypot(along, std::hypot(du, dv));
    }
    case ShapeKind::Disc:
      return std::hypot(along, std::max(0.0, norm(r - along * normal) - radius));
    case ShapeKind::Cylinder:
      return std::hypot(norm(r - along * normal) - radius,
                        std::max(0.0, std::abs(along) - 0.5 * height));
  }
  return 0.0;
}

std::array<WallShape, 6> box_faces(const Vec3& lo, const Vec3& hi) {
  std::array<WallShape, 6> faces;
  const Vec3 mid = 0.5 * (lo + hi), size = hi - lo;
  for (int axis = 0; axis < 3; ++axis) {
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    for (int side = 0; side < 2; ++side) {
      Shape b;
      b.kind = ShapeKind::Rectangle;
      b.center = mid;
      b.center[axis] = side == 0 ? lo[axis] : hi[axis];
      b.normal[axis] = side == 0 ? 1.0 : -1.0;
      WallShape w = WallShape::from(b);
      // Extent along the two other axes, whatever in-plane frame plane_axes chose.
      w.width = std::abs(w.u[a1]) > 0.5 ? size[a1] : size[a2];
      w.height = std::abs(w.u[a1]) > 0.5 ? size[a2] : size[a1];
      faces[2 * axis + side] = w;
    }
  }
  return faces;
}

std::vector<Tether> find_tethers(std::size_t n_owned,
                                 const std::function<Vec3(std::size_t)>& rest_position,
                                 const std::vector<Wall>& walls, double range,
                                 const std::function<Vec3(std::size_t)>& position, double t) {
  std::vector<Tether> out;
  std::vector<WallShape> posed(walls.size());
  for (std::size_t w = 0; w < walls.size(); ++w)
    if (walls[w].follows_path()) posed[w] = walls[w].pose(t);
  for (std::size_t i = 0; i < n_owned; ++i)
    for (std::size_t w = 0; w < walls.size(); ++w) {
      const bool object = walls[w].follows_path();
      // A mesh far from the point: no probe (MeshQuery::near is much cheaper than closest).
      if (object && !posed[w].may_reach(position(i), range)) continue;
      const Vec3 x_rest = rest_position(i);
      const bool reach_rest = walls[w].shape.may_reach(x_rest, range);
      const WallProbe rest = reach_rest ? walls[w].shape.probe(x_rest) : WallProbe{};
      const bool rest_in = reach_rest && rest.in_extent && std::abs(rest.distance) < range;
      if (!object) {
        if (rest_in) out.push_back({i, static_cast<int>(w), rest.distance});
        continue;
      }
      // A moving object: the zone around its pose at t; the rest distance's spring only for a
      // particle that started in the zone, on the side it is on now.
      const WallProbe now = posed[w].probe(position(i));
      if (!(now.in_extent && std::abs(now.distance) < range)) continue;
      const bool same_side = (now.distance < 0.0) == (rest.distance < 0.0);
      if (rest_in && same_side)
        out.push_back({i, static_cast<int>(w), rest.distance});
      else
        out.push_back({i, static_cast<int>(w), now.distance, false});
    }
  return out;
}

void add_tether_forces(Particles& p, const std::vector<Tether>& tethers,
                       const std::vector<Wall>& walls, double shift, double speed, double area,
                       double mass, double dt, double time) {
  // The moving objects' poses (the same for all their tethers); their velocities at the kick's
  // mid-point, translation alone the same for all their tethers too.
  std::vector<WallShape> posed(walls.size());
  std::vector<Vec3> velocities(walls.size());
  for (std::size_t w = 0; w < walls.size(); ++w)
    if (walls[w].follows_path())
      posed[w] = walls[w].pose(time), velocities[w] = walls[w].velocity_at({}, time + 0.5 * dt);
  for (const Tether& t : tethers) {
    const Wall& w = walls[t.wall];
    const bool object = w.follows_path();
    const Vec3 x = p.position(t.particle);
    const WallProbe pr = object ? posed[t.wall].probe(x)
                                : w.shape.probe(x, w.moving ? w.shape.normal * shift : Vec3{});
    const Vec3 v_wall = !object               ? Vec3{}
                        : w.rotation.moving() ? w.velocity_at(x, time + 0.5 * dt)
                                              : velocities[t.wall];
    const double wall_speed = w.moving ? speed * dot(w.shape.normal, pr.normal)
                              : object ? dot(v_wall, pr.normal)
                                       : 0.0;
    const std::size_t i = t.particle;
    const double vn = dot(p.velocity(i), pr.normal) - wall_speed;
    const double an = p.ax[i] * pr.normal.x + p.ay[i] * pr.normal.y + p.az[i] * pr.normal.z;
    if (!t.spring) {
      // The rigid condition alone: the kick sets the normal velocity to the wall's.
      const double f = -vn / dt - an;
      p.ax[i] += f * pr.normal.x;
      p.ay[i] += f * pr.normal.y;
      p.az[i] += f * pr.normal.z;
      continue;
    }
    // (m + A M)(v+ - v-)/dt = m a_n - A K (d - d0) - A C (v+ - V)   (boundary.hpp), solved for
    // the added acceleration f = (v+ - v-)/dt - a_n:
    //   f = [-(A M a_n + A K (d - d0)) / mu - g (a_n + (v- - V)/dt)] / (1 + g),
    //   mu = m + A M,  g = A C dt / mu.   (M = C = 0: f = -A K (d - d0) / m, the plain spring.)
    const double mu = mass + area * w.mass;
    const double g = area * w.damping * dt / mu;
    const double f = (-(area * w.mass * an + area * w.stiffness * (pr.distance - t.d0)) / mu -
                      g * (an + vn / dt)) /
                     (1.0 + g);
    p.ax[i] += f * pr.normal.x;
    p.ay[i] += f * pr.normal.y;
    p.az[i] += f * pr.normal.z;
  }
}

bool is_air_site(const std::vector<Wall>& walls, const Vec3& p, double dx) {
  for (const Wall& w : walls) {
    // The emitter keeps its sites: they are tethered to it and move with it. Left empty they
    // were a hole in the kernel sums of their neighbours that shifted a small box's modes by
    // up to +3 % (+6.6 % with the fourth-order gradient; docs/theory/emitter-receivers.md).
    if (w.moving) continue;
    if (w.shape.body) {  // a mesh: its solid and the sites within kMeshClearance dx of it
      const MeshBody& b = *w.shape.body;
      bool in_box = true;
      for (int a = 0; a < 3; ++a) in_box = in_box && p[a] > b.lo[a] - dx && p[a] < b.hi[a] + dx;
      if (in_box && w.shape.probe(p).distance < kMeshClearance * dx) return false;
      continue;
    }
    const WallProbe pr = w.shape.probe(p);
    if (pr.in_extent && std::abs(pr.distance) < 0.5 * dx * (1.0 - 1e-9)) return false;
  }
  return true;
}

}  // namespace sphreverb
