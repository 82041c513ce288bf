// The full-band files of a run with [hybrid] (rank 0): per receiver NAME.full.raw.wav (float, Pa:
// the SPH response below the crossover, the calibrated geometric one above it) and
// NAME.full.wav (16-bit, normalised like NAME.wav, or 100 Pa full scale), per group
// GROUP.full.wav and GROUP.full.raw.wav (one channel per member). The geometric response of each
// receiver is synthesised from its image sources and the summed ray histogram
// (geometric/synthesis.hpp) and joined to NAME.raw.wav's samples (geometric/hybrid.hpp).
#pragma once

#include <string>
#include <vector>

#include "sphreverb/geometric/plan.hpp"
#include "sphreverb/io/output.hpp"

namespace sphreverb {

struct HybridReceiverOutput {
  std::string name, wav, raw_wav;
  std::size_t images = 0;                // image sources in the response
  double mismatch_db = 0.0;              // overlap octave, geometric vs SPH, before calibration
  double gain = 1.0;                     // applied to the geometric response (Pa per unit of it)
  double early_db = 0.0, late_db = 0.0;  // after calibration (hybrid.hpp)
};

struct HybridFacts {
  double crossover = 0.0;  // Hz
  std::uint64_t rays = 0, segments = 0;
  double receiver_radius = 0.0;    // m
  double trace_seconds = 0.0;      // wall time of the ray tracing (all ranks, in parallel)
  double synthesis_seconds = 0.0;  // wall time of synthesis, join and files (rank 0)
  std::vector<HybridReceiverOutput> receivers;  // scene order
  std::vector<GroupOutput> groups;
};

std::string full_wav_name(const std::string& name);      // NAME.full.wav
std::string full_raw_wav_name(const std::string& name);  // NAME.full.raw.wav

// `rays` is the block-ordered sum of every ray block; `sph` the receivers' outputs in scene
// order. Fills receivers and groups of `facts` (the caller sets the rest).
void write_hybrid_wavs(const Scene& scene, const HybridPlan& plan, const EnergyHistogram& rays,
                       const std::vector<ReceiverOutput>& sph, const std::string& dir,
                       HybridFacts& facts, io::StagedFiles* staged = nullptr);

}  // namespace sphreverb
