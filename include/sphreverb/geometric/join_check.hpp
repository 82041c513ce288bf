// The join of a run judged by V19's criteria (docs/validation.md), from the run's own responses:
//
//   1. levels: over the receivers, the mean of the calibrated geometric part's early and late
//      overlap-octave levels against the SPH part's (hybrid.hpp: HybridResult::early_db, late_db)
//      within `level_tolerance_db`;
//   2. decay: in the standard octave band holding the crossover (centre 1000 2^k Hz), the mean
//      over the receivers of the full response's decay time within `t30_tolerance` (relative) of
//      the mean of the SPH response's. The full response's octave energy is the mean over the
//      geometric part's realisations (hybrid.hpp's kCalibrationRealisations: one realisation's
//      octave T30 scatters by about 10 %), each joined with the same gain; the decay time is T30
//      (ISO 3382-1, -5 to -35 dB) where both curves reach -35 dB, else T20 (-5 to -25 dB), else
//      not measured (the record is too short for it).
//
// A failed criterion is a warning, not an error: the files are written either way.
#pragma once

#include <string>
#include <vector>

#include "sphreverb/geometric/hybrid.hpp"

namespace sphreverb {

struct JoinCriteria {
  double level_tolerance_db = 2.0;
  double t30_tolerance = 0.10;
};

// One receiver's decay in the octave holding the crossover.
struct OctaveDecay {
  double centre = 0.0;  // Hz, the octave's nominal centre
  double sph = 0.0;     // s, the SPH response's decay time (0: not measured)
  double full = 0.0;    // s, the full response's, mean band energy over the realisations
  bool t20 = false;     // T20 instead of T30
};

// The standard octave band (centre 1000 2^k Hz) whose edges centre / sqrt(2), centre sqrt(2)
// hold f (Hz).
double octave_holding(double f);

// The decay in that octave of `sph` and of the full responses crossover_join(sph, x, gain, p) for
// x in {geo} + more (each cut or zero-padded to sph's length).
OctaveDecay join_octave_decay(const std::vector<double>& sph, const std::vector<double>& geo,
                              const std::vector<std::vector<double>>& more, double gain,
                              const HybridParams& p);

struct JoinVerdict {
  double early_db = 0.0, late_db = 0.0;  // means over the receivers
  double octave = 0.0;                   // Hz
  double t_sph = 0.0, t_full = 0.0;      // s, means over the receivers (0: not measured)
  bool t20 = false;                      // the decay times are T20
  bool levels_ok = true;
  bool decay_measured = false, decay_ok = true;
  std::vector<std::string> warnings;  // one sentence per failed criterion
  bool ok() const { return levels_ok && decay_ok; }
};

// One receiver's join as judge_join reads it.
struct ReceiverJoin {
  double early_db = 0.0, late_db = 0.0;  // HybridResult's
  OctaveDecay decay;
};

// V19's verdict over the receivers (at least one). `crossover` (Hz) and `schroeder` (Hz, the
// room's Schroeder frequency 2000 sqrt(T / V) with T in s and V in m^3; 0 = unknown) go into the
// warnings' advice.
JoinVerdict judge_join(const std::vector<ReceiverJoin>& receivers, double crossover,
                       double schroeder, const JoinCriteria& criteria = {});

}  // namespace sphreverb
