#include "sphreverb/io/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "sphreverb/audio/binaural.hpp"
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

// One gain for all channels (DC removed per channel, scaled by the common peak), or p' / 100 Pa
// when normalize = false.
std::vector<std::vector<double>> common_gain_pcm(const Scene& s,
                                                 const std::vector<std::vector<double>>& raw) {
  std::vector<std::vector<double>> pcm;
  double peak = 0.0;
  for (const auto& ch : raw) {
    std::vector<double> x = ch;
    if (s.output.normalize) {
      double mean = 0.0;
      for (double v : x) mean += v;
      mean /= static_cast<double>(std::max<std::size_t>(x.size(), 1));
      for (double& v : x) v -= mean, peak = std::max(peak, std::abs(v));
    } else {
      for (double& v : x) v /= kUnnormalisedFullScale;
    }
    pcm.push_back(std::move(x));
  }
  if (s.output.normalize)
    for (auto& ch : pcm)
      for (double& v : ch) v = peak > 0.0 ? v / peak : 0.0;
  return pcm;
}

std::string binaural_comment(const Scene& s) {
  return "binaural (left, right): first-order B-format decoded to 8 virtual loudspeakers "
         "(max-rE), HRTF " +
         hrtf_path(s);
}

std::string hrtf_path(const Scene& s) {
  return s.output.hrtf.empty() ? kDefaultSofaPath : s.output.hrtf;
}

double output_cutoff(const Scene& s) {
  const double anti_alias = kAntiAlias * s.time.sample_rate;
  return s.output.lowpass ? std::min(s.derived.f_max, anti_alias) : anti_alias;
}

Signal record_to_audio(const Scene& s, Signal record) {
  // Above f_max the record is numerical, not acoustic: a causal Butterworth removes it without
  // pre-ringing before the direct sound; then the anti-alias filter and decimation.
  if (s.output.lowpass && s.derived.f_max < kAntiAlias * s.time.sample_rate)
    record = butterworth_lowpass(record, s.derived.f_max, kButterworthOrder);
  Signal audio = lowpass_decimate(record, s.derived.substeps, kAntiAlias * s.time.sample_rate);
  audio.samples.resize(std::min<std::size_t>(audio.samples.size(), s.derived.samples));
  return audio_convention(s, std::move(audio));
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
    Signal audio = record_to_audio(s, std::move(pressure));

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

std::vector<AmbisonicOutput> write_ambisonic_wavs(const Scene& s, const Receivers& receivers,
                                                  const std::vector<ReceiverOutput>& outs,
                                                  const std::string& dir, io::StagedFiles* staged) {
  std::vector<AmbisonicOutput> result;
  std::unique_ptr<HrtfSet> hrtf;  // opened for the first binaural receiver
  const double rho0_c0 = s.fluid.rest_density * s.fluid.sound_speed;
  const double step_rate = s.time.sample_rate * s.derived.substeps;
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    if (!receivers.ambisonic(r)) continue;
    AmbisonicOutput a;
    a.name = s.receivers[r].name;
    a.wav = io::RunDir::amb_wav_name(a.name);
    a.raw_wav = io::RunDir::amb_raw_wav_name(a.name);
    a.channels.resize(4);
    a.channels[0] = outs.at(r).audio;  // W = p', the omni record of the same point
    // ACN 1, 2, 3 = Y, Z, X = -rho0 c0 (v_y, v_z, v_x): pointing towards the source.
    constexpr int kAxisOfAcn[3] = {1, 2, 0};
    for (int c = 1; c < 4; ++c) {
      const std::vector<double>& v = receivers.velocity(r, kAxisOfAcn[c - 1]);
      Signal record{step_rate, {}};
      record.samples.reserve(v.size());
      for (double x : v) record.samples.push_back(-rho0_c0 * x);
      a.channels[c] = record_to_audio(s, std::move(record)).samples;
    }
    for (const auto& ch : a.channels)
      for (double x : ch) a.peak_pascal = std::max(a.peak_pascal, std::abs(x));
    write_wav(target(dir, a.raw_wav, staged), s.time.sample_rate, a.channels, false, kAmbixComment);
    write_wav(target(dir, a.wav, staged), s.time.sample_rate, common_gain_pcm(s, a.channels), true,
              kAmbixComment);
    if (s.receivers[r].binaural) {
      if (!hrtf) hrtf = std::make_unique<HrtfSet>(hrtf_path(s), s.time.sample_rate);
      a.binaural_wav = io::RunDir::binaural_wav_name(a.name);
      write_wav(target(dir, a.binaural_wav, staged), s.time.sample_rate,
                common_gain_pcm(s, render_binaural(a.channels, *hrtf)), true, binaural_comment(s));
    }
    result.push_back(std::move(a));
  }
  return result;
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
