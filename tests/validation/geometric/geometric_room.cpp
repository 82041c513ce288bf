// geometric_room SCENE [key=value ...] [sph=DIR] [out=DIR] [realisations=K] [record_lowpass=HZ]:
// the geometric
// part of a scene alone (no SPH run): its image sources and ray histograms per receiver, and the
// octave T30 of the geometric energy decay next to Eyring's with the absorption the geometric part
// uses and with the SPH walls' (the fitted wall model's random-incidence absorption). Overrides as
// on the command line
// (`hybrid.rays=20000`, `material.carpet.scattering=0.3`); [hybrid] need not be in the scene.
// With sph=DIR the SPH records DIR/NAME.raw.wav of an earlier run of the scene are joined with
// the geometric responses again (geometric/hybrid.hpp) and the octave T30 of the SPH, full and
// geometric responses printed; out=DIR writes NAME.full.raw.wav and NAME.geo.raw.wav there, and
// join.json: the crossover, f_max and per receiver the join's levels, in the form of the
// "hybrid" block of a run's summary.json (what v19_check.py reads); without sph=DIR, out=DIR
// writes NAME.geo.raw.wav alone.
// realisations=K averages the calibration over K noise realisations instead of
// kCalibrationRealisations (1: the response alone). record_lowpass=HZ: the causal low-pass the
// SPH records in DIR carry (the f_max of the run that wrote them; 0: none), where it differs
// from the f_max the scene now derives (records stored by an earlier version); by default the
// scene's, as in a run. Needs a [room] box. A development and
// validation tool (V19, docs/validation.md).
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>

#include "room_decay.hpp"
#include "sphreverb/audio/crossover.hpp"
#include "sphreverb/audio/wav.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/geometric/decay.hpp"
#include "sphreverb/geometric/hybrid.hpp"
#include "sphreverb/geometric/response.hpp"
#include "sphreverb/geometric/synthesis.hpp"
#include "sphreverb/physics/material.hpp"
#include "sphreverb/solver/hybrid_assembly.hpp"

using namespace sphreverb;

