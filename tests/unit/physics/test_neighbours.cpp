// Tests of the cell-list neighbour search (neighbour_list.hpp) against the O(N^2) search, and of
// the neighbour loops (interactions.hpp) against a double loop over all pairs written here with
// the pair terms of pair_terms.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "sphreverb/config/scene.hpp"  // to_string of the enums
#include "sphreverb/core/particles.hpp"
#include "sphreverb/physics/interactions.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/neighbour_list.hpp"
#include "sphreverb/physics/pair_terms.hpp"

namespace sphreverb {
namespace {

// Appends a particle at r with the given key; all other fields zero.
void append(Particles& p, const Vec3& r, std::int64_t key) {
  const std::size_t i = p.size();
  p.resize(i + 1);
  p.x[i] = r.x, p.y[i] = r.y, p.z[i] = r.z;
  p.key[i] = key;
}

// A jittered n^3 lattice of spacing dx (the owned particles) followed by uniformly random points
// in and around it (the "halo" entries). Keys are a shuffled permutation, so key order is not
// index order.
Particles test_cloud(int n, double dx, double jitter, std::size_t n_halo, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const std::size_t total = std::size_t(n) * n * n + n_halo;
  std::vector<std::int64_t> ids(total);
  std::iota(ids.begin(), ids.end(), std::int64_t{100});
  std::shuffle(ids.begin(), ids.end(), rng);
  Particles p;
  std::size_t next = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const Vec3 r{(i + jitter * unit(rng)) * dx, (j + jitter * unit(rng)) * dx,
                     (k + jitter * unit(rng)) * dx};
        append(p, r, image_key(ids[next++], kRealImage));
      }
  p.n_owned = p.size();
  const double extent = n * dx;
  std::uniform_real_distribution<double> around(-0.2 * extent, 1.2 * extent);
  for (std::size_t h = 0; h < n_halo; ++h)
    append(p, {around(rng), around(rng), around(rng)}, image_key(ids[next++], kRealImage));
  p.n_halo = n_halo;
  return p;
}

// nl (built on p with `radius`) lists what the O(N^2) search finds, in key order.
void expect_lists_brute_force(const NeighbourList& nl, const Particles& p, double radius) {
  const auto reference = brute_force_neighbours(p, radius);
  ASSERT_EQ(nl.size(), p.n_owned);
  ASSERT_EQ(reference.size(), p.n_owned);
  ASSERT_EQ(nl.offsets().size(), p.n_owned + 1);
  EXPECT_EQ(nl.offsets().front(), 0u);
  std::size_t pairs = 0;
  std::vector<std::uint32_t> got;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    nl.neighbours(i, got);
    ASSERT_EQ(got, reference[i]) << "particle " << i << ", radius " << radius;
    EXPECT_EQ(std::count(got.begin(), got.end(), static_cast<std::uint32_t>(i)), 0)
        << "self listed";
    for (std::size_t k = 1; k < got.size(); ++k) EXPECT_LT(p.key[got[k - 1]], p.key[got[k]]);
    pairs += got.size();
  }
  EXPECT_EQ(nl.pairs(), pairs);
}

void expect_same_as_brute_force(const Particles& p, double radius) {
  NeighbourList nl;
  nl.build(p, radius);
  expect_lists_brute_force(nl, p, radius);
}

TEST(NeighboursList, EqualsBruteForceOnJitteredLatticeWithHalo) {
  const double dx = 0.01;
  const Particles p = test_cloud(9, dx, 0.3, 700, 12345);
  ASSERT_LT(p.n_owned, p.size());
  for (const double radius : {0.5 * dx, 1.0 * dx, 2.6 * dx + 0.2 * dx, 4.1 * dx})
    expect_same_as_brute_force(p, radius);
}

TEST(NeighboursList, EqualsBruteForceOnRandomPoints) {
  // No lattice: all owned particles random (clusters and voids), plus halo entries.
  std::mt19937_64 rng(777);
  std::uniform_real_distribution<double> u(0.0, 0.1);
  Particles p;
  for (int i = 0; i < 600; ++i) append(p, {u(rng), u(rng), 0.3 * u(rng)}, image_key(5000 - i, 7));
  p.n_owned = 450;
  p.n_halo = 150;
  for (const double radius : {0.003, 0.011, 0.027}) expect_same_as_brute_force(p, radius);
}

