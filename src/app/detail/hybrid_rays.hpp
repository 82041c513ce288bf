// The geometric part of [hybrid] split over the ranks of a run (docs/theory/geometric.md): the
// ray tracing by blocks of rays, the receivers' responses by receiver.
#pragma once

#include <mpi.h>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/geometric/plan.hpp"
#include "sphreverb/geometric/response.hpp"

namespace sphreverb::app {

// Collective. The plan's sources' ray blocks, source after source (B per source, S B in all), in
// rounds of n blocks: rank k of n traces block i n + k of round i; rank 0 gathers the round's
// histograms and adds them in block order into the source's slots (source k, receiver r: slot
// k R + r), so its result is the same on any rank count (the other ranks return an empty
// histogram) and no rank holds more than a round. After every round the ranks agree on the stop
// signals (stop_signal.hpp): one received anywhere throws Interrupted on every rank. Rank 0 logs
// the progress with an ETA every `progress_every` seconds (0: never). `seconds` is the wall time
// on this rank.
EnergyHistogram trace_hybrid_rays(const HybridPlan& plan, MPI_Comm comm, double& seconds,
                                  double progress_every = 0.0);

// Collective. Rank 0 broadcasts `rays` (trace_hybrid_rays's sum; ignored elsewhere); in rounds
// of n receivers, rank k of n computes geometric_response for receiver i n + k of round i (W Y Z
// X for an ambisonic receiver, else W; kCalibrationRealisations) and sends it to rank 0, which
// returns all of them in scene order (the other ranks an empty vector). A response does not
// depend on the rank that computed it. A stop signal is polled within the image sources' sums
// (a rank that received one leaves its receiver there); after every round the ranks agree on it
// and throw Interrupted. Rank 0 logs its receiver's progress with an ETA every `progress_every`
// seconds (0: never). `seconds` is the wall time on this rank.
std::vector<GeometricResponse> geometric_responses(const Scene& scene, const HybridPlan& plan,
                                                   EnergyHistogram rays, MPI_Comm comm,
                                                   double& seconds, double progress_every = 0.0);

}  // namespace sphreverb::app
