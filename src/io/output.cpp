#include "sphreverb/io/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sphreverb/audio/filters.hpp"
#include "sphreverb/audio/normalize.hpp"
#include "sphreverb/audio/wav.hpp"

namespace sphreverb {

namespace {
// Where the file `name` of dir is written: its staged name, or the final one.
std::string target(const std::string& dir, const std::string& name, io::StagedFiles* staged) {
  const std::string path = dir + "/" + name;
  return staged != nullptr ? staged->stage(path) : path;
}
constexpr double kUnnormalisedFullScale = 100.0;  // Pa at 16-bit full scale when normalize = false
constexpr double kAntiAlias = 0.45;               // anti-alias cut-off / sample rate
constexpr int kButterworthOrder = 4;
constexpr int kHighpassOrder = 4;  // [output] highpass: -24 dB one octave below the cut-off

// The written impulse response: the pressure at the output rate, high-passed at [output]
// highpass Hz by a causal Butterworth (nothing before the direct sound; 0 = unchanged). Every
// receiver signal goes through here before it is written or grouped.
Signal audio_convention(const Scene& s, Signal audio) {
  if (s.output.highpass <= 0.0) return audio;
  return butterworth_highpass(audio, s.output.highpass, kHighpassOrder);
}
}  // namespace

double output_cutoff(const Scene& s) {
  const double anti_alias = kAntiAlias * s.time.sample_rate;
  return s.output.lowpass ? std::min(s.derived.f_max, anti_alias) : anti_alias;
}

std::vector<ReceiverOutput> write_receiver_wavs(const Scene& s, const Receivers& receivers,
                                                const std::string& dir, io::StagedFiles* staged) {
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
    if (s.output.lowpass && s.derived.f_max < kAntiAlias * s.time.sample_rate)
      pressure = butterworth_lowpass(pressure, s.derived.f_max, kButterworthOrder);
    Signal audio = lowpass_decimate(pressure, s.derived.substeps, kAntiAlias * s.time.sample_rate);
    audio.samples.resize(std::min<std::size_t>(audio.samples.size(), s.derived.samples));
    audio = audio_convention(s, std::move(audio));

    ReceiverOutput o;
    o.name = s.receivers[r].name;
    o.wav = io::RunDir::wav_name(o.name);
    o.raw_wav = io::RunDir::raw_wav_name(o.name);
    o.samples = audio.samples.size();
    o.reference_density = rho.front();
    for (double v : audio.samples) o.peak_pascal = std::max(o.peak_pascal, std::abs(v));

    std::vector<double> pcm;
    if (s.output.normalize) {
      pcm = remove_dc_and_normalize(audio.samples);
    } else {
      for (double v : audio.samples) pcm.push_back(v / kUnnormalisedFullScale);
    }
    write_wav(target(dir, o.raw_wav, staged), s.time.sample_rate, {audio.samples}, false);
    write_wav(target(dir, o.wav, staged), s.time.sample_rate, {pcm}, true);
    o.audio = std::move(audio.samples);
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<GroupOutput> write_group_wavs(const Scene& s,
                                          const std::vector<ReceiverOutput>& receivers,
                                          const std::string& dir, io::StagedFiles* staged) {
  std::vector<GroupOutput> groups;
  for (std::size_t r = 0; r < s.receivers.size(); ++r) {
    const std::string& name = s.receivers[r].group;
    if (name.empty()) continue;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const GroupOutput& g) { return g.name == name; });
    if (it == groups.end()) {
      groups.push_back({name, io::RunDir::wav_name(name), io::RunDir::raw_wav_name(name), {}});
      it = std::prev(groups.end());
    }
    it->channels.push_back(receivers.at(r).name);
  }
  for (const GroupOutput& g : groups) {
    std::vector<std::vector<double>> raw;
    for (const std::string& ch : g.channels)
      for (const ReceiverOutput& o : receivers)
        if (o.name == ch) raw.push_back(o.audio);
    std::vector<std::vector<double>> pcm;
    if (s.output.normalize) {
      // One gain for all channels (a stereo image keeps its balance): DC removed per channel,
      // scaled by the group's common peak.
      double peak = 0.0;
      for (const auto& ch : raw) {
        std::vector<double> x = ch;
        double mean = 0.0;
        for (double v : x) mean += v;
        mean /= static_cast<double>(std::max<std::size_t>(x.size(), 1));
        for (double& v : x) v -= mean, peak = std::max(peak, std::abs(v));
        pcm.push_back(std::move(x));
      }
      for (auto& ch : pcm)
        for (double& v : ch) v = peak > 0.0 ? v / peak : 0.0;
    } else {
      for (const auto& ch : raw) {
        std::vector<double> x;
        for (double v : ch) x.push_back(v / kUnnormalisedFullScale);
        pcm.push_back(std::move(x));
      }
    }
    write_wav(target(dir, g.raw_wav, staged), s.time.sample_rate, raw, false);
    write_wav(target(dir, g.wav, staged), s.time.sample_rate, pcm, true);
  }
  return groups;
}

std::string energy_csv(const std::vector<AcousticEnergy>& series) {
  std::ostringstream o;
  o.precision(17);
  o << "# acoustic energy of the air (owned particles), J: kinetic = sum 1/2 m v^2 (v at the "
       "half step), potential = sum m c0^2 (rho - rho0)^2 / (2 rho0^2)\n";
  o << "time_s,kinetic_J,potential_J,total_J\n";
  for (const AcousticEnergy& e : series)
    o << e.time << ',' << e.kinetic << ',' << e.potential << ',' << e.kinetic + e.potential << '\n';
  return o.str();
}

}  // namespace sphreverb
