// Tests of the mirror-particle room walls (mirror_walls.hpp): the number of ghosts near a face, an
// edge and a corner of the box, their positions, velocities, densities and keys, and refresh;
// a resistive face moves with W = p / R taken from its column's first layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <set>
#include <vector>

#include "sphreverb/model/mirror_walls.hpp"

namespace sphreverb {
namespace {

const Vec3 kLo{0.0, 0.0, 0.0}, kHi{1.0, 1.0, 1.0};
constexpr double kWidth = 0.1;

// Appends a particle with position r, velocity v, density rho and id.
void append(Particles& p, const Vec3& r, const Vec3& v, double rho, std::int64_t id) {
  const std::size_t i = p.size();
  p.resize(i + 1);
  p.x[i] = r.x, p.y[i] = r.y, p.z[i] = r.z;
  p.vx[i] = v.x, p.vy[i] = v.y, p.vz[i] = v.z;
  p.rho[i] = rho;
  p.key[i] = image_key(id, kRealImage);
}

// Base-3 digit of `image` for axis a (x is the least significant digit: image 13 = 1 + 3 + 9).
int digit(int image, int axis) {
  int d = image;
  for (int a = 0; a < axis; ++a) d /= 3;
  return d % 3;
}

// Checks every ghost of p against its source (found by id): the key's image digits say which
// faces it is mirrored at; the position is the reflection there, the normal velocity is reversed,
// the tangential kept, the density copied.
void expect_ghosts_are_reflections(const Particles& p) {
  const std::size_t first = p.n_owned + p.n_halo;
  ASSERT_EQ(p.size(), first + p.n_ghost);
  for (std::size_t g = first; g < p.size(); ++g) {
    const std::int64_t id = p.id(g);
    const int image = static_cast<int>(p.key[g] - 27 * id);
    ASSERT_NE(image, kRealImage);
    std::size_t s = first;
    for (std::size_t i = 0; i < first; ++i)
      if (p.id(i) == id) s = i;
    ASSERT_LT(s, first) << "ghost " << g << " has no source";
    for (int a = 0; a < 3; ++a) {
      const int d = digit(image, a);
      const Vec3 r = p.position(g), rs = p.position(s), v = p.velocity(g), vs = p.velocity(s);
      if (d == 1) {
        EXPECT_EQ(r[a], rs[a]);
        EXPECT_EQ(v[a], vs[a]);
      } else {
        const double face = d == 0 ? kLo[a] : kHi[a];
        EXPECT_DOUBLE_EQ(r[a], 2.0 * face - rs[a]) << "ghost " << g << " axis " << a;
        EXPECT_EQ(v[a], -vs[a]) << "ghost " << g << " axis " << a;
        // The source is within the width of that face; the ghost outside the box.
        EXPECT_LT(std::abs(rs[a] - face), kWidth);
        EXPECT_TRUE(r[a] < kLo[a] || r[a] > kHi[a]);
      }
    }
    EXPECT_EQ(p.rho[g], p.rho[s]);
  }
}

// Ghost images of the particle with this id, sorted.
std::vector<int> images_of(const Particles& p, std::int64_t id) {
  std::vector<int> out;
  for (std::size_t g = p.n_owned + p.n_halo; g < p.size(); ++g)
    if (p.id(g) == id) out.push_back(static_cast<int>(p.key[g] % 27));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(MirrorWallsRebuild, FaceEdgeCornerGhostCounts) {
  Particles p;
  append(p, {0.5, 0.5, 0.5}, {1, 2, 3}, 1.2, 1);       // interior: none
  append(p, {0.03, 0.5, 0.5}, {1, 2, 3}, 1.21, 2);     // low x face: 1
  append(p, {0.5, 0.5, 0.95}, {1, 2, 3}, 1.22, 3);     // high z face: 1
  append(p, {0.04, 0.97, 0.5}, {-1, 2, -3}, 1.23, 4);  // low x / high y edge: 3
  append(p, {0.98, 0.02, 0.01}, {4, 5, 6}, 1.24, 5);   // high x / low y / low z corner: 7
  p.n_owned = 4;
  p.n_halo = 1;  // the corner particle is a halo copy: halo entries get ghosts too
  MirrorWalls walls(kLo, kHi, kWidth);
  ASSERT_TRUE(walls.enabled());
  walls.rebuild(p);
  EXPECT_EQ(p.n_ghost, 0u + 1 + 1 + 3 + 7);
  EXPECT_EQ(p.n_owned, 4u);
  EXPECT_EQ(p.n_halo, 1u);
  expect_ghosts_are_reflections(p);

  // image = dx + 3 dy + 9 dz with digit 0 = low face, 1 = not mirrored, 2 = high face.
  EXPECT_EQ(images_of(p, 1), (std::vector<int>{}));
  EXPECT_EQ(images_of(p, 2), (std::vector<int>{0 + 3 + 9}));
  EXPECT_EQ(images_of(p, 3), (std::vector<int>{1 + 3 + 18}));
  EXPECT_EQ(images_of(p, 4), (std::vector<int>{0 + 3 + 9, 0 + 6 + 9, 1 + 6 + 9}));
  std::vector<int> corner;
  for (const int dx : {1, 2})
    for (const int dy : {0, 1})
      for (const int dz : {0, 1})
        if (!(dx == 1 && dy == 1 && dz == 1)) corner.push_back(dx + 3 * dy + 9 * dz);
  std::sort(corner.begin(), corner.end());
  EXPECT_EQ(images_of(p, 5), corner);

  // Keys are image_key(id, image) and unique.
  std::set<std::int64_t> keys(p.key.begin(), p.key.end());
  EXPECT_EQ(keys.size(), p.size());
  for (std::size_t g = 5; g < p.size(); ++g)
    EXPECT_EQ(p.key[g], image_key(p.id(g), static_cast<int>(p.key[g] % 27)));

  // The corner ghost mirrored on all three axes sits at the point reflection through the corner.
  for (std::size_t g = 5; g < p.size(); ++g)
    if (p.key[g] == image_key(5, 2 + 0 + 0)) {
      EXPECT_DOUBLE_EQ(p.x[g], 1.02);
      EXPECT_DOUBLE_EQ(p.y[g], -0.02);
      EXPECT_DOUBLE_EQ(p.z[g], -0.01);
      EXPECT_EQ(p.velocity(g), (Vec3{-4, -5, -6}));
    }
}

TEST(MirrorWallsRebuild, ExactlyOneGhostPerNearFace) {
  // Particles at a sweep of distances from the low-y face: a ghost iff the distance < width.
  Particles p;
  const double d[] = {0.001, 0.05, 0.0999, 0.1001, 0.3};
  for (int i = 0; i < 5; ++i) append(p, {0.5, d[i], 0.5}, {0.1, 0.2, 0.3}, 1.2, 10 + i);
  p.n_owned = 5;
  MirrorWalls walls(kLo, kHi, kWidth);
  walls.rebuild(p);
  EXPECT_EQ(p.n_ghost, 3u);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(images_of(p, 10 + i).size(), d[i] < kWidth ? 1u : 0u) << "distance " << d[i];
  expect_ghosts_are_reflections(p);
}

TEST(MirrorWallsRefresh, FollowsTheSources) {
  Particles p;
  append(p, {0.04, 0.97, 0.5}, {-1, 2, -3}, 1.23, 4);
  append(p, {0.98, 0.02, 0.01}, {4, 5, 6}, 1.24, 5);
  p.n_owned = 2;
  MirrorWalls walls(kLo, kHi, kWidth);
  walls.rebuild(p);
  ASSERT_EQ(p.n_ghost, 10u);

  // Move the sources (staying within the width of the same faces), change v and rho.
  p.x[0] = 0.07, p.y[0] = 0.91, p.vx[0] = 0.5, p.vz[0] = 7.0, p.rho[0] = 1.3;
  p.z[1] = 0.06, p.vy[1] = -8.0, p.rho[1] = 1.1;
  // Density only: positions and velocities of the ghosts stay as they were.
  const std::vector<double> x_before(p.x), vy_before(p.vy);
  walls.refresh(p, Field::Density);
  for (std::size_t g = 2; g < p.size(); ++g) {
    EXPECT_EQ(p.x[g], x_before[g]);
    EXPECT_EQ(p.vy[g], vy_before[g]);
    EXPECT_EQ(p.rho[g], p.rho[p.id(g) == 4 ? 0 : 1]);
  }
  walls.refresh(p, kAllDynamic);
  expect_ghosts_are_reflections(p);
  EXPECT_EQ(p.n_ghost, 10u);
}

TEST(MirrorWallsRebuild, DisabledMakesNoGhosts) {
  Particles p;
  append(p, {0.01, 0.01, 0.01}, {}, 1.2, 1);
  p.n_owned = 1;
  MirrorWalls walls;
  EXPECT_FALSE(walls.enabled());
  walls.rebuild(p);
  EXPECT_EQ(p.n_ghost, 0u);
  EXPECT_EQ(p.size(), 1u);
}

// A resistive face x_max (admittance Y) on a 10^3 lattice of the unit box (dx = 0.1, sites at
// 0.05 ... 0.95), the other faces rigid. Two particles of one column near x_max (first and second
// layer, lattice x index 9 and 8) and one near y_min in another column.
TEST(MirrorWallsResistive, GhostVelocityReflectsAboutTheFaceVelocity) {
  const Lattice lattice{{0.05, 0.05, 0.05}, 0.1, {10, 10, 10}};
  const Eos eos{EosKind::Linear, 1.2, 340.0, 1.4};
  const double y_adm = 1.0 / (3.0 * 1.2 * 340.0);  // zeta = 3
  std::array<double, 6> admittance{};
  admittance[1] = y_adm;  // x_max
  Particles p;
  append(p, lattice.site(8, 5, 5), {0.3, 0.1, -0.2}, 1.2 + 2e-3, lattice.id(8, 5, 5));
  append(p, lattice.site(9, 5, 5), {0.5, 0.0, 0.0}, 1.2 + 1e-3, lattice.id(9, 5, 5));
  append(p, lattice.site(4, 0, 5), {0.1, 0.7, 0.0}, 1.2 + 5e-3, lattice.id(4, 0, 5));
  p.n_owned = 3;
  MirrorWalls walls(kLo, kHi, 0.25, admittance, eos, lattice);
  walls.rebuild(p);
  ASSERT_EQ(p.n_ghost, 3u);
  const double w = y_adm * eos.pressure(p.rho[1]);  // x_max moves out (+x) at p_first_layer / R
  for (std::size_t g = 3; g < p.size(); ++g) {
    const std::int64_t id = p.id(g);
    const std::size_t s = id == p.id(0) ? 0 : (id == p.id(1) ? 1 : 2);
    EXPECT_EQ(p.rho[g], p.rho[s]);
    if (s < 2) {
      EXPECT_DOUBLE_EQ(p.x[g], 2.0 - p.x[s]);
      // The mean normal velocity of a source and its image is the face's: W = p / R.
      EXPECT_DOUBLE_EQ(0.5 * (p.vx[g] + p.vx[s]), w) << "source " << s;
      EXPECT_EQ(p.vy[g], p.vy[s]);
    } else {
      EXPECT_EQ(p.vy[g], -p.vy[s]);  // the rigid face y_min
      EXPECT_EQ(p.vx[g], p.vx[s]);
    }
  }
  // A density refresh moves the face with the first layer's new pressure.
  p.rho[1] = 1.2 - 4e-3;
  walls.refresh(p, Field::Density);
  const double w2 = y_adm * eos.pressure(p.rho[1]);
  ASSERT_LT(w2, 0.0);
  for (std::size_t g = 3; g < p.size(); ++g)
    if (p.id(g) != p.id(2)) {
      const std::size_t s = p.id(g) == p.id(0) ? 0 : 1;
      EXPECT_DOUBLE_EQ(0.5 * (p.vx[g] + p.vx[s]), w2);
    }
  // A vector kept outside the store (the hyperviscosity's L(v)) is reflected without the face's
  // own motion: the components normal to the mirroring faces change sign, the others are copied.
  std::vector<double> fx(p.vx), fy(p.vy), fz(p.vz);
  walls.refresh_reflected(p, fx, fy, fz);
  for (std::size_t g = 3; g < p.size(); ++g) {
    const std::size_t s = p.id(g) == p.id(0) ? 0 : (p.id(g) == p.id(1) ? 1 : 2);
    EXPECT_EQ(fx[g], s < 2 ? -fx[s] : fx[s]) << "source " << s;
    EXPECT_EQ(fy[g], s < 2 ? fy[s] : -fy[s]) << "source " << s;
    EXPECT_EQ(fz[g], fz[s]) << "source " << s;
  }
}

// The emitter disc on the x_min face: the images across it of the columns the disc covers
// reflect the normal velocity about the disc's times the share of the column's face cell it
// covers; the rest of the face (and the other faces, also for those particles) stays rigid.
TEST(MirrorWallsPiston, ImagesBehindTheDiscReflectAboutItsVelocity) {
  const Lattice lattice{{0.05, 0.05, 0.05}, 0.1, {10, 10, 10}};
  const Eos eos{EosKind::Linear, 1.2, 340.0, 1.4};
  Particles p;
  const Vec3 v{0.3, 0.1, -0.2};
  append(p, lattice.site(0, 5, 5), v, 1.2, lattice.id(0, 5, 5));  // on the disc's axis
  append(p, lattice.site(1, 5, 7), v, 1.2, lattice.id(1, 5, 7));  // its cell cut by the edge
  append(p, lattice.site(0, 2, 5), v, 1.2, lattice.id(0, 2, 5));  // 0.3 m off it: the baffle
  append(p, lattice.site(0, 0, 5), v, 1.2, lattice.id(0, 0, 5));  // near y_min: an edge image
  append(p, lattice.site(9, 5, 5), v, 1.2, lattice.id(9, 5, 5));  // x_max: no piston there
  p.n_owned = 5;
  MirrorWalls walls(kLo, kHi, 0.2, {}, eos, lattice);
  // Radius 0.16 m about (y, z) = (0.55, 0.55): it covers the axis's cell [0.5, 0.6]^2 wholly and
  // a sliver (z in [0.65, 0.71]) of the cell [0.5, 0.6] x [0.7, 0.8].
  walls.set_piston({0, {0.0, 0.55, 0.55}, 0.16, 1.0});
  ASSERT_TRUE(walls.driven());
  walls.rebuild(p);
  ASSERT_EQ(p.n_ghost, 7u);  // one image each, three for the particle near the edge x_min, y_min
  const double speed = 2e-3;
  walls.set_piston_speed(speed);
  walls.refresh_piston(p);
  for (std::size_t g = 5; g < p.size(); ++g) {
    const std::int64_t id = p.id(g);
    std::size_t s = 0;
    while (p.id(s) != id) ++s;
    const int image = static_cast<int>(p.key[g] % 27);
    // The mean normal velocity of a source and its image is the face's: V behind the disc.
    const double mean = 0.5 * (p.vx[g] + p.vx[s]);
    if (digit(image, 0) == 0 && s == 0)
      EXPECT_DOUBLE_EQ(mean, speed);
    else if (digit(image, 0) == 0 && s == 1)
      EXPECT_TRUE(mean > 0.0 && mean < 0.2 * speed) << mean;
    else if (digit(image, 0) != 1)
      EXPECT_EQ(mean, 0.0) << "source " << s << " image " << image;
    else
      EXPECT_EQ(p.vx[g], p.vx[s]);
    EXPECT_EQ(p.vy[g], digit(image, 1) == 1 ? p.vy[s] : -p.vy[s]);
    EXPECT_EQ(p.vz[g], p.vz[s]);
  }
  // A full refresh keeps the disc's velocity; speed 0 is the rigid face.
  walls.refresh(p, kAllDynamic);
  EXPECT_DOUBLE_EQ(0.5 * (p.vx[5] + p.vx[0]), speed);
  walls.set_piston_speed(0.0);
  walls.refresh_piston(p);
  for (std::size_t g = 5; g < p.size(); ++g) {
    std::size_t s = 0;
    while (p.id(s) != p.id(g)) ++s;
    EXPECT_EQ(p.vx[g], digit(static_cast<int>(p.key[g] % 27), 0) == 1 ? p.vx[s] : -p.vx[s]);
  }
}

// The face moves the air as the disc does: summed over a whole layer of columns, the face's
// velocity behind them times the cell area dx^2 is the disc's volume velocity V pi a^2, for
// discs centred on a site, a cell corner and in between, and a radius of a few spacings.
TEST(MirrorWallsPiston, TheFaceCarriesTheDiscsVolumeVelocity) {
  const double dx = 0.01;
  const Lattice lattice{{0.005, 0.005, 0.005}, dx, {40, 40, 40}};
  const Eos eos{EosKind::Linear, 1.2, 340.0, 1.4};
  Particles p;
  for (int j = 0; j < 40; ++j)
    for (int k = 0; k < 40; ++k)
      append(p, lattice.site(0, j, k), {0.0, 0.0, 0.0}, 1.2, lattice.id(0, j, k));
  p.n_owned = p.size();
  const double speed = 1e-3;
  for (const double a : {0.025, 0.0333, 0.1}) {
    for (const Vec3 c : {Vec3{0.0, 0.2, 0.2}, Vec3{0.0, 0.205, 0.205}, Vec3{0.0, 0.2013, 0.1977}}) {
      p.resize(p.n_owned), p.n_ghost = 0;
      MirrorWalls walls({0.0, 0.0, 0.0}, {0.4, 0.4, 0.4}, 0.008, {}, eos, lattice);
      walls.set_piston({0, c, a, 1.0});
      walls.rebuild(p);
      walls.set_piston_speed(speed);
      walls.refresh_piston(p);
      double volume_velocity = 0.0;
      for (std::size_t g = p.n_owned; g < p.size(); ++g) {
        std::size_t s = 0;
        while (p.id(s) != p.id(g)) ++s;
        volume_velocity += 0.5 * (p.vx[g] + p.vx[s]) * dx * dx;
      }
      const double expected = speed * std::numbers::pi * a * a;
      EXPECT_NEAR(volume_velocity, expected, 2e-3 * expected) << "radius " << a;
    }
  }
}

TEST(MirrorWallsReacting, ElementsAdvanceAndGhostsReflectAboutTheirVelocity) {
  const Lattice lattice{{0.05, 0.05, 0.05}, 0.1, {10, 10, 10}};
  const Eos eos{EosKind::Linear, 1.2, 340.0, 1.4};
  std::array<WallImpedance, 6> reacting{};
  reacting[1] = {800.0, 0.05, 2e5};  // x_max
  const double dt = 1e-5;
  Particles p;
  append(p, lattice.site(8, 5, 5), {0.3, 0.1, -0.2}, 1.2 + 2e-3, lattice.id(8, 5, 5));
  append(p, lattice.site(9, 5, 5), {0.5, 0.0, 0.0}, 1.2 + 1e-3, lattice.id(9, 5, 5));
  append(p, lattice.site(4, 0, 5), {0.1, 0.7, 0.0}, 1.2 + 5e-3, lattice.id(4, 0, 5));
  p.n_owned = 3;
  MirrorWalls walls(kLo, kHi, 0.25, {}, reacting, dt, eos, lattice);
  ASSERT_TRUE(walls.reacting());
  p.enable_face_state();
  walls.rebuild(p);
  ASSERT_EQ(p.n_ghost, 3u);
  // Two steps of the first layer's element (x_max, axis 0) by hand; nothing else moves.
  walls.advance_faces(p);
  walls.advance_faces(p);
  const ReactingFaceStep step(reacting[1], dt);
  double x = 0.0, w = 0.0;
  step.advance(eos.pressure(p.rho[1]), x, w);
  step.advance(eos.pressure(p.rho[1]), x, w);
  EXPECT_DOUBLE_EQ(p.face_w[0][1], w);
  EXPECT_DOUBLE_EQ(p.face_x[0][1], x);
  for (std::size_t i : {0, 2})
    for (int a = 0; a < 3; ++a) EXPECT_EQ(p.face_w[a][i], 0.0) << i << " " << a;
  walls.refresh(p, Field::Velocity);
  for (std::size_t g = 3; g < p.size(); ++g) {
    const std::int64_t id = p.id(g);
    const std::size_t s = id == p.id(0) ? 0 : (id == p.id(1) ? 1 : 2);
    if (s < 2)  // the mean normal velocity of a source and its image is the element's W
      EXPECT_DOUBLE_EQ(0.5 * (p.vx[g] + p.vx[s]), w) << "source " << s;
    else
      EXPECT_EQ(p.vy[g], -p.vy[s]);  // the rigid face y_min
  }
}

}  // namespace
}  // namespace sphreverb
