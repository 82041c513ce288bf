#include "app/detail/input.hpp"

#include <algorithm>

#include "sphreverb/audio/resample.hpp"
#include "sphreverb/audio/test_signals.hpp"
#include "sphreverb/audio/wav.hpp"
#include "sphreverb/core/log.hpp"

namespace sphreverb::app {

Signal load_input(const Scene& s) {
  const EmitterSpec& e = s.emitter;
  const double rate = s.time.sample_rate, duration = s.time.duration;
  if (e.input == "impulse") return make_impulse(rate, duration);
  if (e.input == "sweep") return make_sweep(rate, duration, 20.0, std::min(20000.0, 0.45 * rate));
  Signal in = read_wav(e.input, "[emitter] input");
  if (in.rate != rate) {
    logger("io")->info("input {}: resampling {} Hz -> {} Hz", e.input, in.rate, rate);
    in = resample(in, rate);
  }
  return in;
}

}  // namespace sphreverb::app
