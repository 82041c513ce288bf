// Tests of the boundary objects (boundary.hpp): the in-plane frame and the probes of rectangle,
// disc and cylinder, the air-site test of the lattice, and the tethered force wall (spring and
// damper on the frontal area, zero at rest, the moving emitter).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sphreverb/model/boundary.hpp"
#include "vec_expect.hpp"

namespace sphreverb {
namespace {

using test::expect_vec_near;

WallShape rectangle(const Vec3& center, const Vec3& normal, double width, double height) {
  Shape b;
  b.kind = ShapeKind::Rectangle, b.center = center, b.normal = normal;
  b.width = width, b.height = height;
  return WallShape::from(b);
}

WallShape cylinder(const Vec3& center, const Vec3& axis, double radius, double length) {
  Shape b;
  b.kind = ShapeKind::Cylinder, b.center = center, b.normal = axis;
  b.radius = radius, b.height = length;
  return WallShape::from(b);
}

// The documented frame: u = normalised(normal x ref), v = normal x u, ref = z unless the normal is
// along z, then x.
void documented_frame(const Vec3& n, const Vec3& ref, Vec3& u, Vec3& v) {
  const Vec3 c{n.y * ref.z - n.z * ref.y, n.z * ref.x - n.x * ref.z, n.x * ref.y - n.y * ref.x};
  u = c * (1.0 / std::sqrt(c.x * c.x + c.y * c.y + c.z * c.z));
  v = {n.y * u.z - n.z * u.y, n.z * u.x - n.x * u.z, n.x * u.y - n.y * u.x};
}

TEST(BoundaryFrame, FollowsTheDocumentedConvention) {
  const double s = 1.0 / std::sqrt(2.0);
  struct Case {
    Vec3 normal, ref;
  };
  for (const Case& c :
       {Case{{1, 0, 0}, {0, 0, 1}}, Case{{0, 1, 0}, {0, 0, 1}}, Case{{0, -1, 0}, {0, 0, 1}},
        Case{{s, s, 0}, {0, 0, 1}}, Case{{0, 0, 1}, {1, 0, 0}}, Case{{0, 0, -1}, {1, 0, 0}}}) {
    const WallShape w = rectangle({}, c.normal, 1.0, 1.0);
    Vec3 u, v;
    documented_frame(c.normal, c.ref, u, v);
    expect_vec_near(w.normal, c.normal, 1e-15);
    expect_vec_near(w.u, u, 1e-15);
    expect_vec_near(w.v, v, 1e-15);
  }
  // Concretely: a wall facing +x has its width along -y and its height along -z.
  const WallShape w = rectangle({}, {1, 0, 0}, 1.0, 1.0);
  expect_vec_near(w.u, {0, -1, 0}, 1e-15);
  expect_vec_near(w.v, {0, 0, -1}, 1e-15);
  // The normal is normalised.
  expect_vec_near(rectangle({}, {0, 3, 0}, 1.0, 1.0).normal, {0, 1, 0}, 1e-15);
}

TEST(BoundaryProbe, Rectangle) {
  // Facing +y: u = y x z = +x (width 0.6), v = y x x = -z (height 0.2).
  const Vec3 c{0.2, 0.3, 0.4}, n{0, 1, 0}, u{1, 0, 0}, v{0, 0, -1};
  const WallShape w = rectangle(c, n, 0.6, 0.2);
  struct Case {
    double along, cu, cv;
    bool in;
  };
  for (const Case& k :
       {Case{0.05, 0.29, 0.0, true}, Case{-0.07, -0.29, 0.09, true}, Case{0.05, 0.31, 0.0, false},
        Case{0.0, 0.0, 0.11, false}, Case{0.01, 0.0, -0.11, false}, Case{0.01, 0.11, 0.0, true}}) {
    const Vec3 p = c + k.along * n + k.cu * u + k.cv * v;
    const WallProbe pr = w.probe(p);
    EXPECT_EQ(pr.in_extent, k.in) << k.along << " " << k.cu << " " << k.cv;
    EXPECT_NEAR(pr.distance, k.along, 1e-15);
    expect_vec_near(pr.normal, n, 0.0);
    // Probing with the surface shifted is probing the point shifted back.
    const Vec3 shift{0.01, -0.02, 0.03};
    const WallProbe ps = w.probe(p + shift, shift);
    EXPECT_EQ(ps.in_extent, k.in);
    EXPECT_NEAR(ps.distance, k.along, 1e-15);
  }
}

TEST(BoundaryProbe, Disc) {
  const double s = 1.0 / std::sqrt(2.0);
  const Vec3 c{1.0, 2.0, 0.5}, n{s, 0, s}, t{0, 1, 0}, t2{s, 0, -s};
  const WallShape w = WallShape::disc(c, n, 0.1);
  EXPECT_EQ(w.shape, ShapeKind::Disc);
  EXPECT_EQ(w.radius, 0.1);
  const WallProbe in = w.probe(c + 0.02 * n + 0.06 * t + 0.06 * t2);  // radial 0.085
  EXPECT_TRUE(in.in_extent);
  EXPECT_NEAR(in.distance, 0.02, 1e-15);
  expect_vec_near(in.normal, n, 1e-15);
  const WallProbe behind = w.probe(c - 0.03 * n + 0.099 * t);
  EXPECT_TRUE(behind.in_extent);
  EXPECT_NEAR(behind.distance, -0.03, 1e-15);
  const WallProbe out = w.probe(c + 0.02 * n + 0.08 * t + 0.08 * t2);  // radial 0.113
  EXPECT_FALSE(out.in_extent);
  EXPECT_NEAR(out.distance, 0.02, 1e-15);
}

TEST(BoundaryProbe, CylinderIsRadial) {
  // Axis along z through (0.5, 0.5, 1), radius 0.3, length 0.8.
  const Vec3 c{0.5, 0.5, 1.0};
  const WallShape w = cylinder(c, {0, 0, 1}, 0.3, 0.8);
  const double s = 1.0 / std::sqrt(2.0);
  const WallProbe outside = w.probe(c + Vec3{0.35 * s, 0.35 * s, 0.2});
  EXPECT_TRUE(outside.in_extent);
  EXPECT_NEAR(outside.distance, 0.05, 1e-15);
  expect_vec_near(outside.normal, {s, s, 0}, 1e-15);
  const WallProbe inside = w.probe(c + Vec3{0.0, -0.1, -0.39});
  EXPECT_TRUE(inside.in_extent);
  EXPECT_NEAR(inside.distance, -0.2, 1e-15);
  expect_vec_near(inside.normal, {0, -1, 0}, 1e-15);  // outwards: away from the axis
  EXPECT_FALSE(w.probe(c + Vec3{0.3, 0.0, 0.41}).in_extent);
  EXPECT_FALSE(w.probe(c + Vec3{0.3, 0.0, -0.41}).in_extent);
  // On the axis there is no radial direction: out of extent.
  EXPECT_FALSE(w.probe(c + Vec3{0.0, 0.0, 0.1}).in_extent);
}

TEST(BoundaryAirSite, ExcludesSitesWithinHalfASpacing) {
  const double dx = 0.01;
  const std::vector<Wall> walls{{rectangle({0.5, 0.5, 0.5}, {1, 0, 0}, 0.2, 0.2), 1e6, 0.0, false},
                                {cylinder({0.0, 0.0, 0.0}, {0, 1, 0}, 0.1, 0.2), 1e6, 0.0, false}};
  EXPECT_FALSE(is_air_site(walls, {0.5, 0.5, 0.5}, dx));
  EXPECT_FALSE(is_air_site(walls, {0.5 + 0.49 * dx, 0.55, 0.45}, dx));
  EXPECT_FALSE(is_air_site(walls, {0.5 - 0.49 * dx, 0.55, 0.45}, dx));
  EXPECT_TRUE(is_air_site(walls, {0.5 + 0.51 * dx, 0.55, 0.45}, dx));
  EXPECT_TRUE(is_air_site(walls, {0.5 - 0.51 * dx, 0.55, 0.45}, dx));
  // In the plane of the rectangle but beyond its edge: air.
  EXPECT_TRUE(is_air_site(walls, {0.5, 0.5, 0.65}, dx));
  // The cylinder surface (r = 0.1 about the y axis).
  EXPECT_FALSE(is_air_site(walls, {0.1 + 0.4 * dx, 0.05, 0.0}, dx));
  EXPECT_FALSE(is_air_site(walls, {0.0, -0.05, 0.1 - 0.4 * dx}, dx));
  EXPECT_TRUE(is_air_site(walls, {0.1 + 0.6 * dx, 0.05, 0.0}, dx));
  EXPECT_TRUE(is_air_site(walls, {0.05, 0.05, 0.0}, dx));  // inside the tube
  EXPECT_TRUE(is_air_site(walls, {0.1, 0.2, 0.0}, dx));    // beyond its end
  EXPECT_TRUE(is_air_site({}, {0.5, 0.5, 0.5}, dx));
  // The emitter (moving) keeps the sites on its surface: they are tethered to it.
  std::vector<Wall> with_emitter = walls;
  with_emitter.push_back({rectangle({0.8, 0.5, 0.5}, {1, 0, 0}, 0.2, 0.2), 1e6, 0.0, 0.0, true});
  EXPECT_TRUE(is_air_site(with_emitter, {0.8, 0.5, 0.5}, dx));
  EXPECT_FALSE(is_air_site(with_emitter, {0.5, 0.5, 0.5}, dx));
}

// One owned particle with rest position r0 (position r0, at rest).
Particles one_particle(const Vec3& r0) {
  Particles p;
  p.resize(1);
  p.x[0] = r0.x, p.y[0] = r0.y, p.z[0] = r0.z;
  p.rho[0] = 1.204;
  p.key[0] = image_key(0, kRealImage);
  p.n_owned = 1;
  return p;
}

Vec3 acceleration(const Particles& p, std::size_t i) { return {p.ax[i], p.ay[i], p.az[i]}; }

constexpr double kDx = 0.01, kH = 0.013, kArea = kDx * kDx, kMass = 1.204 * kDx * kDx * kDx;
constexpr double kDt = 1e-5;  // s, the step of the kick that follows

TEST(BoundaryTethers, FindTethersByRestPosition) {
  const std::vector<Wall> walls{{rectangle({0.5, 0.5, 0.5}, {0, 0, 1}, 0.2, 0.2), 1e6, 0, false},
                                {WallShape::disc({0.5, 0.5, 0.49}, {0, 0, 1}, 0.05), 1e6, 0, true}};
  Particles p;
  const Vec3 rest[] = {{0.5, 0.5, 0.505},  {0.5, 0.5, 0.5 - 0.012}, {0.5, 0.5, 0.52},
                       {0.5, 0.65, 0.505}, {0.54, 0.5, 0.495},      {0.59, 0.55, 0.501}};
  for (std::size_t i = 0; i < std::size(rest); ++i) {
    p.resize(i + 1);
    // Current positions far away: tethers depend on the rest positions only.
    p.x[i] = p.y[i] = p.z[i] = 10.0;
    p.key[i] = image_key(static_cast<std::int64_t>(i), kRealImage);
  }
  p.n_owned = p.size();
  const std::vector<Tether> t = find_tethers(
      p.n_owned, [&](std::size_t i) { return rest[i]; }, walls, kH);
  struct Expected {
    std::size_t particle;
    int wall;
    double d0;
  };
  // Particle 0 is 0.015 > h from the disc; 2 is too far from both; 3 and 5 miss the disc's extent
  // (and 3 the rectangle's).
  const std::vector<Expected> expected{{0, 0, 0.005},  {1, 0, -0.012}, {1, 1, -0.002},
                                       {4, 0, -0.005}, {4, 1, 0.005},  {5, 0, 0.001}};
  ASSERT_EQ(t.size(), expected.size());
  for (std::size_t k = 0; k < t.size(); ++k) {
    EXPECT_EQ(t[k].particle, expected[k].particle) << "tether " << k;
    EXPECT_EQ(t[k].wall, expected[k].wall) << "tether " << k;
    EXPECT_NEAR(t[k].d0, expected[k].d0, 1e-15) << "tether " << k;
  }
}

TEST(BoundaryTethers, SpringAndDamperOnTheNormal) {
  const double s = 1.0 / std::sqrt(2.0);
  const Vec3 n{s, s, 0}, t{0, 0, 1};
  const double K = 3e5, C = 415.0;
  const std::vector<Wall> walls{{rectangle({1.0, 1.0, 1.0}, n, 0.5, 0.5), K, C, 0.0, false}};
  const Vec3 r0 = Vec3{1.0, 1.0, 1.0} + 0.004 * n + 0.01 * t;
  Particles p = one_particle(r0);
  const std::vector<Tether> tethers = find_tethers(
      1, [&](std::size_t) { return r0; }, walls, kH);
  ASSERT_EQ(tethers.size(), 1u);
  EXPECT_NEAR(tethers[0].d0, 0.004, 1e-15);

  // At rest: no force at all.
  add_tether_forces(p, tethers, walls, 0.0, 0.0, kArea, kMass, kDt);
  EXPECT_EQ(acceleration(p, 0), (Vec3{0, 0, 0}));

  // Displaced by delta along the normal (and some tangentially): a = -A K delta / m along n,
  // divided by 1 + g because the implicit damper acts on the velocity the spring gives
  // (g = A C dt / m).
  const double g = kArea * C * kDt / kMass;
  const double delta = 1e-4;
  const Vec3 r = r0 + delta * n + 2e-4 * t;
  p.x[0] = r.x, p.y[0] = r.y, p.z[0] = r.z;
  add_tether_forces(p, tethers, walls, 0.0, 0.0, kArea, kMass, kDt);
  const double spring = -kArea * K * delta / kMass / (1.0 + g);
  expect_vec_near(acceleration(p, 0), spring * n, 1e-9 * std::abs(spring));

  // Moving with v: the damper acts on the new velocity (backward Euler), a = -g v_n / (dt (1 + g))
  // along n with g = A C dt / m, -> -A C v_n / m for small g; tangential motion is free.
  p.ax[0] = p.ay[0] = p.az[0] = 0.0;
  p.x[0] = r0.x, p.y[0] = r0.y, p.z[0] = r0.z;
  const double vn = 0.02;
  const Vec3 v = vn * n + 0.5 * t;
  p.vx[0] = v.x, p.vy[0] = v.y, p.vz[0] = v.z;
  add_tether_forces(p, tethers, walls, 0.0, 0.0, kArea, kMass, kDt);
  const double damper = -g * vn / (kDt * (1.0 + g));
  expect_vec_near(acceleration(p, 0), damper * n, 1e-9 * std::abs(damper));
  EXPECT_NEAR(damper, -kArea * C * vn / kMass, 1.01 * g * kArea * C * vn / kMass);
}

// The defining equation of the implicit wall (boundary.hpp), for a particle displaced, moving and
// pushed by other forces, with an added mass and a damper far too strong for an explicit step:
// (m + A M)(v+ - v-)/dt = m a_n - A K (d - d0) - A C v+ along n, and the tangential part untouched.
TEST(BoundaryTethers, ImplicitDamperAndAddedMassSatisfyTheWallEquation) {
  const Vec3 n{0, 1, 0};
  const double K = 4e4, C = 1e6, M = 0.3;  // C dt A / m ~ 1e3: explicit would blow up
  const std::vector<Wall> walls{{rectangle({0.5, 0.0, 0.5}, n, 1.0, 1.0), K, C, M, false}};
  const Vec3 r0{0.5, 0.005, 0.5};
  Particles p = one_particle(r0);
  const std::vector<Tether> tethers = find_tethers(
      1, [&](std::size_t) { return r0; }, walls, kH);
  ASSERT_EQ(tethers.size(), 1u);
  const double delta = 3e-6, vminus = -0.01, a_other = 250.0, a_tangent = -7.0;
  p.y[0] = r0.y + delta, p.vy[0] = vminus, p.vx[0] = 0.1;
  p.ay[0] = a_other, p.ax[0] = a_tangent;
  add_tether_forces(p, tethers, walls, 0.0, 0.0, kArea, kMass, kDt);
  const double vplus = vminus + kDt * p.ay[0];
  const double lhs = (kMass + kArea * M) * (vplus - vminus) / kDt;
  const double rhs = kMass * a_other - kArea * K * delta - kArea * C * vplus;
  EXPECT_NEAR(lhs, rhs, 1e-9 * (std::abs(kMass * a_other) + std::abs(kArea * C * vplus)));
  EXPECT_EQ(p.ax[0], a_tangent);
  EXPECT_EQ(p.az[0], 0.0);
  // Stable: the damper removes velocity, never reverses or amplifies it.
  EXPECT_LT(std::abs(vplus), std::abs(vminus) + kDt * std::abs(a_other));
}

TEST(BoundaryTethers, CylinderSpringIsRadial) {
  const double K = 1e5;
  const std::vector<Wall> walls{{cylinder({0, 0, 0}, {0, 0, 1}, 0.2, 0.4), K, 0.0, 0.0, false}};
  const double s = 1.0 / std::sqrt(2.0);
  const Vec3 radial{s, -s, 0};
  const Vec3 r0 = (0.2 + 0.006) * radial + Vec3{0, 0, 0.1};
  Particles p = one_particle(r0);
  const std::vector<Tether> tethers = find_tethers(
      1, [&](std::size_t) { return r0; }, walls, kH);
  ASSERT_EQ(tethers.size(), 1u);
  EXPECT_NEAR(tethers[0].d0, 0.006, 1e-15);
  add_tether_forces(p, tethers, walls, 0.0, 0.0, kArea, kMass, kDt);
  EXPECT_EQ(acceleration(p, 0), (Vec3{0, 0, 0}));
  const double delta = -2e-4;  // towards the axis
  const Vec3 r = r0 + delta * radial;
  p.x[0] = r.x, p.y[0] = r.y, p.z[0] = r.z;
  add_tether_forces(p, tethers, walls, 0.0, 0.0, kArea, kMass, kDt);
  const double a = -kArea * K * delta / kMass;
  expect_vec_near(acceleration(p, 0), a * radial, 1e-9 * std::abs(a));
}

TEST(BoundaryTethers, MovingWallCarriesItsParticles) {
  const Vec3 n{0, 0, 1};
  const double K = 2e5, C = 300.0;
  const std::vector<Wall> walls{{WallShape::disc({0.3, 0.3, 0.3}, n, 0.05), K, C, 0.0, true}};
  const Vec3 r0{0.31, 0.3, 0.3 + 0.005};
  Particles p = one_particle(r0);
  const std::vector<Tether> tethers = find_tethers(
      1, [&](std::size_t) { return r0; }, walls, kH);
  ASSERT_EQ(tethers.size(), 1u);

  // The wall shifted by s at speed V, the particle moved with it: no force.
  const double shift = 3e-5, speed = 0.7;
  p.z[0] = r0.z + shift, p.vz[0] = speed;
  add_tether_forces(p, tethers, walls, shift, speed, kArea, kMass, kDt);
  EXPECT_NEAR(p.az[0], 0.0, 1e-9 * kArea * K * shift / kMass);
  EXPECT_EQ(p.ax[0], 0.0);
  EXPECT_EQ(p.ay[0], 0.0);

  // The particle left at rest: the wall pushes it by A K s / m plus the (implicit) damper,
  // g V / dt / (1 + g) with g = A C dt / m (-> A C V / m for small g).
  p.az[0] = 0.0, p.z[0] = r0.z, p.vz[0] = 0.0;
  add_tether_forces(p, tethers, walls, shift, speed, kArea, kMass, kDt);
  const double g = kArea * C * kDt / kMass;
  const double expected = (kArea * K * shift / kMass + g * speed / kDt) / (1.0 + g);
  EXPECT_NEAR(p.az[0], expected, 1e-9 * expected);
}

// A moving object (a wall with a path): translated rigidly, probed at its pose at time t, its
// velocity in the damper and the rigid condition.
Wall moving_plate(double K, double C) {
  Wall w{rectangle({0.5, 0.3, 0.3}, {1, 0, 0}, 0.2, 0.2), K, C, 0.0, false, {}};
  // 2 m/s along -x from t = 0 to t = 0.1 s.
  w.path = Path({{0.0, {0.5, 0.3, 0.3}}, {0.1, {0.3, 0.3, 0.3}}}, PathInterpolation::Linear);
  return w;
}

TEST(BoundaryObjects, OffsetFollowsThePath) {
  const Wall w = moving_plate(2e5, 0.0);
  ASSERT_TRUE(w.follows_path());
  expect_vec_near(w.offset(0.0), {0, 0, 0}, 0.0);
  expect_vec_near(w.offset(0.05), {-0.1, 0, 0}, 1e-15);
  expect_vec_near(w.offset(1.0), {-0.2, 0, 0}, 1e-15);  // at rest after the last keyframe
  const Wall fixed{rectangle({0.5, 0.3, 0.3}, {1, 0, 0}, 0.2, 0.2), 2e5, 0.0, 0.0, false, {}};
  EXPECT_FALSE(fixed.follows_path());
  expect_vec_near(fixed.offset(0.05), {0, 0, 0}, 0.0);
}

TEST(BoundaryObjects, TethersFollowTheMovingPose) {
  const std::vector<Wall> walls{moving_plate(2e5, 0.0)};
  // Particle 0 rests 0.5 dx in front of the plate and was carried with it to t = 0.05 s (its
  // spring to d0); particle 1 rests far away, and the plate now stands 0.3 dx from it (the rigid
  // condition only); particle 2 rests in the plate's zone at t = 0 but the plate has left it.
  const std::vector<Vec3> rest{{0.5 - 0.5 * kDx, 0.3, 0.3}, {0.2, 0.3, 0.3}, {0.505, 0.31, 0.3}};
  const std::vector<Vec3> now{
      {0.4 - 0.5 * kDx, 0.3, 0.3}, {0.4 - 0.3 * kDx, 0.32, 0.3}, {0.505, 0.31, 0.3}};
  const std::vector<Tether> t = find_tethers(
      3, [&](std::size_t i) { return rest[i]; }, walls, kH, [&](std::size_t i) { return now[i]; },
      0.05);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].particle, 0u);
  EXPECT_TRUE(t[0].spring);
  EXPECT_NEAR(t[0].d0, -0.5 * kDx, 1e-15);
  EXPECT_EQ(t[1].particle, 1u);
  EXPECT_FALSE(t[1].spring);
  EXPECT_NEAR(t[1].d0, -0.3 * kDx, 1e-12);
}

