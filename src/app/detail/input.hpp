// The emitter's input signal at the run's sample rate: a built-in signal or the scene's WAV,
// resampled if its rate differs. Rank 0's work (DESIGN: rank 0 drives the emitter).
#pragma once

#include <vector>

#include "sphreverb/audio/signal.hpp"
#include "sphreverb/config/scene.hpp"

namespace sphreverb::app {

// Throws SignalError naming the file if a WAV cannot be read.
Signal load_input(const Scene& scene);
// The input of each [emitter.NAME] source, in scene order, the same way (a restart reads them
// again: the checkpoint stores each source's progress, not its input).
std::vector<Signal> load_source_inputs(const Scene& scene);
// The SOFA file of the binaural receivers, opened and checked (audio/binaural.hpp: readable, its
// rate, dimensions and taps) when a receiver is binaural, before any run writes: throws
// SignalError naming the file (exit 2).
void check_hrtf(const Scene& scene);

}  // namespace sphreverb::app
