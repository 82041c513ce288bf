// Tests of the particle shifting (shifting.hpp): on a cube of lattice particles moving as one the
// bulk does not move (the concentration gradient of a lattice is zero); a particle pushed towards
// a neighbour is shifted back, away from it, by at most the step's limit; particles not movable
// (held by a wall, on their site) or slower than the threshold stay; a linear density and velocity
// field is carried to the shifted position exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../../common/lattice_cube.hpp"
#include "sphreverb/physics/interactions.hpp"
#include "sphreverb/physics/shifting.hpp"

namespace sphreverb {
namespace {

constexpr int kN = 9;
constexpr double kDx = 0.01, kRho0 = 1.204, kDt = 1e-5;

std::size_t at(int i, int j, int k) { return static_cast<std::size_t>((k * kN + j) * kN + i); }

Particles cube(double vx) {
  Particles p = test_support::lattice_cube(kN, kDx, kRho0);
  for (double& v : p.vx) v = vx;
  return p;
}

PairPhysics physics() {
  PairPhysics ph;
  ph.h = 1.3 * kDx;
  ph.mass = kRho0 * kDx * kDx * kDx;
  ph.rest_density = kRho0;
  return ph;
}

Shift shift_of(const Particles& p, double strength, std::vector<char> movable = {}) {
  NeighbourList nl;
  nl.build(p, 2.0 * physics().h + 0.2 * kDx);
  if (movable.empty()) movable.assign(p.n_owned, 1);
  return compute_shift(p, nl, physics(), strength, kDt, kDx, movable);
}

TEST(Shifting, TheLatticeStaysAndACrowdedParticleMovesAway) {
  Particles p = cube(3.0);
  const std::size_t c = at(4, 4, 4), n = at(5, 4, 4);
  Shift s = shift_of(p, 2.0);
  EXPECT_LT(std::abs(s.dx[c]) + std::abs(s.dy[c]) + std::abs(s.dz[c]), 1e-15 * kDx)
      << "a lattice has no concentration gradient";
  EXPECT_EQ(s.drho[c], 0.0);
  p.x[c] += 0.3 * kDx;  // crowds its +x neighbour
  s = shift_of(p, 2.0);
  EXPECT_LT(s.dx[c], 0.0) << "pushed back, away from the crowd";
  EXPECT_GT(s.dx[n], 0.0) << "the neighbour moves away too";
  EXPECT_LT(std::abs(s.dy[c]), 1e-12 * kDx);
  const double len = std::sqrt(s.dx[c] * s.dx[c] + s.dy[c] * s.dy[c] + s.dz[c] * s.dz[c]);
  EXPECT_LE(len, kShiftLimit * kDx * (1.0 + 1e-12));
  // The stencil form of the lists and the explicit one give the same bits.
  NeighbourList explicit_lists;
  explicit_lists.build(p, 2.0 * physics().h + 0.2 * kDx, false);
  const Shift e =
      compute_shift(p, explicit_lists, physics(), 2.0, kDt, kDx, std::vector<char>(p.n_owned, 1));
  EXPECT_EQ(e.dx, s.dx);
  EXPECT_EQ(e.drho, s.drho);
  // -A h |v| dt grad C: the shift scales with the strength and the speed (below the limit).
  const Shift half = shift_of(p, 1.0);
  EXPECT_NEAR(half.dx[c], 0.5 * s.dx[c], 1e-12 * std::abs(s.dx[c]));
}

TEST(Shifting, ParticlesNotMovableAndSlowOnesStay) {
  Particles p = cube(3.0);
  const std::size_t c = at(4, 4, 4), slow = at(3, 4, 4);
  p.x[c] += 0.3 * kDx;
  p.vx[slow] = 0.5 * kShiftMinSpeed;
  std::vector<char> movable(p.n_owned, 1);
  movable[c] = 0;
  const Shift s = shift_of(p, 2.0, movable);
  EXPECT_EQ(s.dx[c], 0.0);
  EXPECT_EQ(s.dx[slow], 0.0);
  EXPECT_NE(s.dx[at(5, 4, 4)], 0.0) << "the crowded neighbour that no wall holds moves";
}

TEST(Shifting, AFewMovingParticlesGetTheBitsTheyGetAmongMany) {
  // With few particles moving the passes run over those alone, with most over every particle: a
  // particle's shift and carried values must not depend on which.
  Particles p = cube(3.0);
  const std::size_t c = at(4, 4, 4);
  p.x[c] += 0.3 * kDx;
  for (std::size_t i = 0; i < p.n_owned; ++i) p.rho[i] = kRho0 + 0.01 * p.x[i] * p.y[i] / kDx;
  const std::vector<std::size_t> few = {at(3, 3, 5), at(3, 4, 4), c,
                                        at(5, 4, 4), at(0, 0, 0), at(8, 8, 8)};
  NeighbourList nl;
  nl.build(p, 2.0 * physics().h + 0.2 * kDx);
  bool stencil = false, listed = false;  // both forms of the lists among the few
  for (std::size_t i : few) {
    const bool on =
        std::any_of(nl.runs().begin(), nl.runs().end(),
                    [&](const NeighbourList::Run& r) { return r.begin <= i && i < r.end; });
    (on ? stencil : listed) = true;
  }
  ASSERT_TRUE(stencil && listed);
  std::vector<char> movable(p.n_owned, 0);
  for (std::size_t i : few) movable[i] = 1;
  const Shift some = shift_of(p, 2.0, movable);
  const Shift all = shift_of(p, 2.0);
  for (std::size_t i : few) {
    EXPECT_EQ(some.dx[i], all.dx[i]) << "particle " << i;
    EXPECT_EQ(some.dy[i], all.dy[i]) << "particle " << i;
    EXPECT_EQ(some.drho[i], all.drho[i]) << "particle " << i;
    EXPECT_EQ(some.dvx[i], all.dvx[i]) << "particle " << i;
  }
  EXPECT_NE(some.dx[c], 0.0);
  EXPECT_NE(some.drho[c], 0.0);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < p.n_owned; ++i) moved += some.dx[i] != 0.0 || some.drho[i] != 0.0;
  EXPECT_LE(moved, few.size()) << "only the movable particles move";
}

TEST(Shifting, CarriesLinearFieldsToTheNewPosition) {
  Particles p = cube(3.0);
  const std::size_t c = at(4, 4, 4);
  p.y[c] += 0.3 * kDx;                   // crowds its +y neighbour: a shift along y
  const double g_rho = 2.0, g_v = 50.0;  // kg/m^4, 1/s
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    p.rho[i] = kRho0 + g_rho * p.y[i];
    p.vz[i] = g_v * p.y[i];
  }
  NeighbourList nl;
  nl.build(p, 2.0 * physics().h + 0.2 * kDx);
  const std::vector<char> movable(p.n_owned, 1);
  const Shift s = compute_shift(p, nl, physics(), 2.0, kDt, kDx, movable);
  ASSERT_LT(s.dy[c], 0.0);
  // The SPH gradient of a linear field is exact to the kernel's first moment on this
  // neighbourhood (within a few % for the displaced particle); the carried values follow it.
  EXPECT_NEAR(s.drho[c] / (g_rho * s.dy[c]), 1.0, 0.1);
  EXPECT_NEAR(s.dvz[c] / (g_v * s.dy[c]), 1.0, 0.1);
  Particles q = p;
  apply_shift(q, s);
  EXPECT_DOUBLE_EQ(q.y[c], p.y[c] + s.dy[c]);
  EXPECT_DOUBLE_EQ(q.rho[c], p.rho[c] + s.drho[c]);
}

}  // namespace
}  // namespace sphreverb