TEST(NeighboursList, ExactLatticeDistancesOnTheRadius) {
  // An exact lattice with the radius equal to a lattice distance: "<= radius" must agree.
  const double dx = 0.25;  // exactly representable
  const Particles p = test_cloud(6, dx, 0.0, 0, 1);
  expect_same_as_brute_force(p, 2.0 * dx);
  NeighbourList nl;
  nl.build(p, 1.0 * dx);
  // An interior site has its 6 face neighbours at exactly dx.
  const std::size_t interior = 2 + 6 * (2 + 6 * 2);
  std::vector<std::uint32_t> list;
  nl.neighbours(interior, list);
  EXPECT_EQ(list.size(), 6u);
}

TEST(NeighboursList, EmptyAndSingle) {
  Particles p;
  NeighbourList nl;
  nl.build(p, 0.1);
  EXPECT_EQ(nl.size(), 0u);
  EXPECT_EQ(nl.pairs(), 0u);
  append(p, {0.5, 0.5, 0.5}, 13);
  p.n_owned = 1;
  nl.build(p, 0.1);
  ASSERT_EQ(nl.size(), 1u);
  EXPECT_EQ(nl.pairs(), 0u);
}

// A jittered n^3 lattice whose keys are the lattice ids (index order = key order, as the solver
// keeps its owned particles), then random "halo" entries with larger keys. A jitter below
// ~0.005 dx keeps the lists of a 2.8 dx radius on the lattice pattern (the next lattice distance
// is sqrt(8) dx).
Particles keyed_lattice(int n, double dx, double jitter, std::size_t n_halo, std::uint32_t seed) {
  Particles p = test_cloud(n, dx, jitter, n_halo, seed);
  for (std::size_t i = 0; i < p.size(); ++i)
    p.key[i] = image_key(static_cast<std::int64_t>(i), kRealImage);
  return p;
}

TEST(NeighboursList, StencilFormListsTheSameAsExplicitLists) {
  const double dx = 0.01;
  const Particles p = keyed_lattice(12, dx, 0.004, 30, 2024);
  NeighbourList stencil, plain;
  stencil.build(p, 2.8 * dx);
  plain.build(p, 2.8 * dx, false);
  // The bulk is on the stencil, but for the sites near a random halo entry.
  EXPECT_GE(stencil.on_stencil(), 200u);
  EXPECT_EQ(plain.on_stencil(), 0u);
  EXPECT_LT(stencil.index().size(), plain.index().size());
  EXPECT_EQ(stencil.pairs(), plain.pairs());
  std::vector<std::uint32_t> a, b;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    stencil.neighbours(i, a);
    plain.neighbours(i, b);
    ASSERT_EQ(a, b) << "particle " << i;
  }
  expect_same_as_brute_force(p, 2.8 * dx);
}

TEST(NeighboursList, RebuildsReuseTheirSearchAndListTheSame) {
  // A rebuild keeps the first search's lists of the particles it expects off the last build's
  // stencil; those it expected on it but that do not fit, and every list when the stencil
  // changes, are searched again. Each rebuild of one object must list what a fresh build does.
  const double dx = 0.01, radius = 2.8 * dx;
  Particles p = keyed_lattice(12, dx, 0.004, 30, 99);
  NeighbourList nl;
  nl.build(p, radius);
  const std::size_t on_lattice = nl.on_stencil();
  ASSERT_GE(on_lattice, 100u);
  // Some particles leave the pattern (their lists change, the stencil does not).
  std::mt19937_64 rng(4);
  std::uniform_int_distribution<std::size_t> pick(0, p.n_owned - 1);
  for (int k = 0; k < 40; ++k) p.x[pick(rng)] += 0.45 * dx;
  nl.build(p, radius);
  EXPECT_LT(nl.on_stencil(), on_lattice);
  expect_lists_brute_force(nl, p, radius);
  NeighbourList fresh;
  fresh.build(p, radius);
  EXPECT_EQ(nl.stencil(), fresh.stencil());
  EXPECT_EQ(nl.index(), fresh.index());
  EXPECT_EQ(nl.offsets(), fresh.offsets());
  // Another radius: another stencil, so no list kept is of use.
  nl.build(p, 1.5 * dx);
  expect_lists_brute_force(nl, p, 1.5 * dx);
  fresh.build(p, 1.5 * dx);
  EXPECT_EQ(nl.index(), fresh.index());
  // Back on a clean lattice, then a cloud with no lattice at all.
  nl.build(keyed_lattice(12, dx, 0.0, 30, 99), radius);
  const Particles cloud = test_cloud(8, dx, 0.4, 200, 5);
  nl.build(cloud, radius);
  expect_lists_brute_force(nl, cloud, radius);
}

