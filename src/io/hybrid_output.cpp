#include "sphreverb/io/hybrid_output.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "sphreverb/audio/binaural.hpp"
#include "sphreverb/audio/normalize.hpp"
#include "sphreverb/audio/wav.hpp"
#include "sphreverb/geometric/response.hpp"

namespace sphreverb {
namespace {

constexpr double kUnnormalisedFullScale = 100.0;  // Pa, as output.cpp

std::string target(const std::string& dir, const std::string& name, io::StagedFiles* staged) {
  const std::string path = dir + "/" + name;
  return staged != nullptr ? staged->stage(path) : path;
}

// 16-bit channels: DC removed and one gain for all (normalize), or p' / 100 Pa.
std::vector<std::vector<double>> pcm_of(const Scene& s, std::vector<std::vector<double>> ch) {
  if (!s.output.normalize) {
    for (auto& c : ch)
      for (double& v : c) v /= kUnnormalisedFullScale;
    return ch;
  }
  if (ch.size() == 1) return {remove_dc_and_normalize(ch[0])};
  double peak = 0.0;
  for (auto& c : ch) {
    double mean = 0.0;
    for (double v : c) mean += v;
    mean /= static_cast<double>(std::max<std::size_t>(c.size(), 1));
    for (double& v : c) v -= mean, peak = std::max(peak, std::abs(v));
  }
  for (auto& c : ch)
    for (double& v : c) v = peak > 0.0 ? v / peak : 0.0;
  return ch;
}

}  // namespace

std::string full_wav_name(const std::string& name) { return name + ".full.wav"; }
std::string full_raw_wav_name(const std::string& name) { return name + ".full.raw.wav"; }
std::string full_amb_wav_name(const std::string& name) { return name + ".amb.full.wav"; }
std::string full_amb_raw_wav_name(const std::string& name) { return name + ".amb.full.raw.wav"; }
std::string full_binaural_wav_name(const std::string& name) { return name + ".binaural.full.wav"; }

void write_hybrid_wavs(const Scene& s, const HybridPlan& plan,
                       const std::vector<GeometricResponse>& geometric,
                       const std::vector<ReceiverOutput>& sph,
                       const std::vector<AmbisonicOutput>& ambisonic, const std::string& dir,
                       HybridFacts& facts, io::StagedFiles* staged) {
  const double rate = s.time.sample_rate;
  std::unique_ptr<HrtfSet> hrtf;  // opened for the first binaural receiver
  std::vector<std::vector<double>> full(sph.size());
  for (std::size_t r = 0; r < sph.size(); ++r) {
    const auto amb = std::find_if(ambisonic.begin(), ambisonic.end(),
                                  [&](const AmbisonicOutput& a) { return a.name == sph[r].name; });
    const GeometricResponse& g = geometric.at(r);
    HybridResult joined = join_hybrid(sph[r].audio, g.channels[0], plan.join, g.more);
    HybridReceiverOutput o;
    o.name = sph[r].name;
    o.wav = full_wav_name(o.name);
    o.raw_wav = full_raw_wav_name(o.name);
    o.images = g.images;
    o.mismatch_db = joined.mismatch_db, o.gain = joined.gain;
    o.early_db = joined.early_db, o.late_db = joined.late_db;
    o.decay = join_octave_decay(sph[r].audio, g.channels[0], g.more, joined.gain, plan.join);
    write_wav(target(dir, o.raw_wav, staged), rate, {joined.full}, false);
    write_wav(target(dir, o.wav, staged), rate, pcm_of(s, {joined.full}), true);
    if (amb != ambisonic.end()) {
      std::vector<std::vector<double>> channels;
      for (std::size_t c = 0; c < 4; ++c)
        channels.push_back(
            crossover_join(amb->channels.at(c), g.channels[c], joined.gain, plan.join));
      o.amb_wav = full_amb_wav_name(o.name);
      o.amb_raw_wav = full_amb_raw_wav_name(o.name);
      write_wav(target(dir, o.amb_raw_wav, staged), rate, channels, false, kAmbixComment);
      write_wav(target(dir, o.amb_wav, staged), rate, common_gain_pcm(s, channels), true,
                kAmbixComment);
      if (!amb->binaural_wav.empty()) {
        if (!hrtf) hrtf = std::make_unique<HrtfSet>(hrtf_path(s), rate);
        o.binaural_wav = full_binaural_wav_name(o.name);
        write_wav(target(dir, o.binaural_wav, staged), rate,
                  common_gain_pcm(s, render_binaural(channels, *hrtf)), true, binaural_comment(s));
      }
    }
    full[r] = std::move(joined.full);
    facts.receivers.push_back(std::move(o));
  }
  // Groups: the members' full responses, one channel each, in scene order.
  for (std::size_t r = 0; r < s.receivers.size(); ++r) {
    const std::string& g = s.receivers[r].group;
    if (g.empty()) continue;
    auto it = std::find_if(facts.groups.begin(), facts.groups.end(),
                           [&](const GroupOutput& x) { return x.name == g; });
    if (it == facts.groups.end()) {
      facts.groups.push_back({g, full_wav_name(g), full_raw_wav_name(g), {}});
      it = std::prev(facts.groups.end());
    }
    it->channels.push_back(s.receivers[r].name);
  }
  for (const GroupOutput& g : facts.groups) {
    std::vector<std::vector<double>> raw;
    for (const std::string& ch : g.channels)
      for (std::size_t r = 0; r < s.receivers.size(); ++r)
        if (s.receivers[r].name == ch) raw.push_back(full[r]);
    write_wav(target(dir, g.raw_wav, staged), rate, raw, false);
    write_wav(target(dir, g.wav, staged), rate, pcm_of(s, raw), true);
  }
}

}  // namespace sphreverb
