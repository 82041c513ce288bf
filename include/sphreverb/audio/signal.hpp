// The audio layer's vocabulary: a sampled mono signal and the error every audio function throws.
// The operations live one concept per header beside this one: wav.hpp (files), resample.hpp,
// test_signals.hpp (impulse, sweep), filters.hpp (low-pass, decimation), normalize.hpp.
#pragma once

#include <stdexcept>
#include <vector>

namespace sphreverb {

// Thrown for unreadable, empty, malformed or non-finite audio files and for bad arguments; the
// message names the file (and the scene key when one was given) and what is wrong, e.g.
// "[emitter] input = music.wav: not a sound file libsndfile can read (...)".
class SignalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A mono signal: `samples` taken at `rate` Hz, sample i at time i / rate.
struct Signal {
  double rate = 0.0;
  std::vector<double> samples;
};

}  // namespace sphreverb
