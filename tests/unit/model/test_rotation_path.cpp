// Tests of turning objects (rotation_path.hpp, boundary.hpp "Moving objects"): Rodrigues' rotation,
// the keyframed angle and its rate, and a hinged door's pose and surface velocity (a point at
// distance r from the hinge moves at omega r, normal to the door), its tethers and the rigid
// condition at its far edge.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/rotation_path.hpp"
#include "vec_expect.hpp"

namespace sphreverb {
namespace {

using test::expect_vec_near;

constexpr double kPi = std::numbers::pi;

TEST(RotationPath, RodriguesTurnsAboutTheAxis) {
  const Vec3 z{0, 0, 1};
  expect_vec_near(rotate_about({1, 0, 0}, z, 0.5 * kPi), {0, 1, 0}, 1e-15);
  expect_vec_near(rotate_about({1, 0, 3}, z, kPi), {-1, 0, 3}, 1e-15);
  const Vec3 r{0.3, -0.7, 0.2};
  EXPECT_EQ(rotate_about(r, z, 0.0), r);  // the identity, bit for bit
  // About (1, 1, 1)/sqrt(3) by 120 degrees: x -> y -> z (a cyclic permutation).
  const Vec3 d = normalized(Vec3{1, 1, 1});
  expect_vec_near(rotate_about({1, 0, 0}, d, 2.0 * kPi / 3.0), {0, 1, 0}, 1e-15);
  EXPECT_NEAR(norm(rotate_about(r, d, 0.9)), norm(r), 1e-15);  // lengths kept
}

TEST(RotationPath, AngleIsRelativeToTheFirstKeyframe) {
  // 10 -> 100 degrees in 1 s, then back to 40 degrees by t = 3 s (linear).
  const double deg = kPi / 180.0;
  const RotationPath r({{1.0, 10 * deg}, {2.0, 100 * deg}, {3.0, 40 * deg}},
                       PathInterpolation::Linear, {0, 0, 2}, {1, 2, 3});
  ASSERT_TRUE(r.moving());
  expect_vec_near(r.axis(), {0, 0, 1}, 0.0);
  EXPECT_EQ(r.angle(0.0), 0.0);  // before the first keyframe: the shape as written
  EXPECT_NEAR(r.angle(1.5), 45 * deg, 1e-15);
  EXPECT_NEAR(r.angle(9.0), 30 * deg, 1e-15);
  EXPECT_NEAR(r.rate(1.5), 90 * deg, 1e-13);
  EXPECT_NEAR(r.rate(2.5), -60 * deg, 1e-13);
  EXPECT_EQ(r.rate(0.5), 0.0);
  int segment = -1;
  EXPECT_NEAR(r.max_rate(&segment), 90 * deg, 1e-13);
  EXPECT_EQ(segment, 0);
  // Smooth: starts and stops at rest, the rate is the angle's derivative.
  const RotationPath s({{0.0, 0.0}, {1.0, 0.5 * kPi}}, PathInterpolation::Smooth, {0, 0, 1}, {});
  EXPECT_EQ(s.rate(0.0), 0.0);
  const double e = 1e-6;
  EXPECT_NEAR(s.rate(0.3), (s.angle(0.3 + e) - s.angle(0.3 - e)) / (2 * e), 1e-8);
  EXPECT_NEAR(s.max_rate(), 1.5 * 0.5 * kPi, 1e-9);  // cubic Hermite: 3/2 of the mean rate
}

// A door 0.8 m wide and 2 m high in the plane x = 1 (normal +x), hinged along its edge
// y = 1.4 m (the vertical axis z), opening by 90 degrees in 1 s at a constant rate.
Wall door() {
  Shape b;
  b.kind = ShapeKind::Rectangle, b.center = {1, 1, 1}, b.normal = {1, 0, 0};
  b.width = 0.8, b.height = 2.0;  // u = -y, v = -z (scene-reference.md `size`)
  Wall w{WallShape::from(b), 1e6, 0.0, 0.0, false, {}};
  w.rotation = RotationPath({{0.0, 0.0}, {1.0, 0.5 * kPi}}, PathInterpolation::Linear, {0, 0, 1},
                            {1, 1.4, 1});
  return w;
}

TEST(RotatingObject, HingedDoorPose) {
  const Wall w = door();
  ASSERT_TRUE(w.follows_path());
  expect_vec_near(w.shape.u, {0, -1, 0}, 1e-15);
  // At rest before t = 0 (bit for bit the shape as written), open by 90 degrees after t = 1 s:
  // the centre 0.4 m out along +x from the hinge, the normal along +y.
  const WallShape closed = w.pose(0.0);
  EXPECT_EQ(closed.center, w.shape.center);
  EXPECT_EQ(closed.normal, w.shape.normal);
  const WallShape open = w.pose(2.0);
  expect_vec_near(open.center, {1.4, 1.4, 1}, 1e-15);
  expect_vec_near(open.normal, {0, 1, 0}, 1e-15);
  expect_vec_near(open.u, {1, 0, 0}, 1e-15);
  expect_vec_near(open.v, {0, 0, -1}, 1e-15);
  // Half open: the far edge (0.8 m from the hinge) at 45 degrees.
  const double c = std::sqrt(0.5);
  expect_vec_near(w.point_at({1, 0.6, 0.3}, 0.5), {1 + 0.8 * c, 1.4 - 0.8 * c, 0.3}, 1e-15);
  // The probe in the turned frame: a point 0.05 m in front of the open door, in its extent.
  const WallProbe pr = open.probe({1.6, 1.45, 1.5});
  EXPECT_TRUE(pr.in_extent);
  EXPECT_NEAR(pr.distance, 0.05, 1e-15);
  EXPECT_FALSE(open.probe({0.9, 1.45, 1.5}).in_extent);     // behind the hinge: off the door
  EXPECT_NEAR(open.distance({2.0, 1.4, 1.0}), 0.2, 1e-15);  // beyond the far edge
}

TEST(RotatingObject, SurfacePointSpeedIsOmegaR) {
  const Wall w = door();
  const double omega = 0.5 * kPi;
  for (const double t : {0.1, 0.5, 0.9})
    for (const double r : {0.2, 0.5, 0.8}) {
      // The point of the door r from the hinge, at half height, where it is at time t.
      const Vec3 x = w.point_at({1, 1.4 - r, 1}, t);
      const Vec3 v = w.velocity_at(x, t);
      EXPECT_NEAR(norm(v), omega * r, 1e-14);
      EXPECT_NEAR(dot(v, w.pose(t).normal), omega * r, 1e-14);  // normal to the door
      // The derivative of the pose.
      const double e = 1e-7;
      const Vec3 fd = (w.point_at({1, 1.4 - r, 1}, t + e) - w.point_at({1, 1.4 - r, 1}, t - e)) *
                      (1.0 / (2 * e));
      expect_vec_near(v, fd, 1e-7);
    }
  EXPECT_EQ(norm(w.velocity_at(w.point_at({1, 1.0, 1}, 1.5), 1.5)), 0.0);  // stopped
  // The fastest surface point: the far edge, 0.8 m from the axis.
  EXPECT_NEAR(w.reach(), 0.8, 1e-15);
  EXPECT_NEAR(w.max_surface_speed(), omega * 0.8, 1e-12);
  // With a path as well, the centre's speed adds (an upper bound).
  Wall moving = w;
  moving.path = Path({{0.0, {1, 1, 1}}, {1.0, {1, 1, 1.5}}}, PathInterpolation::Linear);
  EXPECT_NEAR(moving.max_surface_speed(), 0.5 + omega * 0.8, 1e-12);
  expect_vec_near(moving.velocity_at(moving.point_at({1, 0.6, 1}, 0.5), 0.5),
                  w.velocity_at(w.point_at({1, 0.6, 1}, 0.5), 0.5) + Vec3{0, 0, 0.5}, 1e-14);
}

TEST(RotatingObject, FarEdgeTetherTakesTheDoorsNormalVelocity) {
  const std::vector<Wall> walls{door()};
  const double dx = 0.01, h = 0.013, dt = 1e-5, mass = 1.204 * dx * dx * dx;
  // A particle that rested 0.3 dx in front of the far edge's zone at t = 0 and was carried with
  // the door to t = 0.5 s: tethered with its spring to the rest distance.
  const Vec3 rest{1 + 0.3 * dx, 0.65, 1.2};
  const Vec3 now = walls[0].point_at(rest, 0.5);
  Particles p;
  p.resize(1);
  p.x[0] = now.x, p.y[0] = now.y, p.z[0] = now.z;
  p.rho[0] = 1.204;
  p.key[0] = image_key(0, kRealImage);
  p.n_owned = 1;
  const std::vector<Tether> t = find_tethers(
      1, [&](std::size_t) { return rest; }, walls, h, [&](std::size_t) { return now; }, 0.5);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_TRUE(t[0].spring);
  EXPECT_NEAR(t[0].d0, 0.3 * dx, 1e-15);
  // The rigid condition alone: the kick gives it the door's normal velocity there, omega r with
  // r = 0.75 m its distance from the hinge.
  const std::vector<Tether> rigid{{0, 0, 0.3 * dx, false}};
  add_tether_forces(p, rigid, walls, 0.0, 0.0, dx * dx, mass, dt, 0.5);
  const Vec3 v{dt * p.ax[0], dt * p.ay[0], dt * p.az[0]};
  EXPECT_NEAR(dot(v, walls[0].pose(0.5).normal), 0.5 * kPi * 0.75, 1e-9);
}

}  // namespace
}  // namespace sphreverb
