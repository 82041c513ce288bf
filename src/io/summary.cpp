#include "sphreverb/io/summary.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "sphreverb/core/version.hpp"
#include "sphreverb/io/run_dir.hpp"
#include "sphreverb/physics/dispersion.hpp"
#include "sphreverb/physics/material.hpp"
#include "sphreverb/solver/covered_faces.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb::io {

namespace {

using Json = nlohmann::ordered_json;  // keys in insertion order, as documented

Json phases(const RunFacts& f) {
  Json j = Json::object();
  for (std::size_t k = 0; k < kPhaseNames.size(); ++k)
    j[std::string(kPhaseNames[k])] = {
        {"seconds", f.phase_mean[k]},
        {"max_seconds", f.phase_max[k]},
        {"fraction", f.wall_seconds > 0 ? f.phase_mean[k] / f.wall_seconds : 0.0}};
  return j;
}

// Stage 2's load per rank: compute seconds (wall and CPU time), the fraction of the stage each
// rank waited for the slowest one ((max - own) / wall), and imbalance = max / mean - 1 (of the
// wall and of the CPU times: the CPU one does not see other processes on the machine).
Json balance(const RunFacts& f) {
  const auto& busy = f.busy_seconds_per_rank;
  Json waiting = Json::array();
  double slowest = 0.0, mean = 0.0;
  for (double b : busy) slowest = std::max(slowest, b), mean += b;
  mean = busy.empty() ? 0.0 : mean / static_cast<double>(busy.size());
  for (double b : busy)
    waiting.push_back(f.wall_seconds > 0 ? (slowest - b) / f.wall_seconds : 0.0);
  const auto& cpu = f.busy_cpu_seconds_per_rank;
  double cpu_max = 0.0, cpu_mean = 0.0;
  for (double c : cpu) cpu_max = std::max(cpu_max, c), cpu_mean += c;
  cpu_mean = cpu.empty() ? 0.0 : cpu_mean / static_cast<double>(cpu.size());
  return {{"busy_seconds_per_rank", busy},
          {"busy_cpu_seconds_per_rank", cpu},
          {"cpu_imbalance", cpu_mean > 0 ? cpu_max / cpu_mean - 1.0 : 0.0},
          {"waiting_fraction_per_rank", waiting},
          {"imbalance", mean > 0 ? slowest / mean - 1.0 : 0.0}};
}

Json derived(const Scene& s) {
  const Derived& d = s.derived;
  return {{"h_m", d.h},
          {"support_m", d.support},
          {"particle_mass_kg", d.particle_mass},
          {"dt_s", d.dt},
          {"substeps", d.substeps},
          {"samples", d.samples},
          {"f_max_Hz", d.f_max},
          {"lowpass_Hz", output_cutoff(s)},
          {"f_max_bulk_Hz", d.f_max_bulk},
          {"f_max_walls_Hz", d.f_max_walls},
          {"ppw_at_f_max", d.ppw_min},
          {"phase_error_at_f_max", kFmaxPhaseError},
          {"lowpass", s.output.lowpass},
          {"highpass_Hz", s.output.highpass},
          {"room_walls", !s.room.present ? "none"
                         : d.mirror_room ? "mirror"
                         : d.ghost_room  ? "ghost"
                                         : "tethered"},
          {"hyperdiffusion", s.fluid.hyperdiffusion},
          {"hyperviscosity", hyperviscosity_of(s)},
          {"hyperviscosity_auto", s.fluid.hyperviscosity_auto},
          {"shifting", s.fluid.shifting}};
}

// Every [boundary] shape's wall treatment: ghost or tethered, the key as given and why.
Json boundaries(const Scene& s) {
  Json j = Json::array();
  for (const BoundarySpec& b : s.boundaries)
    j.push_back({{"name", b.name},
                 {"shape", to_string(b.shape)},
                 {"wall", to_string(b.wall)},
                 {"wall_given", to_string(b.wall_key)},
                 {"reason", b.wall_reason}});
  return j;
}

// Every material given by its absorption: the wall model's normal-incidence alpha at the band
// centres (what the tethered wall is built to give; V6 measures the discrete wall against it)
// and the model itself, Z = R + j(wM - K/w) per unit area (material.hpp eq. 1).
Json materials(const Scene& s) {
  Json j = Json::object();
  for (const MaterialSpec& m : s.materials) {
    if (m.rigid || m.absorption.empty()) continue;
    std::vector<double> model;
    for (double f : kOctaveBands) {
      const double w = 2.0 * std::numbers::pi * f;
      model.push_back(
          normal_absorption(m.impedance.at(w) / (s.fluid.rest_density * s.fluid.sound_speed)));
    }
    j[m.name] = {{"absorption", m.absorption},
                 {"model_absorption_at_bands", model},
                 {"fit_rms", m.fit_rms},
                 {"impedance",
                  {{"resistance_Pa_s_per_m", m.impedance.resistance},
                   {"mass_kg_per_m2", m.impedance.mass},
                   {"stiffness_Pa_per_m", m.impedance.stiffness},
                   {"rho0_c_Pa_s_per_m", s.fluid.rest_density * s.fluid.sound_speed}}}};
  }
  return j;
}

// The room's air volume and the surfaces the air sees (exposed_surfaces, covered_faces.hpp), with
// the diffuse-field estimates `check` prints (surfaces.hpp): from the SPH's fitted walls
// ("sph") and from the materials' tables ("tables"), each absent if a material has no absorption
// to report. Postproc's report takes a mesh room's Sabine and Eyring estimates from here.
Json diffuse_field(const Scene& s) {
  Json surfaces = Json::array();
  for (const SceneSurface& f : exposed_surfaces(s))
    surfaces.push_back(
        {{"name", f.name}, {"material", f.material}, {"area_m2", f.area}, {"sides", f.sides}});
  Json j = {{"volume_m3", air_volume(s)},
            {"sound_speed_m_per_s", s.fluid.sound_speed},
            {"octaves_Hz", kOctaveBands},
            {"surfaces", surfaces}};
  const auto estimate = [](const Reverberation& r) {
    return Json{{"area_m2", r.area},
                {"mean_alpha_random", r.mean_alpha},
                {"sabine_s", r.sabine},
                {"eyring_s", r.eyring}};
  };
  bool known = false;
  if (const Reverberation r = scene_reverberation(s, known); known) j["sph"] = estimate(r);
  if (const Reverberation r = table_reverberation(s, known); known) j["tables"] = estimate(r);
  return j;
}

// [hybrid]: the crossover, the geometric part's cost and each receiver's overlap-band levels.
Json hybrid(const HybridFacts& h) {
  Json j = {{"crossover_Hz", h.crossover},
            {"overlap_band_Hz", {0.5 * h.crossover, h.crossover}},
            {"rays", h.rays},
            {"ray_segments", h.segments},
            {"receiver_radius_m", h.receiver_radius},
            {"trace_seconds", h.trace_seconds},
            {"synthesis_seconds", h.synthesis_seconds}};
  j["receivers"] = Json::array();
  for (const HybridReceiverOutput& o : h.receivers) {
    Json r = {{"name", o.name},
              {"wav", o.wav},
              {"raw_wav", o.raw_wav},
              {"image_sources", o.images},
              {"mismatch_dB", o.mismatch_db},
              {"gain", o.gain},
              {"early_dB", o.early_db},
              {"late_dB", o.late_db},
              {"octave_decay",
               {{"octave_Hz", o.decay.centre},
                {"measure", o.decay.sph > 0.0 ? (o.decay.t20 ? "T20" : "T30") : "none"},
                {"sph_s", o.decay.sph},
                {"full_s", o.decay.full}}}};
    if (!o.amb_wav.empty()) {
      r["amb_wav"] = o.amb_wav;
      r["amb_raw_wav"] = o.amb_raw_wav;
    }
    if (!o.binaural_wav.empty()) r["binaural_wav"] = o.binaural_wav;
    j["receivers"].push_back(std::move(r));
  }
  const JoinVerdict& v = h.join;
  j["join_check"] = {{"criteria",
                      "V19: early and late overlap-octave levels within 2 dB (mean of "
                      "the receivers); the crossover octave's decay time within 10 %"},
                     {"passes", v.ok()},
                     {"early_dB", v.early_db},
                     {"late_dB", v.late_db},
                     {"levels_pass", v.levels_ok},
                     {"octave_Hz", v.octave},
                     {"decay_measure", v.decay_measured ? (v.t20 ? "T20" : "T30") : "none"},
                     {"sph_decay_s", v.t_sph},
                     {"full_decay_s", v.t_full},
                     {"decay_pass", v.decay_ok},
                     {"warnings", v.warnings}};
  j["groups"] = Json::array();
  for (const GroupOutput& g : h.groups)
    j["groups"].push_back(
        {{"name", g.name}, {"wav", g.wav}, {"raw_wav", g.raw_wav}, {"channels", g.channels}});
  return j;
}

// An ambisonic receiver's files and their conventions (output.hpp).
Json ambisonic(const Scene& s, const AmbisonicOutput& a) {
  Json j = {{"wav", a.wav},
            {"raw_wav", a.raw_wav},
            {"format", "ambiX"},
            {"order", 1},
            {"channel_order", "ACN: W Y Z X"},
            {"normalisation", "SN3D"},
            {"peak_Pa", a.peak_pascal}};
  if (!a.binaural_wav.empty()) {
    j["binaural_wav"] = a.binaural_wav;
    j["hrtf"] = hrtf_path(s);
  }
  return j;
}

}  // namespace

