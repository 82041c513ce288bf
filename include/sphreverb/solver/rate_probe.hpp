// The solver's speed on this machine now, measured in a second or less: `check` times a few
// steps of a small closed box of air with the scene's own [fluid] physics (kernel, h/dx,
// gradient correction, hyperdiffusion and hyperviscosity as applied, shifting, EOS, viscosity)
// and bases its wall-time estimate on that rate rather than on a fixed one.
//
// The box holds kProbeSites^3 lattice sites (46 656 particles) behind mirror walls. Its steps are
// timed twice: in the thread's CPU time, the rate of one idle core (what other processes take
// from the core does not count), and in wall time, the rate one rank gets now, at the machine's
// current load. The estimate of `check` uses the first (docs/performance.md, "Real rooms": within
// 25 % of the office's stage 2) and several ranks at kParallelEfficiency (cost.hpp) of it per
// core; the second says how much longer a run started now would take.
#pragma once

#include <cstdint>
#include <string>

#include "sphreverb/config/scene.hpp"

namespace sphreverb {

inline constexpr int kProbeSites = 36;       // lattice sites along each edge of the probe box
inline constexpr int kProbeWarmupSteps = 2;  // steps run before the clock starts
// Timed in rounds of one hyperdiffusion period (kHyperdiffusionEvery steps), at most this many,
// stopping after the round that passes kProbeMaxSeconds of wall time. The CPU-time rate is that
// of the sum over the period's steps of each one's fastest time over the rounds (the least
// disturbed by other processes), the wall-time rate the mean.
inline constexpr int kProbeRounds = 8;
inline constexpr double kProbeMaxSeconds = 1.5;

struct MeasuredRate {
  double particle_steps_per_second = 0.0;      // of one idle core, in CPU time (0: not measured)
  double now_particle_steps_per_second = 0.0;  // of one rank now, in wall time
  std::int64_t particles = 0, steps = 0;       // steps: all timed rounds
  double seconds = 0.0;                        // wall time of the timed steps
  double fastest_cpu_seconds = 0.0;            // the thread's CPU time in the fastest round
  std::string error;                           // why it was not measured ("" if it was)
};

// The scene's [fluid] physics in the probe box, as scene text (parse_scene reads it).
std::string probe_scene_text(const Scene& scene);

// Builds the probe on MPI_COMM_SELF and times its steps. Never throws: a failure leaves the rates
// at 0 with the reason in `error`.
MeasuredRate measure_particle_steps_per_second(const Scene& scene);

}  // namespace sphreverb
