// Tests of the fixed-ghost walls (ghost_walls.hpp) on a box room given as a mesh: with its faces
// half a spacing beyond the lattice the ghosts are the mirror images (density copied exactly,
// normal velocity reversed, both reversed at an edge), bit for bit the [room] mirror walls' images
// even when the mesh's coordinates are single precision; at any offset and rotation a linear
// density field is reproduced at the mirror points; a resistive face moves with W = p / R; a
// reacting face (a band material's fitted wall) driven by a sinusoidal pressure settles at
// W = p / Z(w), and its ghosts reflect about that W.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <numbers>
#include <unordered_map>

#include "mesh_fixtures.hpp"
#include "sphreverb/model/ghost_walls.hpp"
#include "sphreverb/model/mesh_io.hpp"
#include "sphreverb/model/mirror_walls.hpp"

namespace sphreverb {
namespace {

using testing_mesh::one_surface_box;

struct Room {
  Lattice lattice;
  SolidGeometry geometry;
  GhostWalls ghosts;
  Particles p;
};

// The lattice of spacing dx filling [0, L]^3, the room mesh `mesh`, every air site a particle
// with density rho(x) and velocity v(x).
template <class Rho, class Vel>
void build(Room& s, std::shared_ptr<Mesh> mesh, double L, double dx, double admittance, Rho&& rho,
           Vel&& vel, double clearance = 0.0, const WallImpedance& reacting = {}, double dt = 0.0) {
  s.lattice = Lattice::filling({0, 0, 0}, {L, L, L}, dx);
  GeometryPart part;
  part.mesh = std::move(mesh);
  part.room = true;
  part.admittance = {admittance};
  if (reacting.mass > 0.0) part.reacting = {reacting};
  std::vector<GeometryPart> parts;
  parts.push_back(std::move(part));
  s.geometry = SolidGeometry(std::move(parts));
  s.geometry.set_clearance(clearance);
  GhostWallParams params;
  params.reach = 2.8 * dx;
  params.dt = dt;
  const Lattice& l = s.lattice;
  const auto air = [&](int i, int j, int k) { return s.geometry.is_air(l.site(i, j, k)); };
  s.ghosts = GhostWalls(s.geometry, l, air, params, 0, -1.0, 2.0);
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) {
        const Vec3 x = l.site(i, j, k);
        if (!air(i, j, k)) continue;
        const std::size_t n = s.p.size();
        s.p.resize(n + 1);
        s.p.x[n] = x.x, s.p.y[n] = x.y, s.p.z[n] = x.z;
        const Vec3 v = vel(x);
        s.p.vx[n] = v.x, s.p.vy[n] = v.y, s.p.vz[n] = v.z;
        s.p.rho[n] = rho(x);
        s.p.key[n] = image_key(l.id(i, j, k), kRealImage);
      }
  s.p.n_owned = s.p.size();
  s.ghosts.rebuild(s.p);
}

// A 0.6 x 0.6 x 0.5 m box turned by the Euler angles (degrees; 10 17 25: no face parallel to a
// lattice plane) about the centre of [0, 1]^3.
std::shared_ptr<Mesh> rotated_box(const Vec3& euler = {10, 17, 25}) {
  auto mesh = one_surface_box({-0.3, -0.3, -0.25}, {0.3, 0.3, 0.25});
  MeshLoadOptions o;
  o.rotation = Rotation::euler_xyz_degrees(euler);
  o.translation = {0.5, 0.5, 0.5};
  transform_mesh(*mesh, o);
  return mesh;
}

TEST(GhostWalls, AlignedBoxGivesTheMirrorImages) {
  const double dx = 0.1, L = 1.0;  // sites at 0.05 ... 0.95: faces dx/2 beyond the lattice
  Room s;
  const auto rho = [](const Vec3& x) { return 1.2 + 0.01 * std::sin(7 * x.x + 3 * x.y - 5 * x.z); };
  const auto vel = [](const Vec3& x) { return Vec3{std::cos(4 * x.y), std::sin(3 * x.z), x.x}; };
  build(s, one_surface_box({0, 0, 0}, {L, L, L}), L, dx, 0.0, rho, vel);
  ASSERT_GT(s.p.n_ghost, 0u);
  EXPECT_EQ(s.ghosts.stats().shepard + s.ghosts.stats().dropped, 0u);
  for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
    const Vec3 x = s.p.position(g);
    // The image: reflect each coordinate outside [0, L] back in.
    Vec3 m = x;
    int flips[3] = {0, 0, 0};
    for (int a = 0; a < 3; ++a) {
      if (x[a] < 0) m[a] = -x[a], flips[a] = 1;
      if (x[a] > L) m[a] = 2 * L - x[a], flips[a] = 1;
    }
    EXPECT_NEAR(s.p.rho[g], rho(m), 1e-14) << x.x << " " << x.y << " " << x.z;
    const Vec3 v = vel(m);
    const Vec3 vg = s.p.velocity(g);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(vg[a], flips[a] ? -v[a] : v[a], 1e-12) << "axis " << a;
  }
  // A vector kept outside the store (the hyperviscosity's L(v)) is reflected like the velocity:
  // at rigid faces the ghosts' velocities.
  std::vector<double> fx(s.p.vx), fy(s.p.vy), fz(s.p.vz);
  for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) fx[g] = fy[g] = fz[g] = 0.0;
  s.ghosts.refresh_reflected(fx, fy, fz);
  for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
    EXPECT_DOUBLE_EQ(fx[g], s.p.vx[g]);
    EXPECT_DOUBLE_EQ(fy[g], s.p.vy[g]);
    EXPECT_DOUBLE_EQ(fz[g], s.p.vz[g]);
  }
  // Every solid site within the kernel support of an air particle has a ghost.
  std::size_t expected = 0;
  const Lattice& l = s.lattice;
  for (int k = -3; k < l.n[2] + 3; ++k)
    for (int j = -3; j < l.n[1] + 3; ++j)
      for (int i = -3; i < l.n[0] + 3; ++i) {
        const Vec3 x = l.site(i, j, k);
        if (s.geometry.is_air(x)) continue;
        double d2 = 0;
        for (int a = 0; a < 3; ++a) {
          const double out = std::max({0.0, 0.05 - x[a], x[a] - 0.95});
          d2 += out * out;
        }
        if (d2 <= 0.28 * 0.28) ++expected;
      }
  EXPECT_EQ(s.p.n_ghost, expected);
}

