#include "sphreverb/solver/hybrid_assembly.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sphreverb/geometric/surfaces.hpp"
#include "sphreverb/io/output.hpp"
#include "sphreverb/physics/material.hpp"

namespace sphreverb {

GeoMaterial make_geo_material(const Scene& s, const MaterialSpec& m) {
  GeoMaterial g;
  g.scattering = m.scattering;
  if (!m.absorption_octaves.empty()) {
    for (std::size_t b = 0; b < kGeoBandCount; ++b) g.absorption[b] = m.absorption_octaves[b];
    return g;
  }
  if (m.rigid) return g;
  if (!m.absorption.empty()) {
    for (std::size_t b = 0; b < kGeoBandCount; ++b) {
      const double alpha_n = m.absorption[std::min(b, m.absorption.size() - 1)];
      g.impedance[b] = hard_resistance_ratio(alpha_n);
      g.absorption[b] = statistical_absorption(g.impedance[b]);
    }
    return g;
  }
  const double rho_c = s.fluid.rest_density * s.fluid.sound_speed;
  const double layers = tethered_layers(s.fluid.h_over_dx);
  for (std::size_t b = 0; b < kGeoBandCount; ++b) {
    const double w = 2.0 * std::numbers::pi * kGeoBands[b];
    const std::complex<double> z(layers * m.damping, layers * (w * m.mass - m.stiffness / w));
    g.absorption[b] = statistical_absorption(z / rho_c);
  }
  return g;
}

namespace {

// Hz: the SPH source's drive high-pass (geometric/source_filter.hpp). The sounding disc's with
// the acceleration drive; with a silent disc the first [emitter.NAME] monopole's (each has its
// own; the geometric part has one source). 0 (flat) for the displacement and velocity drives,
// whose tilted spectra the geometric part does not model.
double source_highpass(const Scene& s) {
  if (s.emitter.gain > 0.0)
    return s.emitter.drive == Drive::Acceleration ? s.emitter.highpass : 0.0;
  return s.sources.empty() ? 0.0 : s.sources.front().highpass;
}

}  // namespace

HybridPlan make_hybrid_plan(const Scene& s) {
  HybridPlan p;
  const HybridSpec& h = s.hybrid;
  for (const MaterialSpec& m : s.materials) {
    p.materials.push_back(make_geo_material(s, m));
    p.materials.back().scattering = std::max(p.materials.back().scattering, h.scattering);
  }
  auto index_of = [&](const std::string& name) {
    for (std::size_t i = 0; i < s.materials.size(); ++i)
      if (s.materials[i].name == name) return i;
    return std::size_t{0};
  };
  if (s.room.present) {
    std::array<std::size_t, 6> faces{};
    for (int f = 0; f < 6; ++f) faces[f] = index_of(s.room.face_material[f]);
    add_box(p.surfaces, s.room.min, s.room.max, faces);
  }
  for (const BoundarySpec& b : s.boundaries) {
    Shape shape{b.shape, b.center, b.normal, b.width, b.height, b.radius};
    add_shape(p.surfaces, shape, index_of(b.material));
  }

  p.air = {h.temperature, h.humidity, h.pressure};
  p.air_absorption = h.air_absorption;
  const BandValues air = h.air_absorption ? air_energy_rates(p.air) : BandValues{};
  const double c = s.fluid.sound_speed;
  const double rate = s.time.sample_rate;
  const auto samples = static_cast<std::size_t>(s.derived.samples);
  const double duration = static_cast<double>(samples) / rate;
  const double bin = 1e-3;

  const Vec3 lo = s.room.present ? s.room.min : s.fluid.fill_min;
  const Vec3 hi = s.room.present ? s.room.max : s.fluid.fill_max;
  const Vec3 size = hi - lo;
  const double volume = size.x * size.y * size.z;

  RayTraceParams& r = p.rays;
  r.source = s.emitter.center;
  for (const ReceiverSpec& rec : s.receivers) r.receivers.push_back(rec.position);
  r.rays = static_cast<std::uint64_t>(h.rays);
  r.receiver_radius =
      h.receiver_radius > 0.0
          ? h.receiver_radius
          : std::min(0.5, 3.0 * std::cbrt(volume /
                                          static_cast<double>(std::max<std::int64_t>(h.rays, 1))));
  r.air = air;
  r.sound_speed = c;
  r.seed = static_cast<std::uint64_t>(h.seed);
  r.bin_width = bin;
  r.bins = static_cast<std::size_t>(std::ceil(duration / bin));
  p.box_images = s.room.present;
  p.phased_images = p.box_images && h.phased_images;
  p.phased_limit = h.phased_limit;
  r.specular_until = p.box_images ? h.image_time : 0.0;
  // Phased images carry the whole reflected energy of the box's flat faces up to image_time (no
  // scattered share): the rays count only after it.
  r.silent_until = p.phased_images ? h.image_time : 0.0;
  if (r.silent_until >= duration) r.rays = 0;  // none could count

  if (p.box_images) {
    for (const ReceiverSpec& rec : s.receivers) {
      BoxImageParams b;
      b.lo = s.room.min, b.hi = s.room.max;
      b.source = s.emitter.center, b.receiver = rec.position;
      for (int f = 0; f < 6; ++f) {
        const GeoMaterial& g = p.materials[index_of(s.room.face_material[f])];
        b.impedance[f] = g.impedance;
        // Phased images reflect off a locally reacting face everywhere: a table's random-incidence
        // absorption becomes the real impedance of the same statistical absorption.
        if (p.phased_images)
          for (std::size_t k = 0; k < kGeoBandCount; ++k)
            if (g.impedance[k] == 0.0 && g.absorption[k] > 0.0)
              b.impedance[f][k] = resistance_ratio_for_statistical(g.absorption[k]);
        for (std::size_t k = 0; k < kGeoBandCount; ++k)
          b.reflection[f][k] = std::sqrt((b.impedance[f][k] > 0.0 ? 1.0 : 1.0 - g.absorption[k]) *
                                         (p.phased_images ? 1.0 : 1.0 - g.scattering));
      }
      b.air = air;
      b.sound_speed = c;
      b.max_delay = std::min(h.image_time, duration);
      p.images.push_back(b);
    }
  }
  p.synthesis = {rate, samples, bin, static_cast<std::uint64_t>(h.seed), source_highpass(s)};
  const bool record_lowpass = s.output.lowpass && output_cutoff(s) == s.derived.f_max;
  p.join = {rate, h.crossover, 0.0, record_lowpass ? s.derived.f_max : 0.0};
  return p;
}

}  // namespace sphreverb
