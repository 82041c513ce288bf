// Tests of the slab decomposition (slabs.hpp): balanced cuts, ownership of positions, and the
// error for a domain too thin for the requested rank count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sphreverb/parallel/slabs.hpp"

namespace sphreverb {
namespace {

// n uniform planes of spacing dx filling [0, n dx], plane p at (p + 1/2) dx, `count` sites each.
struct Planes {
  std::vector<double> pos;
  std::vector<std::int64_t> count;
  double lo = 0.0, hi = 0.0;
};
Planes uniform_planes(int n, double dx, std::int64_t count) {
  Planes p;
  for (int i = 0; i < n; ++i) p.pos.push_back((i + 0.5) * dx), p.count.push_back(count);
  p.hi = n * dx;
  return p;
}

// Planes per slab: the planes whose position lies in [lo(r), hi(r)).
std::vector<int> planes_per_slab(const Slabs& s, const Planes& p) {
  std::vector<int> n(s.ranks(), 0);
  for (const double x : p.pos)
    for (int r = 0; r < s.ranks(); ++r)
      if (x >= s.lo(r) && x < s.hi(r)) ++n[r];
  return n;
}

TEST(SlabsBalanced, UniformPlanesDifferByAtMostOnePlane) {
  for (const int n_planes : {10, 37, 100}) {
    const Planes p = uniform_planes(n_planes, 0.01, 50);
    for (int ranks = 1; ranks <= n_planes; ++ranks) {
      const Slabs s = Slabs::balanced(2, p.pos, p.count, p.lo, p.hi, ranks, 0.0);
      ASSERT_EQ(s.ranks(), ranks);
      EXPECT_EQ(s.axis(), 2);
      EXPECT_EQ(s.lo(0), p.lo);
      EXPECT_EQ(s.hi(ranks - 1), p.hi);
      const std::vector<int> n = planes_per_slab(s, p);
      int lo = n_planes, hi = 0, total = 0;
      for (int r = 0; r < ranks; ++r) {
        lo = std::min(lo, n[r]), hi = std::max(hi, n[r]), total += n[r];
        if (r > 0) {
          EXPECT_EQ(s.lo(r), s.hi(r - 1));
        }
        EXPECT_LT(s.lo(r), s.hi(r));
      }
      EXPECT_EQ(total, n_planes) << n_planes << " planes, " << ranks << " ranks";
      EXPECT_LE(hi - lo, 1) << n_planes << " planes, " << ranks << " ranks";
      EXPECT_GE(lo, 1) << n_planes << " planes, " << ranks << " ranks";
    }
  }
}

TEST(SlabsBalanced, CutsSitBetweenPlanes) {
  const Planes p = uniform_planes(40, 0.01, 7);
  const Slabs s = Slabs::balanced(0, p.pos, p.count, p.lo, p.hi, 6, 0.0);
  for (int r = 1; r < s.ranks(); ++r) {
    const double cut = s.lo(r);
    // Halfway between two neighbouring planes: (k + 1) dx for some k.
    const double k = cut / 0.01;
    EXPECT_NEAR(k, std::round(k), 1e-9) << "cut " << r << " at " << cut;
  }
}

TEST(SlabsBalanced, WeightedPlanesBalanceCounts) {
  // Counts rising linearly: the slabs hold far fewer planes at the dense end.
  Planes p = uniform_planes(60, 0.01, 0);
  std::int64_t total = 0;
  for (int i = 0; i < 60; ++i) total += (p.count[i] = 10 + 10 * i);
  const int ranks = 4;
  const Slabs s = Slabs::balanced(1, p.pos, p.count, p.lo, p.hi, ranks, 0.0);
  std::vector<std::int64_t> per(ranks, 0);
  for (int i = 0; i < 60; ++i) per[s.owner(p.pos[i])] += p.count[i];
  const std::int64_t max_plane = p.count.back();
  for (int r = 0; r < ranks; ++r)
    EXPECT_LE(std::abs(per[r] - total / ranks), max_plane) << "slab " << r;
  EXPECT_GT(s.hi(ranks - 1) - s.lo(ranks - 1), 0.0);
  EXPECT_LT(s.hi(ranks - 1) - s.lo(ranks - 1), s.hi(0) - s.lo(0));
}

TEST(SlabsOwner, EveryPlaneBelongsToTheSlabHoldingIt) {
  const Planes p = uniform_planes(53, 0.02, 3);
  for (const int ranks : {1, 2, 5, 13}) {
    const Slabs s = Slabs::balanced(0, p.pos, p.count, p.lo, p.hi, ranks, 0.0);
    for (const double x : p.pos) {
      const int r = s.owner(x);
      ASSERT_GE(r, 0);
      ASSERT_LT(r, ranks);
      EXPECT_GE(x, s.lo(r));
      EXPECT_LT(x, s.hi(r));
    }
    // A position exactly on a cut belongs to the slab above it ([lo, hi)).
    for (int r = 1; r < ranks; ++r) EXPECT_EQ(s.owner(s.lo(r)), r);
    // Beyond the ends: the first and last slab.
    EXPECT_EQ(s.owner(p.lo), 0);
    EXPECT_EQ(s.owner(p.lo - 1e-3), 0);
    EXPECT_EQ(s.owner(-1e9), 0);
    EXPECT_EQ(s.owner(p.hi), ranks - 1);
    EXPECT_EQ(s.owner(p.hi + 1e-3), ranks - 1);
    EXPECT_EQ(s.owner(1e9), ranks - 1);
  }
}

TEST(SlabsMaxRanks, HundredPlanesOfOneCentimetre) {
  // 100 planes of 1 cm; each slab must be >= 4.2 cm, i.e. hold >= 5 whole planes (cuts sit between
  // planes, so a 4-plane slab is 4 cm thick): at most 100 / 5 = 20 ranks. (floor(1 m / 4.2 cm) = 23
  // would need slabs of 4.35 planes.)
  const Planes p = uniform_planes(100, 0.01, 10);
  const double min_thickness = 0.042;
  const int n = Slabs::max_ranks(p.pos, p.count, p.lo, p.hi, min_thickness);
  EXPECT_EQ(n, 20);
  for (int ranks = 1; ranks <= n; ++ranks)
    EXPECT_NO_THROW(Slabs::balanced(0, p.pos, p.count, p.lo, p.hi, ranks, min_thickness))
        << ranks << " ranks";
  EXPECT_THROW(Slabs::balanced(0, p.pos, p.count, p.lo, p.hi, n + 1, min_thickness),
               DecompositionError);
}

TEST(SlabsMaxRanks, MonotoneInTheMinimumThickness) {
  const Planes p = uniform_planes(100, 0.01, 10);
  int previous = 1 << 30;
  for (const double t :
       {0.005, 0.012, 0.025, 0.031, 0.042, 0.055, 0.095, 0.335, 0.495, 0.505, 2.0}) {
    const int n = Slabs::max_ranks(p.pos, p.count, p.lo, p.hi, t);
    EXPECT_GE(n, 1) << "min thickness " << t;
    EXPECT_LE(n, previous) << "min thickness " << t;
    // Every slab must hold ceil(t / dx) planes (t is never a multiple of dx here, so rounding of
    // the cut positions cannot decide).
    const int planes = static_cast<int>(std::ceil(t / 0.01));
    EXPECT_EQ(n, std::max(1, 100 / planes)) << "min thickness " << t;
    previous = n;
  }
}

TEST(SlabsErrors, ThinDomainNamesTheLargestRankCount) {
  const Planes p = uniform_planes(12, 0.01, 4);
  const double min_thickness = 0.035;  // 4 planes per slab: at most 3 ranks
  const int n = Slabs::max_ranks(p.pos, p.count, p.lo, p.hi, min_thickness);
  ASSERT_EQ(n, 3);
  for (const int ranks : {4, 5, 12, 30}) {
    try {
      Slabs::balanced(0, p.pos, p.count, p.lo, p.hi, ranks, min_thickness);
      ADD_FAILURE() << ranks << " ranks: no DecompositionError";
    } catch (const DecompositionError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("at most " + std::to_string(n) + " ranks"), std::string::npos) << msg;
    }
  }
}

TEST(SlabsErrors, MoreRanksThanPlanesThrows) {
  const Planes p = uniform_planes(3, 0.01, 4);
  EXPECT_EQ(Slabs::max_ranks(p.pos, p.count, p.lo, p.hi, 0.0), 3);
  EXPECT_THROW(Slabs::balanced(0, p.pos, p.count, p.lo, p.hi, 4, 0.0), DecompositionError);
}

}  // namespace
}  // namespace sphreverb