// The ghosts move with the air as mirror images move with their particles: with the air
// displaced from its sites (a thousandth of a spacing, different for every particle) an aligned
// box's ghosts sit where the [room] mirror walls put their images; at an oblique face a uniform
// displacement d of the air puts every ghost at its site plus d reflected in its faces. (Held at
// their sites, the ghosts broke the symmetry of a plane wave along a duct by the air's
// displacement and fed the lattice's transverse 2 dx mode: docs/theory/walls.md.)
TEST(GhostWalls, GhostsMoveWithTheAirLikeMirrorImages) {
  {
    const double dx = 0.1, L = 1.0;
    Room s;
    const auto rho = [](const Vec3&) { return 1.2; };
    const auto vel = [](const Vec3&) { return Vec3{}; };
    build(s, one_surface_box({0, 0, 0}, {L, L, L}), L, dx, 0.0, rho, vel);
    for (std::size_t i = 0; i < s.p.n_owned; ++i) {
      const Vec3 x = s.p.position(i);
      s.p.x[i] += 1e-3 * dx * std::sin(40 * x.y + 3 * x.z);
      s.p.y[i] += 1e-3 * dx * std::cos(30 * x.z - 7 * x.x);
      s.p.z[i] += 1e-3 * dx * std::sin(50 * x.x + 11 * x.y);
    }
    s.p.drop_copies();
    Particles m = s.p;
    MirrorWalls(Vec3{0, 0, 0}, Vec3{L, L, L}, 2.8 * dx).rebuild(m);
    s.ghosts.rebuild(s.p);
    ASSERT_GT(s.p.n_ghost, 0u);
    // The image of the same particle: the nearest one (images of neighbouring particles are a
    // spacing apart).
    std::size_t matched = 0;
    for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
      const Vec3 x = s.p.position(g);
      double best = 1e9;
      for (std::size_t q = m.n_owned; q < m.size(); ++q)
        best = std::min(best, norm(m.position(q) - x));
      EXPECT_LT(best, 1e-12) << x.x << " " << x.y << " " << x.z;
      matched += best < 1e-12 ? 1 : 0;
    }
    EXPECT_EQ(matched, s.p.n_ghost);
  }
  {
    const double dx = 0.05, L = 1.0;
    auto mesh = rotated_box();
    Room s;
    build(
        s, mesh, L, dx, 0.0, [](const Vec3&) { return 1.2; }, [](const Vec3&) { return Vec3{}; });
    std::vector<Vec3> sites;
    for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) sites.push_back(s.p.position(g));
    const Vec3 d{3e-4, -2e-4, 1e-4};  // m
    for (std::size_t i = 0; i < s.p.n_owned; ++i) s.p.x[i] += d.x, s.p.y[i] += d.y, s.p.z[i] += d.z;
    s.ghosts.refresh(s.p, Field::Position);
    std::size_t checked = 0;
    for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
      const Vec3 site = sites[g - s.p.n_owned];
      const WallContact c = s.geometry.contact(site);
      if (s.geometry.in_air_region(site)) continue;  // air-side ghosts reflect by their own rule
      Vec3 r = d;
      for (int k = 0; k < c.faces; ++k) r = r - 2.0 * dot(r, c.normal[k]) * c.normal[k];
      EXPECT_NEAR(norm(s.p.position(g) - (site + r)), 0.0, 1e-15) << site.x << " " << site.y;
      ++checked;
    }
    EXPECT_GT(checked, s.p.n_ghost / 2);
  }
}