std::string summary_json(const Scene& s, const RunFacts& f) {
  Json j;
  j["particles"] = f.particles;
  j["steps"] = f.steps;
  j["wall_seconds"] = f.wall_seconds;
  j["particle_steps_per_second"] =
      f.wall_seconds > 0
          ? static_cast<double>(f.particles) * static_cast<double>(f.steps_run) / f.wall_seconds
          : 0.0;
  j["neighbours_per_particle"] = f.neighbours_per_particle;
  j["ranks"] = static_cast<int>(f.particles_per_rank.size());
  j["particles_per_rank"] = f.particles_per_rank;
  j["rebuilds"] = f.rebuilds;
  j["total_wall_seconds"] = f.total_wall_seconds;
  j["phases"] = phases(f);  // stage 2, seconds per rank (mean and max over ranks)
  j["balance"] = balance(f);
  j["memory"] = {{"peak_bytes_total", f.peak_bytes_total},
                 {"peak_bytes_max_rank", f.peak_bytes_max_rank},
                 {"baseline_bytes_total", f.baseline_bytes_total},
                 {"bytes_per_particle", f.bytes_per_particle}};
  j["equilibrium"] = {{"steps", f.stage1_steps},
                      {"wall_seconds", f.stage1_wall_seconds},
                      {"kinetic_energy_J", f.stage1_kinetic_energy}};
  j["derived"] = derived(s);
  j["boundaries"] = boundaries(s);
  j["materials"] = materials(s);
  j["diffuse_field"] = diffuse_field(s);
  j["receivers"] = Json::array();
  for (const ReceiverOutput& o : f.receivers) {
    Json r = {{"name", o.name},           {"wav", o.wav},
              {"raw_wav", o.raw_wav},     {"samples", o.samples},
              {"peak_Pa", o.peak_pascal}, {"reference_density_kg_m3", o.reference_density}};
    for (const AmbisonicOutput& a : f.ambisonic)
      if (a.name == o.name) r["ambisonic"] = ambisonic(s, a);
    j["receivers"].push_back(std::move(r));
  }
  j["groups"] = Json::array();
  for (const GroupOutput& g : f.groups)
    j["groups"].push_back(
        {{"name", g.name}, {"wav", g.wav}, {"raw_wav", g.raw_wav}, {"channels", g.channels}});
  if (s.output.energy) j["energy_csv"] = RunDir::kEnergyName;
  if (f.has_hybrid) j["hybrid"] = hybrid(f.hybrid);
  j["versions"] = Json::object();
  for (const auto& [name, v] : versions()) j["versions"][name] = v;
  j["scene_path"] = s.path;
  j["scene_overrides"] = Json::object();
  for (const auto& [k, v] : s.overrides) j["scene_overrides"][k] = v;
  j["scene"] = s.text;
  // Invalid UTF-8 in the scene text is replaced, never an exception.
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string summary_with_hybrid(const std::string& summary, const Scene& s, const HybridFacts& h) {
  Json j = Json::parse(summary, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("receivers"))
    throw std::runtime_error("not a summary.json of a run");
  j["hybrid"] = hybrid(h);
  j["scene_overrides"] = Json::object();
  for (const auto& [k, v] : s.overrides) j["scene_overrides"][k] = v;
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

void write_summary(const std::string& path, const Scene& s, const RunFacts& f) {
  write_file_atomically(path, summary_json(s, f));
}

}  // namespace sphreverb::io
