// What the geometric part of [hybrid] will cost before it runs: the image sources per source and
// receiver, their memory and time, and the rays' time. `check` prints it (hybrid_cost_report),
// the run logs it, and `run` (and `sphreverb hybrid`) refuse before any work a geometric part
// whose image sources do not fit in memory (refuse_if_hybrid_out_of_memory).
//
// Image sources within the reach R = c min(image_time, record) of a room of volume V: a box's
// lattice of images holds about (4 pi / 3) R^3 / V of every order (each image's cell has the
// room's volume); a polyhedral room's images stop at image_order, so at most
// candidate_bound(F, order) of them (geometric/polyhedral_images.hpp) and about as many as the
// reach holds. A rank holds the images of one source and receiver at a time
// (app/detail/hybrid_rays.hpp: the receivers are split over the ranks).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "sphreverb/config/scene.hpp"

namespace sphreverb {

// Measured on the development machine (a 0.3 x 0.24 x 0.2 m box, 0.1 s record, 4e4 to 3e5 images
// per receiver, phased limits 800, 3200 and 20000 Hz; docs/theory/geometric.md, "Cost"): the
// phased sum's seconds per image and FFT bin and channel, and per image and grid point (the
// spherical-wave factors of the three axes); an octave-band tap's seconds per image and
// synthesised signal; a polyhedral candidate's examination.
inline constexpr double kPhasedBinSeconds = 2e-9;
inline constexpr double kPhasedPointSeconds = 1e-7;
inline constexpr double kTapImageSeconds = 1e-7;
inline constexpr double kCandidateSeconds = 1e-6;
// The ray tracer's seconds per ray segment (docs/theory/geometric.md).
inline constexpr double kRaySegmentSeconds = 2e-6;

struct HybridCost {
  bool present = false;  // the scene has [hybrid] and a sounding source
  std::size_t sources = 0, receivers = 0;
  double images = 0.0;         // per source and receiver (estimate)
  double candidates = 0.0;     // polyhedral: examined per source and receiver (bound)
  double image_bytes = 0.0;    // per rank: the images of one source and receiver
  double image_seconds = 0.0;  // wall time of the image sources on `ranks` ranks
  double segments = 0.0;       // ray segments, all sources (one per mean free path: an estimate)
  double ray_seconds = 0.0;    // wall time of the rays on `ranks` ranks
  int ranks = 1;
  double seconds() const { return image_seconds + ray_seconds; }
};

// No allocation proportional to the images; builds the plan (make_hybrid_plan).
HybridCost estimate_hybrid_cost(const Scene& scene, int ranks);

// The line `check` prints for the geometric part ("" without [hybrid]).
std::string hybrid_cost_report(const HybridCost& cost);

// Collective over comm: throws SceneError on every rank (exit 2) naming [hybrid] image_time (and
// image_order for a polyhedral room) when the image sources of one source and receiver would take
// more than a rank's share of its node's MemAvailable (cost.hpp's rule). Nothing without [hybrid]
// or when MemAvailable is unknown.
void refuse_if_hybrid_out_of_memory(const Scene& scene, MPI_Comm comm);

}  // namespace sphreverb
