// The geometric part of [hybrid] split over the ranks of a run (docs/theory/geometric.md): the
// ray tracing by blocks of rays, the receivers' responses by receiver.
#pragma once

#include <mpi.h>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/geometric/plan.hpp"
#include "sphreverb/geometric/response.hpp"

namespace sphreverb::app {

// Collective. The plan's sources' ray blocks, source after source (B per source, S B in all);
// rank k of n traces the blocks [k S B / n, (k + 1) S B / n); rank 0 receives every block's
// histogram and adds them in block order into the source's slots (source k, receiver r: slot
// k R + r), so its result is the same on any rank count (the other ranks return an empty
// histogram). `seconds` is the wall time
// on this rank.
EnergyHistogram trace_hybrid_rays(const HybridPlan& plan, MPI_Comm comm, double& seconds);

// Collective. Rank 0 broadcasts `rays` (trace_hybrid_rays's sum; ignored elsewhere); rank k of n
// computes geometric_response for the receivers r with r mod n = k (W Y Z X for an ambisonic
// receiver, else W; kCalibrationRealisations) and sends them to rank 0, which returns all of
// them in scene order (the other ranks an empty vector). A response does not depend on the
// rank that computed it. `seconds` is the wall time on this rank.
std::vector<GeometricResponse> geometric_responses(const Scene& scene, const HybridPlan& plan,
                                                   EnergyHistogram rays, MPI_Comm comm,
                                                   double& seconds);

}  // namespace sphreverb::app
