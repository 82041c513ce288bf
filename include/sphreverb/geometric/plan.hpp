// Everything the geometric part of one run needs, as plain parameters (built from the scene by
// solver/hybrid_assembly.hpp): the surfaces with their materials, the sources, the ray tracing,
// the image sources per source and receiver, the synthesis and the join with the SPH responses.
//
// Several sources: every sounding source of the scene (the [emitter] disc unless its gain is 0,
// every [emitter.NAME] monopole) is a point source of the geometric part at its own position.
// Source k has its own rays (seed source_seed(seed, k)), its own image sources and its own noise
// (synthesis seed source_seed(seed, k)); its response passes through its own drive high-pass and
// is scaled by its `weight`, and the sources' responses add per receiver (response.hpp). The
// weights are the sources' free-field levels relative to the first sounding source (weight 1):
// a monopole's free-field amplitude at distance d is level gain / d (Pa for a unit input sample),
// a disc on a wall (acceleration drive) radiates into the half space rho0 R^2 k fs^2 gain / (2 d)
// (docs/theory/emitter-receivers.md), its image in the wall supplying half of it, so as a free
// point source rho0 R^2 k fs^2 gain / (4 d). One source alone has weight 1 and the plan is the
// one-source plan of before, bit for bit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sphreverb/geometric/air_absorption.hpp"
#include "sphreverb/geometric/hybrid.hpp"
#include "sphreverb/geometric/image_sources.hpp"
#include "sphreverb/geometric/phased_images.hpp"
#include "sphreverb/geometric/polyhedral_images.hpp"
#include "sphreverb/geometric/ray_tracer.hpp"
#include "sphreverb/geometric/synthesis.hpp"

namespace sphreverb {

// One point source of the geometric part.
struct GeoSource {
  std::string name;        // "emitter" (the disc) or the NAME of [emitter.NAME]
  Vec3 position;           // m
  double weight = 1.0;     // relative free-field amplitude (see above), > 0
  double highpass = 0.0;   // Hz, its drive high-pass (source_filter.hpp); 0 = flat
  std::uint64_t seed = 1;  // of its rays and its noise
};

// The seed of source k of a plan seeded with `seed`: `seed` itself for k = 0, an independent
// stream for every k >= 1.
std::uint64_t source_seed(std::uint64_t seed, std::size_t k);

struct HybridPlan {
  Mesh surfaces;  // triangles; surface[t] indexes `materials`
  std::vector<GeoMaterial> materials;
  // The sounding sources, in the scene's order (the disc first); empty: the geometric part is
  // silent.
  std::vector<GeoSource> sources;
  // Receivers in the scene's order; `source` and `seed` are those of sources[0] (the rays of
  // source k are these with its position and seed: rays_of).
  RayTraceParams rays;
  // An empty [room] box (no other surface): the box's lattice of image sources for the early part.
  bool box_images = false;
  // Per source and receiver, images[k * receivers + r] (box_images only).
  std::vector<BoxImageParams> images;
  // Any other scene: polyhedral image sources (polyhedral_images.hpp) of `faces` (polygon_faces
  // of `surfaces` with `air_side`), per source and receiver poly[k * receivers + r].
  bool poly_images = false;
  std::vector<int> air_side;  // per triangle of `surfaces`
  std::vector<PolyFace> faces;
  std::vector<PolyImageParams> poly;
  bool phased_images = false;  // images through phased_images.hpp, not taps
  double phased_limit = 0.0;   // Hz: taps above it (phased_images.hpp); 0 = none
  SynthesisParams synthesis;
  HybridParams join;
  AirState air;
  bool air_absorption = true;

  // The ray tracing of source k.
  RayTraceParams rays_of(std::size_t k) const {
    RayTraceParams r = rays;
    r.source = sources.at(k).position;
    r.seed = sources.at(k).seed;
    return r;
  }
};

}  // namespace sphreverb
