// The work of a step per lattice plane: what the slabs are balanced by when a run has more than
// one rank (Slabs::balanced takes these costs in place of the particle counts).
//
// A particle's cost per step is a linear model of the work the step does for it, in integer
// units (so that sums over ranks are exact and every rank cuts the same slabs):
//
//     cost_i = particle + stencil_pair * S           (on the lattice stencil, S = stencil size)
//            | particle + list_pair * n_i            (explicit neighbour list of n_i entries)
//            + tether * (tethers of i) + ghost * (mirror images whose source is i)
//
// The weights were calibrated by measuring the phase times of 1-rank runs of bench/box.ini
// (mirror walls: nearly every particle on the stencil) and bench/room.ini (force walls and
// objects: explicit lists near every wall) against the counts of each kind
// (docs/performance.md, "Balancing the slabs"). Particles near walls, objects and slab faces
// keep explicit lists, whose pairs cost several times a stencil pair, so a plane near a wall
// costs more than a bulk plane with the same particle count.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/physics/neighbour_list.hpp"

namespace sphreverb {

struct CostWeights {
  std::int64_t particle = 0;      // per owned particle: integration, rebuild check, refreshes
  std::int64_t stencil_pair = 0;  // per neighbour of a particle on the stencil
  std::int64_t list_pair = 0;     // per neighbour of a particle with an explicit list
  std::int64_t tether = 0;        // per tether (particle, wall)
  std::int64_t ghost = 0;         // per mirror image refreshed from an owned particle
};

// Units of about 1 ns of one core (docs/performance.md, "Balancing the slabs"): a pair of the
// two pair loops 6 on the stencil, 10 from a list; a particle's integration 40.
inline constexpr CostWeights kCostWeights{40, 6, 10, 40, 30};

// This rank's part: adds each owned particle's cost (and its ghosts') to cost[plane], the
// lattice plane of its rest site along `axis` (cost has lattice.n[axis] entries). Ghosts (the
// entries [n_owned + n_halo, size())) are charged to the plane of their source's site (the id
// of their key), where the rank that refreshes them owns the source.
void add_plane_costs(const Particles& p, const NeighbourList& lists,
                     const std::vector<Tether>& tethers, const Lattice& lattice, int axis,
                     const CostWeights& w, std::vector<std::int64_t>& cost);

// Collective over comm: the sum of add_plane_costs over the ranks (exact: integers), identical
// on every rank.
std::vector<std::int64_t> plane_costs(const Particles& p, const NeighbourList& lists,
                                      const std::vector<Tether>& tethers, const Lattice& lattice,
                                      int axis, const CostWeights& w, MPI_Comm comm);

}  // namespace sphreverb
