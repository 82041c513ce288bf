// Tests of the mesh queries (mesh_query.hpp): inside/boundary/outside exactly, on an axis-aligned
// and a rotated box and an icosphere; the closest point, outward normal, surface and distance on
// faces, edges and corners; the mirror point of a ghost-particle wall lands on the other side;
// near() never misses a surface within its radius.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "mesh_fixtures.hpp"
#include "sphreverb/model/mesh_io.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "vec_expect.hpp"

namespace sphreverb {
namespace {

using namespace testing_mesh;

using test::expect_vec_near;

Mesh unit_box(const TempDir& dir, const MeshLoadOptions& o = {}) {
  write_obj(dir / "box.obj", box({0, 0, 0}, {1, 1, 1}));
  return load_mesh(dir / "box.obj", o);
}

// The outward normal of the box face named x-, x+, ... (axis-aligned box).
Vec3 face_normal(const std::string& name) {
  const double s = name[1] == '+' ? 1.0 : -1.0;
  return name[0] == 'x' ? Vec3{s, 0, 0} : (name[0] == 'y' ? Vec3{0, s, 0} : Vec3{0, 0, s});
}

TEST(MeshQuery, SidesOfTheUnitBox) {
  TempDir dir;
  const Mesh m = unit_box(dir);
  const MeshQuery q(m);
  EXPECT_TRUE(q.inside({0.5, 0.5, 0.5}));
  EXPECT_TRUE(q.inside({1e-12, 1e-12, 1 - 1e-12}));
  EXPECT_EQ(q.side({1 + 1e-15, 0.5, 0.5}), MeshSide::Outside);
  EXPECT_EQ(q.side({-1e-300, 0.5, 0.5}), MeshSide::Outside);
  EXPECT_EQ(q.side({0.5, 0.5, 0.0}), MeshSide::Boundary);  // on a face, on a diagonal too
  EXPECT_EQ(q.side({0.25, 1.0, 0.75}), MeshSide::Boundary);
  EXPECT_EQ(q.side({1.0, 1.0, 1.0}), MeshSide::Boundary);  // a corner
  EXPECT_EQ(q.side({3, -2, 0.5}), MeshSide::Outside);
}

TEST(MeshQuery, RotatedBoxSidesAreExact) {
  TempDir dir;
  MeshLoadOptions o;
  o.rotation = Rotation::euler_xyz_degrees({0, 0, 17});
  o.translation = {1, 2, 3};
  write_obj(dir / "box.obj", box({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}));
  const Mesh m = load_mesh(dir / "box.obj", o);
  const MeshQuery q(m);
  auto world = [&](Vec3 local) { return o.rotation.apply(local) + o.translation; };
  for (double u : {-0.499, -0.25, 0.0, 0.3, 0.499}) {
    EXPECT_TRUE(q.inside(world({u, 0.499, -0.499}))) << u;
    EXPECT_EQ(q.side(world({0.501, u, 0.2})), MeshSide::Outside) << u;
    EXPECT_EQ(q.side(world({u, -0.501, 0.0})), MeshSide::Outside) << u;
  }
  // The axis-aligned box's corners lie inside the rotated one or outside, never on it.
  EXPECT_EQ(q.side(Vec3{0.5, 0.5, 0} + o.translation), MeshSide::Outside);
  EXPECT_TRUE(q.inside(Vec3{0.4, 0.0, 0} + o.translation));
  for (const Vec3& v : m.vertices) EXPECT_EQ(q.side(v), MeshSide::Boundary);
}

TEST(MeshQuery, ClosestPointOnAFace) {
  TempDir dir;
  const Mesh m = unit_box(dir);
  const MeshQuery q(m);
  const ClosestPoint out = q.closest({0.3, 0.4, -0.2});
  expect_vec_near(out.point, {0.3, 0.4, 0.0}, 1e-15);
  expect_vec_near(out.normal, {0, 0, -1}, 0.0);
  EXPECT_EQ(m.surface_names[out.surface], "z-");
  EXPECT_EQ(m.surface[out.triangle], out.surface);
  EXPECT_NEAR(out.distance, 0.2, 1e-15);

  const ClosestPoint in = q.closest({0.3, 0.9, 0.6});  // inside, nearest to y+
  expect_vec_near(in.point, {0.3, 1.0, 0.6}, 1e-15);
  expect_vec_near(in.normal, {0, 1, 0}, 0.0);
  EXPECT_EQ(m.surface_names[in.surface], "y+");
  EXPECT_NEAR(in.distance, 0.1, 1e-15);
}

TEST(MeshQuery, ClosestPointOnAnEdgeAndACorner) {
  TempDir dir;
  const Mesh m = unit_box(dir);
  const MeshQuery q(m);
  const ClosestPoint edge = q.closest({0.5, -0.3, -0.4});
  expect_vec_near(edge.point, {0.5, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(edge.distance, 0.5, 1e-15);
  const std::string e = m.surface_names[edge.surface];
  EXPECT_TRUE(e == "y-" || e == "z-") << e;
  expect_vec_near(edge.normal, face_normal(e), 0.0);

  const ClosestPoint corner = q.closest({1.2, 1.3, 1.4});
  expect_vec_near(corner.point, {1, 1, 1}, 1e-15);
  EXPECT_NEAR(corner.distance, std::sqrt(0.04 + 0.09 + 0.16), 1e-15);
  const std::string c = m.surface_names[corner.surface];
  EXPECT_TRUE(c == "x+" || c == "y+" || c == "z+") << c;
  expect_vec_near(corner.normal, face_normal(c), 0.0);
}

TEST(MeshQuery, MirrorPointAcrossTheNearestSurfaceIsOnTheOtherSide) {
  TempDir dir;
  MeshLoadOptions o;
  o.rotation = Rotation::axis_angle_degrees({1, 2, 3}, 40);
  const Mesh m = unit_box(dir, o);
  const MeshQuery q(m);
  const Vec3 centre = o.rotation.apply({0.5, 0.5, 0.5});
  const Vec3 dirs[] = {{1, 0.2, 0.1}, {-0.3, 1, 0.2}, {0.1, -0.2, -1}};
  for (const Vec3& d : dirs) {
    const Vec3 solid = centre + o.rotation.apply(normalized(d)) * 0.55;  // just outside a face
    ASSERT_EQ(q.side(solid), MeshSide::Outside);
    const ClosestPoint c = q.closest(solid);
    const Vec3 mirror = 2.0 * c.point - solid;
    EXPECT_TRUE(q.inside(mirror));
    // The closest point is the foot of the normal: solid - point is along the normal.
    expect_vec_near(solid - c.point, c.normal * c.distance, 1e-12);
    EXPECT_NEAR(norm(c.normal), 1.0, 1e-15);
  }
}

TEST(MeshQuery, IcosphereSidesAndDistances) {
  TempDir dir;
  const double a = 0.5;
  write_obj(dir / "sphere.obj", icosphere(a, 3));
  const Mesh m = load_mesh(dir / "sphere.obj");
  const MeshQuery q(m);
  // The polyhedron lies between the sphere of radius a and its inscribed sphere (r > 0.995 a
  // at 3 subdivisions): points clear of that shell are classified by the sphere.
  for (const Vec3& d : {Vec3{1, 0, 0}, Vec3{0.3, -0.5, 0.8}, Vec3{-1, -1, -1}}) {
    const Vec3 u = normalized(d);
    EXPECT_TRUE(q.inside(u * (0.99 * a)));
    EXPECT_FALSE(q.inside(u * (1.001 * a)));
    const ClosestPoint c = q.closest(u * (2 * a));
    EXPECT_NEAR(c.distance, a, 0.006 * a);
    EXPECT_GT(dot(c.normal, u), 0.99);  // outward
  }
}

TEST(MeshQuery, NearIsTrueWheneverTheSurfaceIsWithinTheRadius) {
  // near() may only skip closest() where the answer is "farther than r": over a grid of points
  // in and around an icosphere, distance <= r implies near(x, r), and near is false far away.
  TempDir dir;
  write_obj(dir / "sphere.obj", icosphere(0.5, 2));
  const Mesh m = load_mesh(dir / "sphere.obj");
  const MeshQuery q(m);
  int near_count = 0, within_count = 0;
  for (const double r : {0.0025, 0.01, 0.05})
    for (int i = -14; i <= 14; ++i)
      for (int j = -14; j <= 14; ++j)
        for (int k = -14; k <= 14; ++k) {
          const Vec3 x{0.0413 * i, 0.0397 * j, 0.0421 * k};
          const bool within = q.closest(x).distance <= r;
          const bool near = q.near(x, r);
          if (within) {
            EXPECT_TRUE(near) << x.x << " " << x.y << " " << x.z << " r " << r;
          }
          within_count += within, near_count += near;
        }
  EXPECT_GT(within_count, 100);
  EXPECT_LT(near_count, 29 * 29 * 29);    // most points are far from the surface at every radius
  EXPECT_FALSE(q.near({0, 0, 0}, 0.25));  // the cube's corners 0.43 from the centre
  EXPECT_TRUE(q.near({0.5, 0, 0}, 1e-9));
}

TEST(MeshQuery, OpenMeshIsRefused) {
  TempDir dir;
  Soup s = box({0, 0, 0}, {1, 1, 1});
  s.remove(0);
  write_obj(dir / "open.obj", s);
  const Mesh m = load_mesh(dir / "open.obj");
  EXPECT_THROW(MeshQuery{m}, MeshError);
}

}  // namespace
}  // namespace sphreverb
