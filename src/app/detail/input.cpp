#include "app/detail/input.hpp"

#include <algorithm>

#include "sphreverb/audio/binaural.hpp"
#include "sphreverb/audio/resample.hpp"
#include "sphreverb/audio/test_signals.hpp"
#include "sphreverb/audio/wav.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/io/output.hpp"

namespace sphreverb::app {

namespace {
Signal load_signal(const Scene& s, const std::string& input, const std::string& key) {
  const double rate = s.time.sample_rate, duration = s.time.duration;
  if (input == "impulse") return make_impulse(rate, duration);
  if (input == "sweep") return make_sweep(rate, duration, 20.0, std::min(20000.0, 0.45 * rate));
  Signal in = read_wav(input, key);
  if (in.rate != rate) {
    logger("io")->info("input {}: resampling {:g} Hz -> {:g} Hz", input, in.rate, rate);
    in = resample(in, rate);
  }
  return in;
}
}  // namespace

Signal load_input(const Scene& s) { return load_signal(s, s.emitter.input, "[emitter] input"); }

std::vector<Signal> load_source_inputs(const Scene& s) {
  std::vector<Signal> out;
  for (const SourceSpec& src : s.sources)
    out.push_back(load_signal(s, src.input, "[emitter." + src.name + "] input"));
  return out;
}

void check_hrtf(const Scene& s) {
  for (const ReceiverSpec& r : s.receivers)
    if (r.type == ReceiverType::Ambisonic && r.binaural) {
      const HrtfSet hrtf(hrtf_path(s), s.time.sample_rate);
      return;
    }
}

}  // namespace sphreverb::app
