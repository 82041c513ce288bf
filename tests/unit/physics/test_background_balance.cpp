// Tests of the background pressure balanced at rest (background_balance.hpp): on a free cube of
// lattice particles (its faces are holes in the kernel support) a background pressure pushes the
// surface particles and leaves the bulk at rest; after the balance the lattice at rest feels no
// force at all, while a displaced particle still feels the background pressure's restoring force.
#include <gtest/gtest.h>

#include <cmath>

#include "../../common/lattice_cube.hpp"
#include "sphreverb/physics/background_balance.hpp"
#include "sphreverb/physics/interactions.hpp"
#include "sphreverb/physics/lattice_gradient.hpp"

namespace sphreverb {
namespace {

constexpr int kN = 8;
constexpr double kDx = 0.01, kRho0 = 1.204, kPb = 20000.0;

Particles cube() { return test_support::lattice_cube(kN, kDx, kRho0); }

PairPhysics physics() {
  PairPhysics ph;
  ph.h = 1.3 * kDx;
  ph.mass = kRho0 * kDx * kDx * kDx;
  ph.eos.rho0 = kRho0;
  ph.background_pressure = kPb;
  ph.rest_density = kRho0;
  ph.gradient = lattice_gradient(GradientCorrection::FourthOrder, KernelKind::WendlandC2, 1.3, kDx);
  return ph;
}

double magnitude(const Particles& p, std::size_t i) {
  return std::sqrt(p.ax[i] * p.ax[i] + p.ay[i] * p.ay[i] + p.az[i] * p.az[i]);
}

TEST(BackgroundBalance, LatticeAtRestFeelsNoForceAndADisplacedParticleIsPushedBack) {
  Particles p = cube();
  const PairPhysics ph = physics();
  NeighbourList nl;
  nl.build(p, 2.0 * ph.h + 0.2 * kDx);
  std::vector<double> scratch;
  compute_momentum(p, nl, ph, scratch);
  const double threshold = background_balance_threshold(kPb, kRho0, kDx);
  const std::size_t centre = static_cast<std::size_t>((4 * kN + 4) * kN + 4);
  const std::size_t corner = 0;
  EXPECT_LT(magnitude(p, centre), threshold) << "the bulk is balanced by symmetry";
  EXPECT_GT(magnitude(p, corner), 1e6 * threshold) << "a corner particle is pushed outwards";

  const std::vector<RestAcceleration> rest = BackgroundBalance::at_rest(p, threshold);
  EXPECT_GT(rest.size(), 0u);
  EXPECT_LT(rest.size(), p.size()) << "the bulk needs no record";
  BackgroundBalance balance(rest);
  balance.rebuild(p);
  compute_momentum(p, nl, ph, scratch);
  balance.subtract(p);
  for (std::size_t i = 0; i < p.n_owned; ++i) ASSERT_LT(magnitude(p, i), threshold) << i;

  // A bulk particle displaced along +x by 0.1 dx is pushed back along -x.
  p.x[centre] += 0.1 * kDx;
  compute_momentum(p, nl, ph, scratch);
  balance.subtract(p);
  EXPECT_LT(p.ax[centre], -1e3 * threshold);
}

TEST(BackgroundBalance, WithoutBackgroundPressureTheTableIsEmpty) {
  Particles p = cube();
  PairPhysics ph = physics();
  ph.background_pressure = 0.0;
  NeighbourList nl;
  nl.build(p, 2.0 * ph.h + 0.2 * kDx);
  std::vector<double> scratch;
  compute_momentum(p, nl, ph, scratch);
  EXPECT_TRUE(BackgroundBalance::at_rest(p, 0.0).empty()) << "the lattice at rest: exact zeros";
}

}  // namespace
}  // namespace sphreverb
