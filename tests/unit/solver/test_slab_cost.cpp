// The work per plane that the slabs are balanced by (slab_cost.hpp): on a 12^3 lattice without
// walls, the bulk particles are on the stencil and cost `particle + stencil_pair * S`, the ones
// near the faces have explicit lists of fewer neighbours; every particle is charged to its plane
// and tethers add to theirs.
#include <gtest/gtest.h>

#include <numeric>

#include "sphreverb/solver/slab_cost.hpp"

namespace sphreverb {
namespace {

TEST(SlabCost, PerParticleModelChargedToItsPlane) {
  const double dx = 0.01;
  const Lattice l = Lattice::filling({0, 0, 0}, {12 * dx, 12 * dx, 12 * dx}, dx);
  ASSERT_EQ(l.n[0], 12);
  Particles p;
  fill_lattice(p, l, {}, 0, -1.0, 1.0, 1.2);
  p.permute_owned(NeighbourList::key_order(p));  // as a rebuild keeps them: the stencil's order
  NeighbourList lists;
  lists.build(p, 2.6 * dx);
  ASSERT_GT(lists.on_stencil(), 0u);
  ASSERT_LT(lists.on_stencil(), p.n_owned);
  const CostWeights w{40, 6, 10, 40, 30};
  const std::vector<Tether> tethers = {{0, 0, 0.0}, {5, 0, 0.0}};  // particles 0 and 5: plane 0, 5
  std::vector<std::int64_t> cost(12, 0);
  add_plane_costs(p, lists, tethers, l, 0, w, cost);

  // The same model written out from each particle's neighbour list.
  std::vector<std::int64_t> want(12, 0);
  const std::int64_t stencil = static_cast<std::int64_t>(lists.stencil().size());
  std::vector<std::uint32_t> nb;
  std::size_t on = 0;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    lists.neighbours(i, nb);
    const bool bulk = lists.offsets()[i + 1] == lists.offsets()[i];
    on += bulk;
    if (bulk) {
      EXPECT_EQ(static_cast<std::int64_t>(nb.size()), stencil);
    }
    want[static_cast<std::size_t>(l.index(p.id(i), 0))] +=
        w.particle + (bulk ? w.stencil_pair * stencil : w.list_pair * std::int64_t(nb.size()));
  }
  EXPECT_EQ(on, lists.on_stencil());
  want[static_cast<std::size_t>(l.index(p.id(0), 0))] += w.tether;
  want[static_cast<std::size_t>(l.index(p.id(5), 0))] += w.tether;
  EXPECT_EQ(cost, want);
  // The middle planes hold bulk particles, so they cost more than the end planes (fewer
  // neighbours): the model sees where the work is.
  EXPECT_GT(cost[6], cost[0]);
  EXPECT_EQ(cost[6], cost[7]);
}

}  // namespace
}  // namespace sphreverb
