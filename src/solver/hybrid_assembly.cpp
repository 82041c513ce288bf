#include "sphreverb/solver/hybrid_assembly.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sphreverb/geometric/surfaces.hpp"
#include "sphreverb/io/output.hpp"
#include "sphreverb/model/mesh_check.hpp"
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

// The sounding sources of the scene (plan.hpp): the disc unless it is silent, then every
// [emitter.NAME] monopole, each with its drive high-pass (geometric/source_filter.hpp): the disc's
// with the acceleration drive, 0 (flat) for its displacement and velocity drives, whose tilted
// spectra the geometric part does not model; a monopole's volume velocity passes through the
// acceleration drive at its own `highpass`. Levels relative to the first source's.
std::vector<GeoSource> geo_sources(const Scene& s) {
  std::vector<GeoSource> out;
  std::vector<double> level;  // free-field amplitude times distance, Pa m per unit input sample
  const std::uint64_t seed = static_cast<std::uint64_t>(s.hybrid.seed);
  if (s.emitter.present && s.emitter.gain > 0.0) {
    const EmitterSpec& e = s.emitter;
    const double fs = s.time.sample_rate;
    out.push_back({"emitter", e.center, 1.0, e.drive == Drive::Acceleration ? e.highpass : 0.0, 1});
    level.push_back(s.fluid.rest_density * e.radius * e.radius * e.deflection * fs * fs * e.gain /
                    4.0);
  }
  for (const SourceSpec& src : s.sources) {
    if (!(src.gain > 0.0 && src.level > 0.0)) continue;
    out.push_back({src.name, src.path.front().x, 1.0, src.highpass, 1});
    level.push_back(src.level * src.gain);
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k].weight = k == 0 ? 1.0 : level[k] / level[0];
    out[k].seed = source_seed(seed, k);
  }
  return out;
}

}  // namespace

double hybrid_volume(const Scene& s) {
  if (s.room.present) {
    const Vec3 e = s.room.max - s.room.min;
    return e.x * e.y * e.z;
  }
  for (const GeometrySpec& g : s.geometries)
    if (g.role == GeometryRole::Room) return mesh_facts(*g.mesh).volume;
  const Vec3 e = s.fluid.fill_max - s.fluid.fill_min;
  return e.x * e.y * e.z;
}

