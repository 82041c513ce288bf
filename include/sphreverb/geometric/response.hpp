// The geometric response of one receiver, as the join and the outputs use it: per source of the
// plan (plan.hpp), its box or polyhedral image sources (octave-band taps, or the phased sum of
// phased_images.hpp) plus the noise tail shaped by its ray histograms (synthesis.hpp, the
// source's own noise seed), through the source's drive high-pass, times its weight; summed over
// the sources.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "sphreverb/geometric/plan.hpp"
#include "sphreverb/geometric/ray_tracer.hpp"

namespace sphreverb {

struct GeometricResponse {
  std::vector<std::vector<double>> channels;  // W, or W Y Z X (bformat); realisation 0
  // W of realisations 1 .. realisations - 1 (other noise, the same images and histograms):
  // hybrid.hpp's calibration averages over them with channels[0].
  std::vector<std::vector<double>> more;
  std::size_t images = 0;  // image sources of the receiver, all sources (0 without a box)
};

// Called now and then with the share of the receiver's work done, in [0, 1]; it may throw to
// abandon the response (the caller's stop signals). Empty: none.
using GeoPoll = std::function<void(double)>;

// Receiver r of `plan`, with the histograms of `rays`: source k's in slot k R + r (R receivers;
// none when rays.receivers <= that slot). No source: zeros. `poll` (optional) is called between
// the sources' stages and every few thousand images of a phased sum.
GeometricResponse geometric_response(const HybridPlan& plan, const EnergyHistogram& rays,
                                     std::size_t r, bool bformat, std::size_t realisations,
                                     const GeoPoll& poll = {});

}  // namespace sphreverb
