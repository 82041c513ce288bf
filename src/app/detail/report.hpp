// The scene report that `check` prints and a run logs: particles, time step, steps, highest
// usable frequency, walls, ranks, memory and checkpoint sizes.
#pragma once

#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb::app {

// Lines ending in '\n'; `ranks` is the rank count evaluated.
std::string describe(const Scene& scene, const Decomposition& dec, int ranks);

// Bytes of one checkpoint file at stage-2 step `acoustic_steps` (closed-form: the particle
// datasets, the receivers' records so far, the input still to play, plus kCheckpointOverhead).
// The surfaces (name, material, area), the air volume, and the diffuse-field reverberation
// times per octave (surfaces.hpp, reverberation.hpp); lines ending in '\n'.
std::string surfaces_report(const Scene& scene);

// One warning per [emitter.NAME] source whose input and level would push the air at its Gaussian
// by more than kSourceDisplacementWarn of its width (point_source.hpp), from the scene's drive
// of each input over the run's steps; `inputs` in scene order (load_source_inputs).
std::vector<std::string> source_level_warnings(const Scene& scene,
                                               const std::vector<Signal>& inputs);

double checkpoint_bytes(const Scene& scene, std::int64_t particles, std::int64_t acoustic_steps,
                        double input_samples_left);

}  // namespace sphreverb::app