// A box [0, L] x [0, W] x [0, H] whose coordinates went through single precision (as mesh files
// store them: 0.24 reads a few ulps short of 16 spacings of 0.015 m), filled as a room mesh's
// bounding box is (config/geometry.cpp: widened by a millionth of its largest coordinate). The
// lattice keeps every layer, its faces sit dx/2 beyond it, and every ghost is bit for bit the
// [room] mirror wall's image at the same site (density copied, the normal velocities reversed).
TEST(GhostWalls, SinglePrecisionBoxGivesTheMirrorWallsBitForBit) {
  const double dx = 0.015;
  const Vec3 lo{0.1f, 0.13f, 0.145f}, hi{0.4f, 0.37f, 0.355f};  // 20 x 16 x 14 spacings
  const double widen = 1e-6 * 0.4;
  Room s;
  s.lattice = Lattice::filling(lo - Vec3{widen, widen, widen}, hi + Vec3{widen, widen, widen}, dx);
  EXPECT_EQ(s.lattice.n[0], 20);
  EXPECT_EQ(s.lattice.n[1], 16);
  EXPECT_EQ(s.lattice.n[2], 14);
  GeometryPart part;
  part.mesh = one_surface_box(lo, hi);
  part.room = true;
  part.admittance = {0.0};
  std::vector<GeometryPart> parts;
  parts.push_back(std::move(part));
  s.geometry = SolidGeometry(std::move(parts));
  GhostWallParams params;
  params.reach = 2.8 * dx;
  const Lattice& l = s.lattice;
  const auto air = [&](int i, int j, int k) { return s.geometry.is_air(l.site(i, j, k)); };
  s.ghosts = GhostWalls(s.geometry, l, air, params, 0, -1.0, 2.0);
  EXPECT_EQ(s.ghosts.stats().shepard + s.ghosts.stats().dropped, 0u);
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i) {
        const Vec3 x = l.site(i, j, k);
        ASSERT_TRUE(air(i, j, k)) << i << " " << j << " " << k;  // the whole lattice is air
        const std::size_t n = s.p.size();
        s.p.resize(n + 1);
        s.p.x[n] = x.x, s.p.y[n] = x.y, s.p.z[n] = x.z;
        s.p.vx[n] = std::cos(40 * x.y), s.p.vy[n] = std::sin(30 * x.z), s.p.vz[n] = x.x - 0.2;
        s.p.rho[n] = 1.2 + 0.01 * std::sin(70 * x.x + 30 * x.y - 50 * x.z);
        s.p.key[n] = image_key(l.id(i, j, k), kRealImage);
      }
  s.p.n_owned = s.p.size();
  Particles m = s.p;  // the same air, closed by the mirror walls of the box instead
  MirrorWalls(lo, hi, params.reach).rebuild(m);
  s.ghosts.rebuild(s.p);
  ASSERT_GT(s.p.n_ghost, 0u);
  // The mirror walls' ghosts by site (they also image corners the ghost walls leave out: those
  // beyond `reach` of the corner point itself).
  const auto site_key = [&](const Vec3& x) {
    std::int64_t c[3];
    for (int a = 0; a < 3; ++a) c[a] = std::lround((x[a] - l.origin[a]) / dx) + 100;
    return c[0] + 1000 * (c[1] + 1000 * c[2]);
  };
  std::unordered_map<std::int64_t, std::size_t> image;
  for (std::size_t g = m.n_owned; g < m.size(); ++g) image[site_key(m.position(g))] = g;
  for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
    const Vec3 x = s.p.position(g);
    const auto it = image.find(site_key(x));
    ASSERT_NE(it, image.end()) << x.x << " " << x.y << " " << x.z;
    const std::size_t q = it->second;
    EXPECT_NEAR(norm(m.position(q) - x), 0.0, 1e-5 * dx);
    EXPECT_EQ(s.p.rho[g], m.rho[q]) << x.x << " " << x.y << " " << x.z;
    EXPECT_EQ(s.p.vx[g], m.vx[q]);
    EXPECT_EQ(s.p.vy[g], m.vy[q]);
    EXPECT_EQ(s.p.vz[g], m.vz[q]);
  }
}