TEST(BoundaryObjects, MovingPlateCarriesItsAirAndHoldsTheRigidCondition) {
  const double K = 2e5, C = 300.0;
  const std::vector<Wall> walls{moving_plate(K, C)};
  const Vec3 r0{0.5 - 0.5 * kDx, 0.3, 0.3};
  Particles p = one_particle(r0);
  const std::vector<Tether> tethers = find_tethers(
      1, [&](std::size_t) { return r0; }, walls, kH, [&](std::size_t) { return r0; }, 0.0);
  ASSERT_EQ(tethers.size(), 1u);
  // At t = 0.05 s the plate stands 0.1 m further along -x and moves at -2 m/s: a particle that
  // moved with it feels no force.
  p.x[0] = r0.x - 0.1, p.vx[0] = -2.0;
  add_tether_forces(p, tethers, walls, 0.0, 0.0, kArea, kMass, kDt, 0.05);
  EXPECT_NEAR(p.ax[0], 0.0, 1e-6);
  // Left behind at rest where the plate stood at t = 0: the spring pulls it by A K (0.1 m) / m
  // towards the plate and the damper towards the plate's velocity (as the emitter's test).
  p.ax[0] = 0.0, p.x[0] = r0.x, p.vx[0] = 0.0;
  add_tether_forces(p, tethers, walls, 0.0, 0.0, kArea, kMass, kDt, 0.05);
  const double g = kArea * C * kDt / kMass;
  const double expected = (-kArea * K * 0.1 / kMass - g * 2.0 / kDt) / (1.0 + g);
  EXPECT_NEAR(p.ax[0], expected, 1e-9 * std::abs(expected));

  // The rigid condition alone: the kick v+ = v- + dt a gives the particle the plate's normal
  // velocity, whatever its other acceleration; the tangential part is untouched.
  const std::vector<Tether> rigid{{0, 0, -0.3 * kDx, false}};
  p.x[0] = 0.4 - 0.3 * kDx, p.vx[0] = 0.5, p.vy[0] = 0.25, p.ax[0] = 40.0, p.ay[0] = 7.0;
  add_tether_forces(p, rigid, walls, 0.0, 0.0, kArea, kMass, kDt, 0.05);
  EXPECT_NEAR(p.vx[0] + kDt * p.ax[0], -2.0, 1e-12);
  EXPECT_EQ(p.ay[0], 7.0);
}

}  // namespace
}  // namespace sphreverb