namespace {

// T30 of the octave band around `centre` (LR4 high- and low-pass at centre / sqrt 2 and
// centre sqrt 2), from the band's onset (energy above 1e-3 of its peak); 0 if it never falls 35 dB.
double octave_t30(const std::vector<double>& x, double rate, double centre) {
  const double hi = std::min(centre * std::sqrt(2.0), 0.45 * rate);
  const std::vector<double> y =
      lr4_lowpass(lr4_highpass(x, rate, centre / std::sqrt(2.0)), rate, hi);
  std::vector<double> e;
  double peak = 0.0;
  for (double v : y) peak = std::max(peak, v * v);
  bool on = false;
  for (double v : y) {
    on = on || v * v > 1e-3 * peak;
    if (on) e.push_back(v * v);
  }
  return t30(e, 1.0 / rate);
}

}  // namespace

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: geometric_room SCENE [section.key=value ...] [sph=DIR] [out=DIR] "
                 "[realisations=K] [record_lowpass=HZ]\n");
    return 2;
  }
  std::map<std::string, std::string> ov;
  std::string sph_dir, out_dir;
  std::size_t calibration_realisations = kCalibrationRealisations;
  double record_lowpass = -1.0;  // < 0: the scene's
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("sph=", 0) == 0) {
      sph_dir = a.substr(4);
      continue;
    }
    if (a.rfind("realisations=", 0) == 0) {  // of the calibration (default: the code's)
      calibration_realisations = std::stoul(a.substr(13));
      continue;
    }
    if (a.rfind("record_lowpass=", 0) == 0) {
      record_lowpass = std::stod(a.substr(15));
      continue;
    }
    if (a.rfind("out=", 0) == 0) {
      out_dir = a.substr(4);
      continue;
    }
    const auto eq = a.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "geometric_room: expected key=value, got %s\n", a.c_str());
      return 2;
    }
    ov[a.substr(0, eq)] = a.substr(eq + 1);
  }
  if (!ov.count("hybrid.rays")) ov["hybrid.rays"] = "20000";
  const Scene s = load_scene(argv[1], ov);
  if (!s.room.present) {
    std::fprintf(stderr, "geometric_room: %s has no [room] box\n", argv[1]);
    return 2;
  }
  HybridPlan plan = make_hybrid_plan(s);
  if (record_lowpass >= 0.0) plan.join.record_lowpass = record_lowpass;
  const RayTracer tracer(plan.surfaces, plan.materials);
  const EnergyHistogram h = tracer.trace(plan.rays);
  const double rho_c = s.fluid.rest_density * s.fluid.sound_speed;

  // Absorption per face: the geometric part's, and the SPH walls' (fitted wall model).
  const std::array<BandValues, 6> geo = box_geo_absorption(s);
  std::array<BandValues, 6> sph{};
  for (int f = 0; f < 6; ++f) {
    for (const MaterialSpec& m : s.materials) {
      if (m.name != s.room.face_material[f]) continue;
      for (std::size_t b = 0; b < kGeoBandCount; ++b) {
        const double w = 2.0 * std::numbers::pi * kGeoBands[b];
        sph[f][b] = m.rigid ? 0.0 : statistical_absorption(m.impedance.at(w) / rho_c);
      }
    }
  }
  const BandValues air = plan.rays.air;
  const BandValues ey_geo = box_eyring(s, geo, air), ey_sph = box_eyring(s, sph, air);
  std::printf("rays %llu, radius %.3f m, segments %.3g, image_time %.3f s, bins %zu\n",
              static_cast<unsigned long long>(plan.rays.rays), plan.rays.receiver_radius,
              static_cast<double>(h.segments), s.hybrid.image_time, plan.rays.bins);
  std::printf("band      :");
  for (double f : kGeoBands) std::printf(" %7.0f", f);
  std::printf("\nEyring geo:");
  for (double t : ey_geo) std::printf(" %7.1f", 1e3 * t);
  std::printf(" ms\nEyring SPH:");
  for (double t : ey_sph) std::printf(" %7.1f", 1e3 * t);
  std::printf(" ms\n");
  const double rate = s.time.sample_rate;
  std::string receivers_json;
  for (std::size_t r = 0; r < s.receivers.size(); ++r) {
    const auto taps =
        plan.box_images ? box_image_sources(plan.images[r]) : std::vector<ImageSource>{};
    std::printf("%-10s:", s.receivers[r].name.c_str());
    for (std::size_t b = 0; b < kGeoBandCount; ++b)
      std::printf(" %7.1f", 1e3 * t30(geometric_energy(plan, h, taps, r, b), plan.rays.bin_width));
    std::printf(" ms (energy; %zu images)\n", taps.size());
    if (sph_dir.empty()) {  // out=DIR alone: the geometric response
      if (!out_dir.empty())
        write_wav(out_dir + "/" + s.receivers[r].name + ".geo.raw.wav", rate,
                  {geometric_response(plan, h, r, false, 1).channels[0]}, false);
      continue;
    }
    const Signal sph_in = read_wav(sph_dir + "/" + s.receivers[r].name + ".raw.wav");
    const GeometricResponse gr = geometric_response(plan, h, r, false, calibration_realisations);
    const std::vector<double>& g = gr.channels[0];
    const HybridResult j = join_hybrid(sph_in.samples, g, plan.join, gr.more);
    std::printf(
        "  join: crossover %.0f Hz, mismatch %+.2f dB, split %.1f ms, early %+.2f dB, late %+.2f "
        "dB\n",
        plan.join.crossover, j.mismatch_db, 1e3 * j.split, j.early_db, j.late_db);
    std::printf("  octave T30 SPH :");
    for (double f : kGeoBands) std::printf(" %7.1f", 1e3 * octave_t30(sph_in.samples, rate, f));
    std::printf(" ms\n  octave T30 full:");
    for (double f : kGeoBands) std::printf(" %7.1f", 1e3 * octave_t30(j.full, rate, f));
    if (!out_dir.empty()) {
      char line[512];
      std::snprintf(line, sizeof line,
                    "%s    {\"name\": \"%s\", \"mismatch_dB\": %.6g, \"gain\": %.9g, "
                    "\"early_dB\": %.6g, \"late_dB\": %.6g, \"split_s\": %.6g}",
                    receivers_json.empty() ? "" : ",\n", s.receivers[r].name.c_str(), j.mismatch_db,
                    j.gain, j.early_db, j.late_db, j.split);
      receivers_json += line;
      write_wav(out_dir + "/" + s.receivers[r].name + ".full.raw.wav", rate, {j.full}, false);
      write_wav(out_dir + "/" + s.receivers[r].name + ".geo.raw.wav", rate, {g}, false);
    }
    std::printf(" ms\n  octave T30 geo :");
    for (double f : kGeoBands) std::printf(" %7.1f", 1e3 * octave_t30(g, rate, f));
    std::printf(" ms\n");
  }
  if (!out_dir.empty() && !sph_dir.empty()) {
    std::ofstream json(out_dir + "/join.json");
    char head[256];
    std::snprintf(head, sizeof head,
                  "{\"derived\": {\"f_max_Hz\": %.9g},\n \"hybrid\": {\"crossover_Hz\": %.9g, "
                  "\"rays\": %llu, \"receivers\": [\n",
                  s.derived.f_max, plan.join.crossover,
                  static_cast<unsigned long long>(plan.rays.rays));
    json << head << receivers_json << "]}}\n";
    if (!json) throw std::runtime_error("cannot write " + out_dir + "/join.json");
  }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "geometric_room: %s\n", e.what());
    return 2;
  }
}