TEST(NeighboursCellOrder, KeyOrderSortsTheOwnedByKey) {
  const Particles p = test_cloud(6, 0.01, 0.4, 100, 5);
  Particles q = p;
  q.permute_owned(NeighbourList::key_order(p));
  for (std::size_t i = 1; i < q.n_owned; ++i) EXPECT_LT(q.key[i - 1], q.key[i]);
}

TEST(NeighboursCellOrder, IsAPermutationOfTheOwned) {
  const Particles p = test_cloud(7, 0.01, 0.4, 200, 99);
  for (const double cell : {0.005, 0.026, 1.0}) {
    std::vector<std::size_t> order = NeighbourList::cell_order(p, cell);
    ASSERT_EQ(order.size(), p.n_owned);
    std::sort(order.begin(), order.end());
    for (std::size_t i = 0; i < order.size(); ++i) ASSERT_EQ(order[i], i) << "cell " << cell;
  }
  // Permuting by it keeps the set of particles and their keys.
  Particles q = p;
  q.permute_owned(NeighbourList::cell_order(p, 0.026));
  std::vector<std::int64_t> a(p.key.begin(), p.key.begin() + p.n_owned);
  std::vector<std::int64_t> b(q.key.begin(), q.key.begin() + q.n_owned);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

// --- the neighbour loops against a double loop -------------------------------------------------

struct Reference {
  std::vector<Vec3> acc;
  std::vector<double> drho;
  std::vector<double> acc_scale, drho_scale;  // sum of |term| per particle, for the tolerance
};

// All pairs (i owned, j any entry != i, r < 2h), in index order, with the pair terms.
template <class Kernel>
Reference double_loop(const Particles& p, const PairPhysics& phys, const Kernel& k) {
  Reference out;
  out.acc.resize(p.n_owned);
  out.drho.assign(p.n_owned, 0.0);
  out.acc_scale.assign(p.n_owned, 0.0);
  out.drho_scale.assign(p.n_owned, 0.0);
  const auto p_over_rho2 = [&](std::size_t j) {
    return (phys.eos.pressure(p.rho[j]) + phys.background_pressure) / (p.rho[j] * p.rho[j]);
  };
  for (std::size_t i = 0; i < p.n_owned; ++i)
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (j == i) continue;
      const Vec3 xij = p.position(i) - p.position(j), vij = p.velocity(i) - p.velocity(j);
      const double r2 = dot(xij, xij), r = std::sqrt(r2);
      if (r >= k.support()) continue;
      // The lattice-corrected factor G = F (a + b r^2) is grad W in the pressure and continuity
      // terms; viscosity and density diffusion keep the plain F.
      const double F = k.F(r), G = F * (phys.gradient.a + phys.gradient.b * r2),
                   vdotx = dot(vij, xij);
      const double visc = pair::artificial_viscosity(phys.viscosity, phys.eos.c0, phys.h, vdotx, r2,
                                                     0.5 * (p.rho[i] + p.rho[j]));
      const Vec3 a = xij * (pair::momentum(phys.mass, p_over_rho2(i), p_over_rho2(j), 0.0, G) +
                            pair::momentum(phys.mass, 0.0, 0.0, visc, F));
      out.acc[i] += a;
      out.acc_scale[i] += norm(a);
      const double c = pair::continuity(phys.mass, vdotx, G);
      const double d = pair::density_diffusion(phys.density_diffusion, phys.h, phys.eos.c0,
                                               p.rho[i], p.rho[j], r2, F, phys.mass / p.rho[j]);
      out.drho[i] += c + d;
      out.drho_scale[i] += std::abs(c) + std::abs(d);
    }
  return out;
}

// Air at rest density rho0 on a lattice of spacing dx with h = 1.3 dx, the fourth-order gradient
// unless told otherwise, and the given dissipation.
PairPhysics air_physics(KernelKind kind, double dx, double rho0, double viscosity, double diffusion,
                        double background_pressure,
                        GradientCorrection correction = GradientCorrection::FourthOrder) {
  PairPhysics phys;
  phys.kernel = kind;
  phys.h = 1.3 * dx;
  phys.mass = rho0 * dx * dx * dx;
  phys.eos = Eos{EosKind::Linear, rho0, 343.0, 1.4};
  phys.viscosity = viscosity;
  phys.density_diffusion = diffusion;
  phys.background_pressure = background_pressure;
  phys.gradient = lattice_gradient(correction, kind, 1.3, dx);
  return phys;
}