double hybrid_area(const Scene& s, const HybridPlan& plan) {
  if (s.room.present) {
    const Vec3 e = s.room.max - s.room.min;
    return 2.0 * (e.x * e.y + e.y * e.z + e.z * e.x);
  }
  double area = 0.0;
  for (std::size_t t = 0; t < plan.surfaces.triangle_count(); ++t)
    area += 0.5 * norm(plan.surfaces.area_vector(t));
  return area;
}

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
    p.air_side.resize(p.surfaces.triangle_count(), -1);  // the air inside the box
  }
  for (const GeometrySpec& g : s.geometries) {  // room and object meshes, fixed
    std::vector<std::size_t> slot;
    for (const std::string& name : g.surface_material) slot.push_back(index_of(name));
    add_mesh(p.surfaces, *g.mesh, slot);
    // A room mesh's normals point out of the air, an object's into it (model/mesh.hpp).
    p.air_side.resize(p.surfaces.triangle_count(), g.role == GeometryRole::Room ? -1 : 1);
  }
  for (const BoundarySpec& b : s.boundaries) {
    Shape shape{b.shape, b.center, b.normal, b.width, b.height, b.radius};
    add_shape(p.surfaces, shape, index_of(b.material));
    p.air_side.resize(p.surfaces.triangle_count(), 0);  // a thin sheet: both sides
  }
  p.sources = geo_sources(s);

  p.air = {h.temperature, h.humidity, h.pressure};
  p.air_absorption = h.air_absorption;
  const BandValues air = h.air_absorption ? air_energy_rates(p.air) : BandValues{};
  const double c = s.fluid.sound_speed;
  const double rate = s.time.sample_rate;
  const auto samples = static_cast<std::size_t>(s.derived.samples);
  const double duration = static_cast<double>(samples) / rate;
  const double bin = 1e-3;

  const double volume = hybrid_volume(s);

  RayTraceParams& r = p.rays;
  r.source = p.sources.empty() ? s.emitter.center : p.sources.front().position;
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
  if (p.sources.empty()) r.rays = 0;  // nothing sounds
  r.bin_width = bin;
  r.bins = static_cast<std::size_t>(std::ceil(duration / bin));
  p.box_images = s.room.present && s.geometries.empty() && s.boundaries.empty();
  p.poly_images = !p.box_images && h.image_time > 0.0 && !p.sources.empty();
  p.phased_images = (p.box_images || p.poly_images) && h.phased_images;
  p.phased_limit = h.phased_limit;
  r.specular_until = p.box_images || p.poly_images ? h.image_time : 0.0;
  // Phased images carry the whole reflected energy of the flat faces up to image_time (no
  // scattered share): the rays count only after it.
  r.silent_until = p.phased_images ? h.image_time : 0.0;
  // Polyhedral images stop at image_order as well: the rays take the paths of more reflections
  // (ray_tracer.hpp).
  if (p.poly_images) {
    r.specular_order = static_cast<int>(h.image_order);
    if (p.phased_images) r.silent_order = r.specular_order;
  }
  if (r.silent_until >= duration && r.silent_order < 0) r.rays = 0;  // none could count

  // A face's factors (image_sources.hpp): its material's impedance and reflection per band.
  // Phased images reflect off a locally reacting face everywhere: a table's random-incidence
  // absorption becomes the real impedance of the same statistical absorption.
  const auto face_factors = [&](std::size_t material) {
    const GeoMaterial& g = p.materials[material];
    FaceFactors f;
    f.impedance = g.impedance;
    if (p.phased_images)
      for (std::size_t k = 0; k < kGeoBandCount; ++k)
        if (g.impedance[k] == 0.0 && g.absorption[k] > 0.0)
          f.impedance[k] = resistance_ratio_for_statistical(g.absorption[k]);
    for (std::size_t k = 0; k < kGeoBandCount; ++k)
      f.reflection[k] = std::sqrt((f.impedance[k] > 0.0 ? 1.0 : 1.0 - g.absorption[k]) *
                                  (p.phased_images ? 1.0 : 1.0 - g.scattering));
    return f;
  };

  for (const GeoSource& src : p.sources) {
    if (!p.box_images) break;
    for (const ReceiverSpec& rec : s.receivers) {
      BoxImageParams b;
      b.lo = s.room.min, b.hi = s.room.max;
      b.source = src.position, b.receiver = rec.position;
      for (int f = 0; f < 6; ++f) {
        const FaceFactors ff = face_factors(index_of(s.room.face_material[f]));
        b.impedance[f] = ff.impedance;
        b.reflection[f] = ff.reflection;
      }
      b.air = air;
      b.sound_speed = c;
      b.max_delay = std::min(h.image_time, duration);
      p.images.push_back(b);
    }
  }
  if (p.poly_images) {
    p.faces = polygon_faces(p.surfaces, p.air_side);
    std::vector<FaceFactors> factors;
    for (const PolyFace& f : p.faces) factors.push_back(face_factors(f.surface));
    for (const GeoSource& src : p.sources)
      for (const ReceiverSpec& rec : s.receivers) {
        PolyImageParams q;
        q.source = src.position, q.receiver = rec.position;
        q.factors = factors;
        q.air = air;
        q.sound_speed = c;
        q.max_delay = std::min(h.image_time, duration);
        q.max_order = static_cast<int>(h.image_order);
        p.poly.push_back(std::move(q));
      }
  }
  p.synthesis = {rate, samples, bin, static_cast<std::uint64_t>(h.seed),
                 p.sources.empty() ? 0.0 : p.sources.front().highpass};
  const bool record_lowpass = s.output.lowpass && output_cutoff(s) == s.derived.f_max;
  p.join = {rate, h.crossover, 0.0, record_lowpass ? s.derived.f_max : 0.0};
  return p;
}

}  // namespace sphreverb
