// The full-band files of a run with [hybrid] (rank 0): per receiver NAME.full.raw.wav (float, Pa:
// the SPH response below the crossover, the calibrated geometric one above it) and
// NAME.full.wav (16-bit, normalised like NAME.wav, or 100 Pa full scale), per group
// GROUP.full.wav and GROUP.full.raw.wav (one channel per member). The geometric response of each
// receiver is synthesised from its image sources and the summed ray histogram
// (geometric/synthesis.hpp) and joined to NAME.raw.wav's samples (geometric/hybrid.hpp).
// An ambisonic receiver also gets NAME.amb.full.raw.wav / NAME.amb.full.wav (ambiX W Y Z X,
// SN3D): each channel of NAME.amb.raw.wav below the crossover, the geometric B-format
// (synthesize_bformat) above it, joined with the omnidirectional channel's gain, so that W is
// NAME.full.raw.wav sample for sample; with binaural = true, NAME.binaural.full.wav decoded from
// it as NAME.binaural.wav is from the SPH B-format.
#pragma once

#include <string>
#include <vector>

#include "sphreverb/geometric/join_check.hpp"
#include "sphreverb/geometric/plan.hpp"
#include "sphreverb/geometric/response.hpp"
#include "sphreverb/io/output.hpp"

namespace sphreverb {

struct HybridReceiverOutput {
  std::string name, wav, raw_wav;
  std::string amb_wav, amb_raw_wav;      // "" unless the receiver is ambisonic
  std::string binaural_wav;              // "" unless it is also binaural
  std::size_t images = 0;                // image sources in the response
  double mismatch_db = 0.0;              // overlap octave, geometric vs SPH, before calibration
  double gain = 1.0;                     // applied to the geometric response (Pa per unit of it)
  double early_db = 0.0, late_db = 0.0;  // after calibration (hybrid.hpp)
  OctaveDecay decay;                     // in the octave holding the crossover (join_check.hpp)
};

struct HybridFacts {
  double crossover = 0.0;  // Hz
  std::uint64_t rays = 0, segments = 0;
  double receiver_radius = 0.0;    // m
  double trace_seconds = 0.0;      // wall time of the ray tracing (all ranks, in parallel)
  double synthesis_seconds = 0.0;  // wall time of synthesis, join and files (rank 0)
  std::vector<HybridReceiverOutput> receivers;  // scene order
  std::vector<GroupOutput> groups;
  JoinVerdict join;  // V19's criteria on this run's join (join_check.hpp; the caller judges)
};

std::string full_wav_name(const std::string& name);           // NAME.full.wav
std::string full_raw_wav_name(const std::string& name);       // NAME.full.raw.wav
std::string full_amb_wav_name(const std::string& name);       // NAME.amb.full.wav
std::string full_amb_raw_wav_name(const std::string& name);   // NAME.amb.full.raw.wav
std::string full_binaural_wav_name(const std::string& name);  // NAME.binaural.full.wav

// `geometric` holds each receiver's geometric response in scene order (geometric_response:
// W Y Z X for an ambisonic receiver, else W, with kCalibrationRealisations realisations); `sph`
// the receivers' outputs in scene order, `ambisonic` the ambisonic receivers'
// (write_ambisonic_wavs). Fills receivers and groups of `facts` (the caller sets the rest).
// Throws SignalError if the SOFA file cannot be read.
void write_hybrid_wavs(const Scene& scene, const HybridPlan& plan,
                       const std::vector<GeometricResponse>& geometric,
                       const std::vector<ReceiverOutput>& sph,
                       const std::vector<AmbisonicOutput>& ambisonic, const std::string& dir,
                       HybridFacts& facts, io::StagedFiles* staged = nullptr);

}  // namespace sphreverb