// Random velocities (|v_a| <= 0.05 m/s) and densities (rho0 (1 +- 0.01)) on every entry.
void stir(Particles& p, double rho0, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.vx[i] = 0.05 * u(rng), p.vy[i] = 0.05 * u(rng), p.vz[i] = 0.05 * u(rng);
    p.rho[i] = rho0 * (1.0 + 0.01 * u(rng));
  }
}

TEST(NeighboursInteractions, LoopsEqualDoubleLoop) {
  const double dx = 0.01, rho0 = 1.204;
  for (const KernelKind kind : {KernelKind::WendlandC2, KernelKind::CubicSpline}) {
    Particles p = test_cloud(8, dx, 0.15, 300, 4242);
    stir(p, rho0, 31);
    const PairPhysics phys = air_physics(kind, dx, rho0, 0.1, 0.1, 50.0);
    EXPECT_NE(phys.gradient.a, 1.0);
    EXPECT_LT(phys.gradient.b, 0.0);

    NeighbourList nl;
    nl.build(p, 2.0 * phys.h + 0.2 * dx);
    std::vector<double> scratch;
    compute_momentum(p, nl, phys, scratch);
    compute_continuity(p, nl, phys);

    const Reference ref =
        with_kernel(kind, phys.h, [&](const auto& k) { return double_loop(p, phys, k); });
    double max_acc = 0.0, max_drho = 0.0, worst_acc = 0.0, worst_drho = 0.0;
    for (std::size_t i = 0; i < p.n_owned; ++i) {
      const Vec3 a{p.ax[i], p.ay[i], p.az[i]};
      ASSERT_GT(ref.acc_scale[i], 0.0);
      EXPECT_LE(norm(a - ref.acc[i]), 1e-12 * ref.acc_scale[i]) << "particle " << i;
      EXPECT_LE(std::abs(p.drho[i] - ref.drho[i]), 1e-12 * ref.drho_scale[i]) << "particle " << i;
      max_acc = std::max(max_acc, norm(ref.acc[i]));
      max_drho = std::max(max_drho, std::abs(ref.drho[i]));
      worst_acc = std::max(worst_acc, norm(a - ref.acc[i]) / ref.acc_scale[i]);
      worst_drho = std::max(worst_drho, std::abs(p.drho[i] - ref.drho[i]) / ref.drho_scale[i]);
    }
    std::printf("[ measured ] %s: max |a - a_ref| / sum|terms| = %.1e, drho: %.1e\n",
                kind == KernelKind::WendlandC2 ? "wendland" : "cubic", worst_acc, worst_drho);
    // The configuration is not trivial: forces and density rates are far from zero.
    EXPECT_GT(max_acc, 1.0);
    EXPECT_GT(max_drho, 1e-3);
  }
}

// Particles on the stencil are summed by the vectorised loop, the others from explicit lists:
// a particle's sums must not depend on which form its list has (on another rank count the same
// particle may be near a slab face), bit for bit.
TEST(NeighboursInteractions, StencilAndExplicitListsGiveTheSameBits) {
  const double dx = 0.01, rho0 = 1.204;
  for (const KernelKind kind : {KernelKind::WendlandC2, KernelKind::CubicSpline})
    for (const bool viscous : {false, true})
      for (const bool diffusive : {false, true}) {
        Particles p = keyed_lattice(13, dx, 0.004, 30, 77);
        stir(p, rho0, 5);
        const PairPhysics phys =
            air_physics(kind, dx, rho0, viscous ? 0.1 : 0.0, diffusive ? 0.1 : 0.0, 50.0);
        std::vector<double> scratch, a[2][4];
        for (const bool use_stencil : {true, false}) {
          NeighbourList nl;
          nl.build(p, 2.0 * phys.h + 0.2 * dx, use_stencil);
          if (use_stencil) {
            EXPECT_GT(nl.on_stencil(), 200u);
          }
          compute_momentum(p, nl, phys, scratch);
          compute_continuity(p, nl, phys);
          std::vector<double>* out = a[use_stencil ? 0 : 1];
          out[0] = p.ax, out[1] = p.ay, out[2] = p.az, out[3] = p.drho;
        }
        for (int f = 0; f < 4; ++f) {
          ASSERT_EQ(a[0][f].size(), a[1][f].size());
          EXPECT_EQ(0, std::memcmp(a[0][f].data(), a[1][f].data(), a[0][f].size() * sizeof(double)))
              << "field " << f << ", viscosity " << viscous << ", diffusion " << diffusive;
        }
      }
}