// Every solid site within `reach` of an air particle gets an active ghost, whatever the reach:
// sites on a face of the activation grid's cells (side reach) are found from both sides. Checked
// against a brute-force search for a sweep of reaches, including 0.042 m at 0.015 m spacing, where
// the ghost at x = 0.21 m sits on a cell face.
TEST(GhostWalls, EverySolidSiteWithinReachOfTheAirIsActive) {
  const double dx = 0.015;
  const Vec3 lo{0.2325, 0.0525, 0.0525}, hi{0.4125, 0.2325, 0.2325};  // faces dx/2 off the sites
  for (int sweep = 0; sweep <= 12; ++sweep) {
    const double reach = sweep == 0 ? 0.042 : dx * (2.4 + 0.05 * sweep);
    Room s;
    s.lattice = Lattice::filling(lo - Vec3{0.06, 0.06, 0.06}, hi + Vec3{0.06, 0.06, 0.06}, dx);
    GeometryPart part;
    part.mesh = one_surface_box(lo, hi);
    part.room = true;
    part.admittance = {0.0};
    std::vector<GeometryPart> parts;
    parts.push_back(std::move(part));
    s.geometry = SolidGeometry(std::move(parts));
    GhostWallParams params;
    params.reach = reach;
    const Lattice& l = s.lattice;
    const auto air = [&](int i, int j, int k) { return s.geometry.is_air(l.site(i, j, k)); };
    s.ghosts = GhostWalls(s.geometry, l, air, params, 0, -1.0, 2.0);
    std::vector<Vec3> solid;
    for (int c = 0; c < l.n[2]; ++c)
      for (int b = 0; b < l.n[1]; ++b)
        for (int a = 0; a < l.n[0]; ++a) {
          const Vec3 x = l.site(a, b, c);
          if (!air(a, b, c)) {
            solid.push_back(x);
            continue;
          }
          const std::size_t n = s.p.size();
          s.p.resize(n + 1);
          s.p.x[n] = x.x, s.p.y[n] = x.y, s.p.z[n] = x.z;
          s.p.rho[n] = 1.2;
          s.p.key[n] = image_key(l.id(a, b, c), kRealImage);
        }
    s.p.n_owned = s.p.size();
    s.ghosts.rebuild(s.p);
    std::size_t expected = 0;
    for (const Vec3& x : solid) {
      bool near = false;
      for (std::size_t i = 0; i < s.p.n_owned && !near; ++i) {
        const Vec3 r = s.p.position(i) - x;
        near = dot(r, r) <= reach * reach;
      }
      expected += near ? 1 : 0;
    }
    EXPECT_EQ(s.p.n_ghost, expected) << "reach " << reach << " m";
  }
}

