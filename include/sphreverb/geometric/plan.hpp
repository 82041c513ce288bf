// Everything the geometric part of one run needs, as plain parameters (built from the scene by
// solver/hybrid_assembly.hpp): the surfaces with their materials, the ray tracing, the image
// sources per receiver, the synthesis and the join with the SPH responses.
#pragma once

#include <vector>

#include "sphreverb/geometric/air_absorption.hpp"
#include "sphreverb/geometric/hybrid.hpp"
#include "sphreverb/geometric/image_sources.hpp"
#include "sphreverb/geometric/phased_images.hpp"
#include "sphreverb/geometric/ray_tracer.hpp"
#include "sphreverb/geometric/synthesis.hpp"

namespace sphreverb {

struct HybridPlan {
  Mesh surfaces;  // triangles; surface[t] indexes `materials`
  std::vector<GeoMaterial> materials;
  RayTraceParams rays;                 // receivers in the scene's order
  bool box_images = false;             // a [room] box: image sources for the early part
  std::vector<BoxImageParams> images;  // per receiver (box_images only)
  bool phased_images = false;          // images through phased_images.hpp, not taps
  double phased_limit = 0.0;           // Hz: taps above it (phased_images.hpp); 0 = none
  SynthesisParams synthesis;
  HybridParams join;
  AirState air;
  bool air_absorption = true;
};

}  // namespace sphreverb
