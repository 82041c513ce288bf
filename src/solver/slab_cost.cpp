#include "sphreverb/solver/slab_cost.hpp"

namespace sphreverb {

void add_plane_costs(const Particles& p, const NeighbourList& lists,
                     const std::vector<Tether>& tethers, const Lattice& lattice, int axis,
                     const CostWeights& w, std::vector<std::int64_t>& cost) {
  const auto plane = [&](std::size_t i) {
    return static_cast<std::size_t>(lattice.index(p.id(i), axis));
  };
  const auto& offsets = lists.offsets();
  const std::int64_t stencil = static_cast<std::int64_t>(lists.stencil().size());
  std::vector<char> on_stencil(p.n_owned, 0);
  for (const NeighbourList::Run& r : lists.runs())
    for (std::uint32_t i = r.begin; i < r.end; ++i) on_stencil[i] = 1;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const std::int64_t listed = offsets.size() > i + 1 ? offsets[i + 1] - offsets[i] : 0;
    cost[plane(i)] +=
        w.particle + (on_stencil[i] ? w.stencil_pair * stencil : w.list_pair * listed);
  }
  for (const Tether& t : tethers) cost[plane(t.particle)] += w.tether;
  for (std::size_t g = p.n_owned + p.n_halo; g < p.size(); ++g) cost[plane(g)] += w.ghost;
}

std::vector<std::int64_t> plane_costs(const Particles& p, const NeighbourList& lists,
                                      const std::vector<Tether>& tethers, const Lattice& lattice,
                                      int axis, const CostWeights& w, MPI_Comm comm) {
  std::vector<std::int64_t> cost(static_cast<std::size_t>(lattice.n[axis]), 0);
  add_plane_costs(p, lists, tethers, lattice, axis, w, cost);
  MPI_Allreduce(MPI_IN_PLACE, cost.data(), static_cast<int>(cost.size()), MPI_INT64_T, MPI_SUM,
                comm);
  return cost;
}

}  // namespace sphreverb
