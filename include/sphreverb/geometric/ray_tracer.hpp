// Ray tracing of sound energy through a triangle set (CGAL's AABB tree answers the ray queries):
// energy histograms per receiver, octave band and time bin for the late, diffuse part of the
// response.
//
// Method (Krokstad, Strom & Sorsdal 1968; Vorlaender, Auralization, 2008, ch. 11): N rays leave
// the point source uniformly over the sphere, each carrying 1/N of the energy in every band. At a
// surface of material (alpha_b, s) a ray keeps (1 - alpha_b) of its energy (R(theta)^2, theta
// its angle of incidence, in a band where the material has an impedance: wall_reflection.hpp)
// and goes on in a
// Lambert (cosine) direction with probability s (and is marked scattered from then on), else
// specularly. A receiver is a sphere of radius r: a ray segment crossing it with chord l at the
// time t (the chord's midpoint) adds
//     E_b exp(-m_b D) l / (4/3 pi r^3) / (4 pi)
// to bin floor(t / bin_width), D the path length so far: the time-integrated intensity (1 / m^2
// for a unit source energy), over 4 pi, so that the direct sound's expectation equals the squared
// amplitude 1 / (4 pi d)^2 of image_sources.hpp. The same deposit e times the components of u,
// the unit vector the ray comes from (minus its direction of travel), and times their squares
// gives the bin's first and second directional moments (sum e u_a, sum e u_a^2, a = x, y, z):
// what a first-order (B-format) synthesis of the bin needs (synthesis.hpp). A ray stops when
// every band has fallen below `energy_floor` of its start, at the last bin, or after
// `max_reflections`; a ray that leaves the geometry through a gap is lost.
//
// Specular paths are the image sources' part before `specular_until` (s): until then a ray adds
// to the histograms only once it has been scattered (so nothing is counted twice); after it,
// every ray counts. Before `silent_until` (s) no ray counts: the image sources carry the whole
// reflected energy until then (phased images, docs/theory/geometric.md). Polyhedral images
// (polyhedral_images.hpp) stop at a largest order N as well: with `specular_order` = N >= 0 a
// ray counts before specular_until also once it has reflected more than N times (the images
// have no such path), and with `silent_order` = N >= 0 likewise before silent_until (Vorlaender,
// Auralization, ch. 11: images and rays neither count a path twice nor leave a gap). -1: the
// times alone (a box's images, of every order).
//
// Determinism: ray i draws its numbers from CounterRng(seed, i); rays are traced in blocks of
// `block_rays`, a block's histogram depends on the block alone, and sum_blocks adds blocks in
// index order: the total is the same whichever process traced which block.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sphreverb/geometric/bands.hpp"
#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

struct RayTraceParams {
  Vec3 source;                   // m
  std::vector<Vec3> receivers;   // m
  double receiver_radius = 0.1;  // m
  BandValues air{};              // 1/m, energy decay rate of the air per band
  double sound_speed = 343.0;    // m/s
  std::uint64_t rays = 100000;
  std::uint64_t block_rays = 2048;
  std::uint64_t seed = 1;
  double bin_width = 1e-3;      // s
  std::size_t bins = 100;       // histogram length; bins * bin_width = the response length
  double specular_until = 0.0;  // s, see above
  double silent_until = 0.0;    // s, see above
  int specular_order = -1;      // see above; -1: none
  int silent_order = -1;        // see above; -1: none
  double energy_floor = 1e-7;   // relative, per ray
  int max_reflections = 100000;
};

// The directional moments of one bin: sum e u_x, e u_y, e u_z, then e u_x^2, e u_y^2, e u_z^2.
inline constexpr std::size_t kMomentCount = 6;
using BinMoments = std::array<double, kMomentCount>;

// Energy per receiver, band and bin (see above), its directional moments, and how much work it
// took.
struct EnergyHistogram {
  std::size_t receivers = 0, bins = 0;
  std::vector<double> energy;   // [receiver][band][bin]
  std::vector<double> moments;  // [receiver][band][bin][moment]
  std::uint64_t segments = 0;   // ray segments traced (one AABB-tree query each)

  EnergyHistogram() = default;
  EnergyHistogram(std::size_t n_receivers, std::size_t n_bins)
      : receivers(n_receivers),
        bins(n_bins),
        energy(n_receivers * kGeoBandCount * n_bins, 0.0),
        moments(energy.size() * kMomentCount, 0.0) {}
  double& at(std::size_t r, std::size_t b, std::size_t k) {
    return energy[(r * kGeoBandCount + b) * bins + k];
  }
  double at(std::size_t r, std::size_t b, std::size_t k) const {
    return energy[(r * kGeoBandCount + b) * bins + k];
  }
  double& moment(std::size_t r, std::size_t b, std::size_t k, std::size_t m) {
    return moments[((r * kGeoBandCount + b) * bins + k) * kMomentCount + m];
  }
  // The bins of one receiver and band.
  std::vector<double> series(std::size_t r, std::size_t b) const;
  // Their directional moments.
  std::vector<BinMoments> moment_series(std::size_t r, std::size_t b) const;
};

// sum += block, element by element (energies and moments) (call it in block order for a
// decomposition-free total).
void add_histogram(EnergyHistogram& sum, const EnergyHistogram& block);

class RayTracer {
 public:
  // `mesh.surface[t]` indexes `materials`. Throws std::invalid_argument when it does not, or
  // when the mesh has no triangles.
  RayTracer(const Mesh& mesh, std::vector<GeoMaterial> materials);
  ~RayTracer();
  RayTracer(const RayTracer&) = delete;
  RayTracer& operator=(const RayTracer&) = delete;

  // ceil(rays / block_rays).
  static std::uint64_t block_count(const RayTraceParams& p);
  // The histogram of rays [block * block_rays, min(rays, (block + 1) block_rays)).
  EnergyHistogram trace_block(const RayTraceParams& p, std::uint64_t block) const;
  // Every block, summed in order.
  EnergyHistogram trace(const RayTraceParams& p) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sphreverb
