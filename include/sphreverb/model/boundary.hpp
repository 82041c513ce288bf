// Boundary objects of the seed (Wolfe & Semwal, Sec. 3-4): rectangle, disc and cylindrical
// surface, each with a material given by a normal stiffness K (Pa/m) and damping C (Pa s/m).
//
// Wall model ("tethered force wall"). Every air particle whose rest (lattice) position lies within
// one smoothing length h of a boundary surface, inside its extent, is tied to the surface along
// the surface normal by a spring and a damper acting on the particle's frontal area A = dx^2:
//
//     F = A [ -K (d - d0) - C (v - V_wall) . n ] n  -  A M dv_n/dt n
//
// d is the particle's signed normal distance to the surface now, d0 the same at rest, n the unit
// normal at the particle (radial for a cylinder), V_wall the wall's velocity (the emitter's). At
// rest the force is zero, so the lattice is an equilibrium; a stiff spring holds the particles'
// normal motion to the wall's (a rigid wall, v.n = V.n), a damper with C = rho0 c absorbs a
// normally incident plane wave (zeta = C / (rho0 c)). The tether zone of one smoothing length keeps
// free particles on opposite sides of a thin boundary out of each other's kernel support, so
// sound does not leak through a plate. M (kg/m^2) is an optional added areal mass: the tethered
// particle moves along n as if its areal mass were rho0 dx + M (a panel absorber's mass).
//
// Time integration: the spring is explicit (stable for dt <= 0.5 / omega, omega^2 = K / (rho0 dx
// + M)); the damper acts on the new velocity v^{n+1/2} (backward Euler), so any damping is stable
// at the CFL step and a heavily damped (nearly rigid, weakly absorbing) wall costs no substeps:
//
//     (m + A M) (v+ - v-) / dt = m a_n - A K (d - d0) - A C (v+ - V)      (normal components)
//
// a_n the particle's other (pressure, viscous) acceleration. add_tether_forces adds the
// acceleration that makes the kick v+ = v- + dt a produce exactly this v+.
//
// Moving objects. A wall with a path (`[boundary.NAME] path`) and/or a rotation (`rotation`,
// `axis`, `pivot`; rotation_path.hpp) moves rigidly. Its pose at time t maps a point x of the shape
// as written (its pose at t = 0) to
//
//     x(t) = pivot(t) + R(t) (x - pivot),   pivot(t) = pivot + path.position(t) - center
//
// (the shape's `center` is the path's first keyframe; without a rotation R = 1 and the centre
// is path.position(t)); its normal and in-plane axes turn by R(t). A point x on or near the
// surface moves at
//
//     V(x, t) = path.velocity(t) + omega(t) x (x - pivot(t))
//
// (a door's far edge fastest, |V| = omega r at the distance r from its hinge). Every formula
// above holds in the wall's frame with d measured from the posed surface and V_wall = V(x).
// Its tethers are found from the particles' current positions against the wall's pose at the
// rebuild (the set changes as the wall slides past particles): a particle whose rest site lay in
// the wall's tether zone at t = 0 (same side, in extent) keeps the spring to its rest distance
// d0 (a wall moving along its normal carries its layer of air with it); any other particle in
// the zone is held by the rigid-wall condition alone, (v+ - V) . n = 0 (no spring: it stays at
// the distance it entered at). Both depend only on the particle's id, its position and the time,
// so they are the same on any rank count and after a restart.
//
// Moving mesh objects. A closed mesh ([geometry.NAME] role = object with a path or a turn) is such
// a wall too: its WallShape holds the mesh (MeshBody) as placed at t = 0, and a probe maps the
// point back into that pose, x0 = c + R(t)^T (x - c(t)) (c the reference point, c(t) = point_at(c,
// t)), takes the nearest surface point p there (MeshQuery::closest) and returns
//
//     d = s |x0 - p|,   n = R(t) s (x0 - p) / |x0 - p|
//
// with s = +1 outside the solid and -1 inside: the signed distance and its gradient, the outward
// face normal over a face, turning round an edge or corner (as a cylinder's radial normal does).
// Every point is in extent (a closed surface). Lattice sites inside the solid or closer than
// kMeshClearance dx to its surface at t = 0 stay empty (as at ghost-walled meshes).
constexpr double kMeshClearance = 0.25;
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/mesh.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "sphreverb/model/path.hpp"
#include "sphreverb/model/rotation_path.hpp"
#include "sphreverb/model/shape.hpp"

namespace sphreverb {

struct WallProbe {
  bool in_extent = false;  // the point projects onto the surface (within size/radius/height)
  double distance = 0.0;   // m, signed distance along `normal` (cylinder: r - R)
  Vec3 normal;             // unit normal at the point (cylinder: radial, outwards)
};

// A closed mesh (the solid of a moving object) in its pose at t = 0, with its queries.
struct MeshBody {
  MeshBody(std::shared_ptr<const Mesh> mesh, const Vec3& reference);
  std::shared_ptr<const Mesh> mesh;  // m, checked (closed, oriented, no self-intersection)
  MeshQuery query;
  Vec3 reference;  // m, the point a path moves (its first keyframe)
  Vec3 lo, hi;     // m, the bounding box of the vertices
};

struct WallShape {
  ShapeKind shape = ShapeKind::Rectangle;  // ignored when `body` is set
  Vec3 center, normal, u, v;  // normal, u, v: orthonormal frame (rectangle size along u, v)
  double width = 0.0, height = 0.0, radius = 0.0;
  // A mesh surface: center is its reference point, (u, v, normal) = (x, y, z) at t = 0, so that
  // a pose's u, v, normal are the columns of R(t).
  std::shared_ptr<const MeshBody> body;

