// The emitter's input signal at the run's sample rate: a built-in signal or the scene's WAV,
// resampled if its rate differs. Rank 0's work (DESIGN: rank 0 drives the emitter).
#pragma once

#include "sphreverb/audio/signal.hpp"
#include "sphreverb/config/scene.hpp"

namespace sphreverb::app {

// Throws SignalError naming the file if a WAV cannot be read.
Signal load_input(const Scene& scene);

}  // namespace sphreverb::app
