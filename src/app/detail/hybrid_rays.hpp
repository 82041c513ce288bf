// The geometric part's ray tracing split over the ranks of a run (docs/theory/geometric.md).
#pragma once

#include <mpi.h>

#include "sphreverb/geometric/plan.hpp"

namespace sphreverb::app {

// Collective. Rank k of n traces the ray blocks [k B / n, (k + 1) B / n) of the plan's B blocks;
// rank 0 receives every block's histogram and adds them in block order, so its result is the
// same on any rank count (the other ranks return an empty histogram). `seconds` is the wall time
// on this rank.
EnergyHistogram trace_hybrid_rays(const HybridPlan& plan, MPI_Comm comm, double& seconds);

}  // namespace sphreverb::app