// The vector Laplacian (the hyperviscosity's) gives the bits of three scalar ones, on stencil and
// explicit lists alike.
TEST(NeighboursInteractions, VectorLaplacianIsThreeScalarOnes) {
  const double dx = 0.01, rho0 = 1.204;
  Particles p = keyed_lattice(13, dx, 0.004, 30, 77);
  stir(p, rho0, 9);
  const PairPhysics phys = air_physics(KernelKind::WendlandC2, dx, rho0, 0.0, 0.0, 0.0);
  for (const bool use_stencil : {true, false}) {
    NeighbourList nl;
    nl.build(p, 2.0 * phys.h + 0.2 * dx, use_stencil);
    std::vector<double> one[3], three[3];
    for (int a = 0; a < 3; ++a) one[a].assign(p.size(), 0.0), three[a].assign(p.size(), 0.0);
    const double* f[3] = {p.vx.data(), p.vy.data(), p.vz.data()};
    for (int a = 0; a < 3; ++a) compute_laplacian(p, nl, phys, f[a], one[a].data());
    compute_laplacian(p, nl, phys, {p.vx.data(), p.vy.data(), p.vz.data()},
                      {three[0].data(), three[1].data(), three[2].data()});
    for (int a = 0; a < 3; ++a)
      EXPECT_EQ(0, std::memcmp(one[a].data(), three[a].data(), p.n_owned * sizeof(double)))
          << "component " << a << ", stencil " << use_stencil;
  }
}

// drho/dt of the velocity field v = (eps x^p, 0, 0) on an exact 9^3 lattice, at the sites at least
// 3 spacings (> 2h = 2.6 dx) from its edges, against -rho0 div v = -rho0 p eps x^(p-1): the largest
// error relative to max |div v| there.
double divergence_error(KernelKind kind, GradientCorrection correction, int power) {
  const double dx = 0.01, rho0 = 1.204, eps = 0.3;
  const int n = 9;
  Particles p = test_cloud(n, dx, 0.0, 0, 8);
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.vx[i] = eps * std::pow(p.x[i], power), p.vy[i] = 0.0, p.vz[i] = 0.0;
    p.rho[i] = rho0;
  }
  // Diffusion on: the density is uniform, so it must add nothing.
  const PairPhysics phys = air_physics(kind, dx, rho0, 0.0, 0.1, 0.0, correction);
  NeighbourList nl;
  nl.build(p, 2.0 * phys.h + 0.2 * dx);
  compute_continuity(p, nl, phys);
  double worst = 0.0, scale = 0.0;
  for (int k = 3; k < n - 3; ++k)
    for (int j = 3; j < n - 3; ++j)
      for (int i = 3; i < n - 3; ++i) {
        const std::size_t s = i + std::size_t(n) * (j + std::size_t(n) * k);
        const double exact = -rho0 * power * eps * std::pow(p.x[s], power - 1);
        worst = std::max(worst, std::abs(p.drho[s] - exact));
        scale = std::max(scale, std::abs(exact));
      }
  return worst / scale;
}

TEST(NeighboursInteractions, CorrectedDivergenceIsExactOnTheLattice) {
  // Both corrections make the first moment exact: div of a linear field is exact. Only the
  // fourth-order one also makes the third moment vanish, so that div of a cubic field is exact
  // (lattice_gradient.hpp); the first-moment correction is not, by a clear margin.
  for (const KernelKind kind : {KernelKind::WendlandC2, KernelKind::CubicSpline}) {
    const char* name = kind == KernelKind::WendlandC2 ? "wendland" : "cubic";
    for (const auto c : {GradientCorrection::FirstMoment, GradientCorrection::FourthOrder})
      EXPECT_LT(divergence_error(kind, c, 1), 1e-12) << name << " " << to_string(c);
    const double fourth = divergence_error(kind, GradientCorrection::FourthOrder, 3);
    const double first = divergence_error(kind, GradientCorrection::FirstMoment, 3);
    std::printf(
        "[ measured ] %s: div of a cubic field, relative error %.1e (fourth_order), "
        "%.1e (first_moment)\n",
        name, fourth, first);
    EXPECT_LT(fourth, 1e-11) << name;
    EXPECT_GT(first, 1e-3) << name;
    const double none = divergence_error(kind, GradientCorrection::None, 1);
    EXPECT_GT(none, 1e-3) << name << ": without correction the first moment is not exact";
  }
}

}  // namespace
}  // namespace sphreverb