  static WallShape from(const Shape&);
  static WallShape disc(const Vec3& center, const Vec3& normal, double radius);
  static WallShape mesh(std::shared_ptr<const MeshBody> body);
  // False only if the surface is farther than `range` (m) from p: a cheap test before probe()
  // for a mesh (MeshQuery::near), always true for the other shapes.
  bool may_reach(const Vec3& p, double range) const;
  // Probe of point p with the surface shifted by `shift` (m, the emitter's displacement).
  WallProbe probe(const Vec3& p, const Vec3& shift = {}) const;
  // m, the distance of point p from the surface (within its extent or from its edge); a mesh: 0
  // inside its solid.
  double distance(const Vec3& p) const;

 private:
  WallProbe probe_mesh(const Vec3& p) const;
};

struct Wall {
  WallShape shape;
  double stiffness = 0.0;   // Pa/m
  double damping = 0.0;     // Pa s/m
  double mass = 0.0;        // kg/m^2, added areal mass
  bool moving = false;      // the emitter: shifted by its displacement along its normal
  Path path{};              // a moving object: the centre's path (empty or one keyframe: fixed)
  RotationPath rotation{};  // a moving object: its turn about an axis (no keyframes: none)

  // A moving object: it follows a path, turns, or both.
  bool follows_path() const { return path.moving() || rotation.moving(); }
  // m, the translation of the centre at stage-2 time t (s) from its pose at t = 0.
  Vec3 offset(double t) const { return path.moving() ? path.position(t) - shape.center : Vec3{}; }
  // The shape at its pose at time t (s): centre, normal and in-plane axes moved as above. A wall
  // that does not rotate keeps its axes' bits and its centre is shape.center + offset(t).
  WallShape pose(double t) const;
  // m, x(t) above: where the object's point x0 (m, in the pose at t = 0) is at time t (s).
  Vec3 point_at(const Vec3& x0, double t) const;
  // m/s, V(x, t) above: the velocity of the object's point at x (m, in its pose at time t).
  Vec3 velocity_at(const Vec3& x, double t) const;
  // m/s, an upper bound of the fastest surface point's speed over the whole motion: the
  // path's top speed plus the top turning rate times the farthest surface point's distance from
  // the axis (the corner of a rectangle, the rim of a disc or cylinder).
  double max_surface_speed() const;
  // m, the largest distance of a surface point from the pivot (0 without a rotation).
  double reach() const;
};

// One tethered particle.
struct Tether {
  std::size_t particle;  // local index (owned)
  int wall;              // index into the wall list
  double d0;             // m, rest signed distance
  bool spring = true;    // false: a moving wall's rigid condition only (v+ - V) . n = 0
};

// The six faces of the box [lo, hi] as rectangles with normals pointing into the box, in face
// order 2 axis + side (x_min, x_max, y_min, ..., z_max); each spans the box along the two other
// axes, whatever in-plane frame WallShape::from chose.
std::array<WallShape, 6> box_faces(const Vec3& lo, const Vec3& hi);

// Tethers of the owned particles [0, n_owned): every (particle, wall) with the rest position
// rest_position(i) (m) within `range` (m, one smoothing length) of the wall and in its extent;
// sorted by particle, then wall. Walls that follow a path are probed at `position(i)` (m, the
// particle's current position) against the wall's pose at time t (s) instead (see above);
// `position` may be empty when no wall follows a path.
std::vector<Tether> find_tethers(std::size_t n_owned,
                                 const std::function<Vec3(std::size_t)>& rest_position,
                                 const std::vector<Wall>& walls, double range,
                                 const std::function<Vec3(std::size_t)>& position = {},
                                 double t = 0.0);

// Adds the tether accelerations to the owned particles' accelerations, which on entry hold the
// other forces / mass. The moving wall (emitter) is displaced by `shift` (m) along its normal and
// moves at `speed` (m/s). `area` = dx^2 (m^2), `mass` the particle mass (kg), `dt` the step (s)
// of the kick that follows. Post: the kick gives the tethered particles the velocity above.
// Walls that follow a path stand at their pose at time t (s, the positions' time) and move at
// their velocity at t + dt/2 (the kick's mid-point).
void add_tether_forces(Particles& p, const std::vector<Tether>& tethers,
                       const std::vector<Wall>& walls, double shift, double speed, double area,
                       double mass, double dt, double t = 0.0);

// True if the lattice site p is kept as air: not within dx/2 of any fixed wall surface (in
// extent), not in a mesh wall's solid nor within kMeshClearance dx of it. Sites on the emitter (the
// moving wall) are kept: tethered to it, they are its surface. A wall that follows a path removes
// the sites at its pose at t = 0.
bool is_air_site(const std::vector<Wall>& walls, const Vec3& p, double dx);

}  // namespace sphreverb