TEST(GhostWalls, RotatedBoxReproducesALinearField) {
  const double dx = 0.05, L = 1.0;
  auto mesh = rotated_box();
  Room s;
  const Vec3 grad{0.3, -0.2, 0.1};
  const auto rho = [&](const Vec3& x) { return 1.2 + dot(grad, x); };
  const auto vel = [](const Vec3&) { return Vec3{0, 0, 0}; };
  build(s, mesh, L, dx, 0.0, rho, vel);
  ASSERT_GT(s.p.n_ghost, 0u);
  const GhostWalls::Stats& st = s.ghosts.stats();
  EXPECT_EQ(st.dropped, 0u);
  EXPECT_GT(st.lagrange, st.sites / 3);  // measured: 1456 of 3080 at this size
  // Lagrange ghosts are exact for a linear field; Shepard ghosts within the stencil's range.
  std::size_t exact = 0;
  for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
    const Vec3 x = s.p.position(g);
    const WallContact c = s.geometry.contact(x);
    const Vec3 m = 2.0 * c.point - x;
    if (std::abs(s.p.rho[g] - rho(m)) < 1e-12) ++exact;
    EXPECT_NEAR(s.p.rho[g], rho(m), norm(grad) * 2.5 * dx) << x.x << " " << x.y << " " << x.z;
  }
  EXPECT_GE(exact, s.p.n_ghost / 3);  // measured: 986 of 2334
}

// With a clearance, the air's sites near a wall hold ghosts, not particles; such an air-side
// ghost on or near a face takes the normal velocity of the face (0 here), not the air's
// reversed: in a uniform flow v0 every ghost's normal velocity lies within |v0.n|, the ghosts
// behind the wall (Lagrange and Shepard) have exactly -v0.n, and the air-side ones within
// 0.05 dx of their face keep at most a fifth of it.
TEST(GhostWalls, GhostsNearAFaceMoveWithIt) {
  const double dx = 0.05, L = 1.0;
  auto mesh = rotated_box({0, 0, 17});
  Room s;
  const Vec3 v0{0.01, 0.02, -0.015};
  const auto rho = [](const Vec3&) { return 1.2; };
  const auto vel = [&](const Vec3&) { return v0; };
  build(s, mesh, L, dx, 0.0, rho, vel, GhostWalls::kClearance * dx);
  ASSERT_GT(s.p.n_ghost, 0u);
  std::size_t air_side = 0, on_face = 0, reflected = 0;
  for (std::size_t i = 0; i < s.p.n_owned; ++i)
    EXPECT_GT(s.geometry.contact(s.p.position(i)).distance, GhostWalls::kClearance * dx);
  for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
    const Vec3 x = s.p.position(g);
    const WallContact c = s.geometry.contact(x);
    if (c.faces != 1) continue;
    const double vn = dot(s.p.velocity(g), c.normal[0]), v0n = dot(v0, c.normal[0]);
    EXPECT_LE(std::abs(vn), std::abs(v0n) + 1e-15) << x.x << " " << x.y << " " << x.z;
    if (s.geometry.in_air_region(x))
      ++air_side;
    else  // behind the wall: reflected, Lagrange and Shepard ghosts alike
      EXPECT_NEAR(vn, -v0n, 1e-14) << x.x << " " << x.y << " " << x.z;
    if (std::abs(vn + v0n) < 1e-15) ++reflected;
    if (c.distance < 0.05 * dx && s.geometry.in_air_region(x)) {
      ++on_face;
      EXPECT_LE(std::abs(vn), 0.2 * std::abs(v0n)) << x.x << " " << x.y << " " << x.z;
    }
  }
  EXPECT_GT(air_side, 0u);
  EXPECT_GT(on_face, 0u);
  EXPECT_GT(reflected, s.p.n_ghost / 3);
}

