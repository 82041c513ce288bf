// The geometric part of a scene's [room] box alone (no SPH run): its energy decay per receiver
// and octave band, and Eyring's reverberation time of the box with the absorption the geometric
// part uses (geometric_room, V19 in geometric_validation).
#pragma once

#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/geometric/decay.hpp"
#include "sphreverb/solver/hybrid_assembly.hpp"

namespace sphreverb {

// Eyring T60 (s) per band of the [room] box with absorption alpha[face][band] and the air's
// energy decay rate (1/m) per band.
inline BandValues box_eyring(const Scene& s, const std::array<BandValues, 6>& alpha,
                             const BandValues& air) {
  const Vec3 d = s.room.max - s.room.min;
  const double areas[6] = {d.y * d.z, d.y * d.z, d.x * d.z, d.x * d.z, d.x * d.y, d.x * d.y};
  BandValues t{};
  for (std::size_t b = 0; b < kGeoBandCount; ++b) {
    double sa = 0.0, area = 0.0;
    for (int f = 0; f < 6; ++f) sa += areas[f] * alpha[f][b], area += areas[f];
    t[b] = eyring_t60(d.x * d.y * d.z, area, sa / area, air[b], s.fluid.sound_speed);
  }
  return t;
}

// The geometric part's absorption of each box face (make_geo_material).
inline std::array<BandValues, 6> box_geo_absorption(const Scene& s) {
  std::array<BandValues, 6> a{};
  for (int f = 0; f < 6; ++f)
    for (const MaterialSpec& m : s.materials)
      if (m.name == s.room.face_material[f]) a[f] = make_geo_material(s, m).absorption;
  return a;
}

// Energy per histogram bin of receiver r in band b: the ray histogram plus the squared image
// source amplitudes in the bins of their delays.
inline std::vector<double> geometric_energy(const HybridPlan& plan, const EnergyHistogram& h,
                                            const std::vector<ImageSource>& taps, std::size_t r,
                                            std::size_t b) {
  std::vector<double> e = h.series(r, b);
  for (const ImageSource& t : taps) {
    const auto k = static_cast<std::size_t>(t.delay / plan.rays.bin_width);
    if (k < e.size()) e[k] += t.amplitude[b] * t.amplitude[b];
  }
  return e;
}

}  // namespace sphreverb
