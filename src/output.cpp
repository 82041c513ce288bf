#include "sphreverb/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "sphreverb/signal.hpp"

namespace sphreverb {

namespace {
constexpr double kUnnormalisedFullScale = 100.0;  // Pa at 16-bit full scale when normalize = false
constexpr double kAntiAlias = 0.45;               // anti-alias cut-off / sample rate
constexpr int kButterworthOrder = 4;
}  // namespace

double output_cutoff(const Scene& s) {
  return std::min(s.derived.f_max, kAntiAlias * s.time.sample_rate);
}

std::vector<ReceiverOutput> write_receiver_wavs(const Scene& s, const Receivers& receivers,
                                                const std::string& dir) {
  std::vector<ReceiverOutput> out;
  const double c2 = s.fluid.sound_speed * s.fluid.sound_speed;
  const double step_rate = s.time.sample_rate * s.derived.substeps;
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    const std::vector<double>& rho = receivers.density(r);
    if (rho.empty()) throw std::logic_error("receiver has no record");
    Signal pressure{step_rate, {}};
    pressure.samples.reserve(rho.size());
    for (double v : rho) pressure.samples.push_back(c2 * (v - rho.front()));
    // Above f_max the record is numerical, not acoustic: a causal Butterworth removes it without
    // pre-ringing before the direct sound; then the anti-alias filter and decimation.
    if (s.derived.f_max < kAntiAlias * s.time.sample_rate)
      pressure = butterworth_lowpass(pressure, s.derived.f_max, kButterworthOrder);
    Signal audio = lowpass_decimate(pressure, s.derived.substeps, kAntiAlias * s.time.sample_rate);
    audio.samples.resize(std::min<std::size_t>(audio.samples.size(), s.derived.samples));

    ReceiverOutput o;
    o.name = s.receivers[r].name;
    o.wav = o.name + ".wav";
    o.raw_wav = o.name + ".raw.wav";
    o.samples = audio.samples.size();
    o.reference_density = rho.front();
    for (double v : audio.samples) o.peak_pascal = std::max(o.peak_pascal, std::abs(v));

    std::vector<double> pcm;
    if (s.output.normalize) {
      pcm = remove_dc_and_normalize(audio.samples);
    } else {
      for (double v : audio.samples) pcm.push_back(v / kUnnormalisedFullScale);
    }
    write_wav(dir + "/" + o.raw_wav, s.time.sample_rate, {audio.samples}, false);
    write_wav(dir + "/" + o.wav, s.time.sample_rate, {pcm}, true);
    out.push_back(o);
  }
  return out;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".partial";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      throw std::runtime_error(path + ": cannot write");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot rename " + tmp + " into place");
  }
}

}  // namespace sphreverb