TEST(GhostWalls, ResistiveFaceMovesWithPressureOverResistance) {
  const double dx = 0.1, L = 1.0, admittance = 1.0 / 400.0;  // 1/R, m/(Pa s)
  Room s;
  const double rho0 = 1.2, drho = 0.001;
  const auto rho = [&](const Vec3&) { return rho0 + drho; };
  const auto vel = [](const Vec3&) { return Vec3{0.01, 0, 0}; };

  build(s, one_surface_box({0, 0, 0}, {L, L, L}), L, dx, admittance, rho, vel);
  // The ghosts' EOS is the default (rho0 = 1.204, c0 = 343): p = c0^2 (rho - rho0).
  const double p = 343.0 * 343.0 * (rho0 + drho - 1.204);
  bool seen = false;
  for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
    const Vec3 x = s.p.position(g);
    if (!(x.x > L && x.y > 0 && x.y < L && x.z > 0 && x.z < L)) continue;  // the x = L face only
    seen = true;
    // v_g.n = 2 W - v.n with n = +x, W = p / R.
    EXPECT_NEAR(s.p.vx[g], 2.0 * admittance * p - 0.01, 1e-12);
  }
  EXPECT_TRUE(seen);
}

TEST(GhostWalls, ResistiveFaceGhostsCarryThePressureGradientOfItsAcceleration) {
  // The air's density steps from rho1 to rho2 in one step dt: the resistive face's W = p / R
  // changes at dW/dt = (p2 - p1) / (R dt), so the air at the wall is accelerated by
  // -dp/dn = rho0 dW/dt. A ghost at depth d behind the x = L face (its mirror point a particle
  // at depth d) has the mirror density plus -(rho0 / c0^2) 2 d dW/dt; a rigid box's ghosts have
  // the mirror density itself.
  const double dx = 0.1, L = 1.0, admittance = 1.0 / 400.0, dt = 1e-5;
  const double rho1 = 1.204 + 1e-4, rho2 = 1.204 + 3e-4, c2 = 343.0 * 343.0;
  const auto vel = [](const Vec3&) { return Vec3{}; };
  for (double a : {admittance, 0.0}) {
    Room s;
    build(
        s, one_surface_box({0, 0, 0}, {L, L, L}), L, dx, a, [&](const Vec3&) { return rho1; }, vel,
        0.0, {}, dt);
    s.ghosts.advance_faces();  // W^n of the resistive face at rho1
    for (std::size_t i = 0; i < s.p.n_owned; ++i) s.p.rho[i] = rho2;
    s.ghosts.refresh(s.p, Field::Density);
    const double rate = a * c2 * (rho2 - rho1) / dt;  // dW/dt, m/s^2
    bool seen = false;
    for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
      const Vec3 x = s.p.position(g);
      if (!(x.x > L && x.y > 0 && x.y < L && x.z > 0 && x.z < L)) continue;  // the x = L face only
      seen = true;
      const double d = x.x - L;
      EXPECT_NEAR(s.p.rho[g], rho2 - 1.204 / c2 * 2.0 * d * rate, 1e-12) << a << " at " << d;
    }
    EXPECT_TRUE(seen);
  }
}

TEST(GhostWalls, ReactingFaceSettlesAtPressureOverImpedance) {
  // Every face of the box a fitted wall (a panel-like resonance at 354 Hz, R = 2 rho0 c); the air
  // at rest with a uniform density rho0 + drho cos(w t^n), so every ghost's pressure is
  // p = c0^2 drho cos(w t^n) and its face elements are driven as the face of reacting_face.hpp.
  // Over the last period W of each face element matches p / Z(w) (amplitude within 1 %, phase
  // within 0.02 rad), and the ghosts of the x = L face reflect about it: v_g.x = 2 W.
  const double dx = 0.1, L = 1.0, rho_c = 1.204 * 343.0;
  const WallImpedance z{2.0 * rho_c, 0.5, 0.5 * std::pow(2.0 * std::numbers::pi * 354.0, 2)};
  const double dt = 1.0 / (44100.0 * 4.0), rho0 = 1.204, drho = 1e-4;
  for (double f : {125.0, 354.0, 1000.0}) {
    Room s;
    const auto rho = [&](const Vec3&) { return rho0 + drho; };
    const auto vel = [](const Vec3&) { return Vec3{}; };
    build(s, one_surface_box({0, 0, 0}, {L, L, L}), L, dx, 0.0, rho, vel, 0.0, z, dt);
    ASSERT_TRUE(s.ghosts.reacting());
    const double w = 2.0 * std::numbers::pi * f;
    const auto per_period = static_cast<long>(std::llround(1.0 / (f * dt)));
    const long n = 40 * per_period;
    std::vector<GhostWalls::FaceState> last;
    double a = 0.0, b = 0.0;  // the first ghost's first face: W ~ a cos + b sin
    for (long k = 0; k < n; ++k) {
      const double rho_n = rho0 + drho * std::cos(w * static_cast<double>(k) * dt);
      for (std::size_t i = 0; i < s.p.n_owned; ++i) s.p.rho[i] = rho_n;
      s.ghosts.refresh(s.p, Field::Density);
      s.ghosts.advance_faces();
      if (k >= n - per_period) {
        const double t = (static_cast<double>(k) + 0.5) * dt;
        const double W = s.ghosts.face_states().front().w[0];
        a += 2.0 * W * std::cos(w * t) / static_cast<double>(per_period);
        b += 2.0 * W * std::sin(w * t) / static_cast<double>(per_period);
      }
    }
    const double p_amp = 343.0 * 343.0 * drho;
    const std::complex<double> got{a / p_amp, -b / p_amp};
    const std::complex<double> expect = 1.0 / z.at(w);
    EXPECT_NEAR(std::abs(got) / std::abs(expect), 1.0, 0.01) << f << " Hz";
    EXPECT_NEAR(std::arg(got / expect), 0.0, 0.02) << f << " Hz";
    // Every reacting ghost's element is the same (the same pressure everywhere), and the x = L
    // face's ghosts move at 2 W along x once their velocities are refreshed.
    const std::vector<GhostWalls::FaceState> states = s.ghosts.face_states();
    const double W = states.front().w[0];
    for (const GhostWalls::FaceState& g : states)
      for (int q = 0; q < 3; ++q) EXPECT_TRUE(g.w[q] == 0.0 || g.w[q] == W);
    s.ghosts.refresh(s.p, Field::Velocity);
    bool seen = false;
    for (std::size_t g = s.p.n_owned; g < s.p.size(); ++g) {
      const Vec3 x = s.p.position(g);
      if (!(x.x > L && x.y > 0 && x.y < L && x.z > 0 && x.z < L)) continue;
      seen = true;
      EXPECT_DOUBLE_EQ(s.p.vx[g], 2.0 * W);
    }
    EXPECT_TRUE(seen);
  }
}

TEST(GhostWalls, FaceStatesRoundTripByKey) {
  // face_states() lists the active reacting ghosts by ascending key; set_face_states() on a
  // fresh copy of the same walls restores them, whatever the order it is given.
  const double dx = 0.1, L = 1.0;
  const WallImpedance z{500.0, 0.3, 1e5};
  const auto rho = [](const Vec3& x) { return 1.204 + 1e-4 * x.x; };
  const auto vel = [](const Vec3&) { return Vec3{}; };
  Room a, b;
  build(a, one_surface_box({0, 0, 0}, {L, L, L}), L, dx, 0.0, rho, vel, 0.0, z, 1e-5);
  build(b, one_surface_box({0, 0, 0}, {L, L, L}), L, dx, 0.0, rho, vel, 0.0, z, 1e-5);
  for (int k = 0; k < 50; ++k) a.ghosts.advance_faces();
  std::vector<GhostWalls::FaceState> states = a.ghosts.face_states();
  ASSERT_FALSE(states.empty());
  for (std::size_t i = 1; i < states.size(); ++i) EXPECT_LT(states[i - 1].key, states[i].key);
  std::reverse(states.begin(), states.end());
  b.ghosts.set_face_states(states);
  const std::vector<GhostWalls::FaceState> back = b.ghosts.face_states();
  std::reverse(states.begin(), states.end());
  ASSERT_EQ(back.size(), states.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(back[i].key, states[i].key);
    for (int q = 0; q < 3; ++q) {
      EXPECT_EQ(back[i].x[q], states[i].x[q]);
      EXPECT_EQ(back[i].w[q], states[i].w[q]);
    }
  }
}

}  // namespace
}  // namespace sphreverb
