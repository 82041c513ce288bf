// The ray tracer (see ray_tracer.hpp). CGAL's AABB tree over the triangles finds the first
// triangle a ray meets (first_intersected_primitive, skipping the triangle it leaves); the hit
// point is then the ray's crossing of that triangle's plane. Simple_cartesian<double>: the
// queries need no exact predicates (a grazing miss only moves one ray). Compiled in the CGAL
// object library (CMakeLists.txt), apart from the solver's other sources.
#include "sphreverb/geometric/ray_tracer.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "geometric/detail/triangle_tree.hpp"
#include "sphreverb/geometric/counter_rng.hpp"
#include "sphreverb/geometric/wall_reflection.hpp"

namespace sphreverb {
namespace {

using geometric_detail::Kernel;
using geometric_detail::Primitive;
using geometric_detail::Tree;
using geometric_detail::Triangle;
using geometric_detail::TriangleIt;

constexpr double kPi = std::numbers::pi;

Vec3 uniform_direction(CounterRng& rng) {
  const double z = 1.0 - 2.0 * rng.uniform();
  const double phi = 2.0 * kPi * rng.uniform();
  const double s = std::sqrt(std::max(0.0, 1.0 - z * z));
  return {s * std::cos(phi), s * std::sin(phi), z};
}

// Cosine-weighted direction in the half-space of unit n.
Vec3 lambert_direction(CounterRng& rng, const Vec3& n) {
  const Vec3 ref = std::abs(n.x) < 0.9 ? Vec3{1.0, 0.0, 0.0} : Vec3{0.0, 1.0, 0.0};
  const Vec3 u = normalized(cross(n, ref)), v = cross(n, u);
  const double u1 = rng.uniform(), phi = 2.0 * kPi * rng.uniform();
  const double sin_t = std::sqrt(u1), cos_t = std::sqrt(1.0 - u1);
  return normalized(cos_t * n + sin_t * std::cos(phi) * u + sin_t * std::sin(phi) * v);
}

}  // namespace

struct RayTracer::Impl {
  std::vector<Triangle> triangles;
  std::vector<Vec3> normals;  // unit
  std::vector<std::size_t> material;
  std::vector<GeoMaterial> materials;
  Tree tree;
};

std::vector<double> EnergyHistogram::series(std::size_t r, std::size_t b) const {
  const auto first = energy.begin() + static_cast<std::ptrdiff_t>((r * kGeoBandCount + b) * bins);
  return {first, first + static_cast<std::ptrdiff_t>(bins)};
}

std::vector<BinMoments> EnergyHistogram::moment_series(std::size_t r, std::size_t b) const {
  std::vector<BinMoments> out(bins);
  const std::size_t first = (r * kGeoBandCount + b) * bins * kMomentCount;
  for (std::size_t k = 0; k < bins; ++k)
    for (std::size_t m = 0; m < kMomentCount; ++m)
      out[k][m] = moments[first + k * kMomentCount + m];
  return out;
}

void add_histogram(EnergyHistogram& sum, const EnergyHistogram& block) {
  if (sum.energy.size() != block.energy.size() || sum.moments.size() != block.moments.size())
    throw std::invalid_argument("add_histogram: histograms of different shapes");
  for (std::size_t i = 0; i < sum.energy.size(); ++i) sum.energy[i] += block.energy[i];
  for (std::size_t i = 0; i < sum.moments.size(); ++i) sum.moments[i] += block.moments[i];
  sum.segments += block.segments;
}

RayTracer::RayTracer(const Mesh& mesh, std::vector<GeoMaterial> materials)
    : impl_(std::make_unique<Impl>()) {
  if (mesh.triangles.empty()) throw std::invalid_argument("ray tracer: no surfaces");
  auto& im = *impl_;
  im.materials = std::move(materials);
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const Vec3 &a = mesh.corner(t, 0), &b = mesh.corner(t, 1), &c = mesh.corner(t, 2);
    im.triangles.emplace_back(Kernel::Point_3(a.x, a.y, a.z), Kernel::Point_3(b.x, b.y, b.z),
                              Kernel::Point_3(c.x, c.y, c.z));
    im.normals.push_back(normalized(mesh.area_vector(t)));
    const std::size_t m = t < mesh.surface.size() ? mesh.surface[t] : 0;
    if (m >= im.materials.size())
      throw std::invalid_argument("ray tracer: triangle " + std::to_string(t) +
                                  " refers to a missing material");
    im.material.push_back(m);
  }
  im.tree.insert(im.triangles.cbegin(), im.triangles.cend());
  im.tree.build();
}

RayTracer::~RayTracer() = default;

std::uint64_t RayTracer::block_count(const RayTraceParams& p) {
  return (p.rays + p.block_rays - 1) / p.block_rays;
}

EnergyHistogram RayTracer::trace_block(const RayTraceParams& p, std::uint64_t block) const {
  const auto& im = *impl_;
  EnergyHistogram h(p.receivers.size(), p.bins);
  const double r2 = p.receiver_radius * p.receiver_radius;
  const double deposit =
      1.0 / (4.0 / 3.0 * kPi * r2 * p.receiver_radius) / (4.0 * kPi);  // per unit chord
  const double t_end = p.bin_width * static_cast<double>(p.bins);
  const double d_end = t_end * p.sound_speed;
  const std::uint64_t first = block * p.block_rays;
  const std::uint64_t last = std::min(p.rays, first + p.block_rays);
  const double e0 = 1.0 / static_cast<double>(p.rays);
  for (std::uint64_t ray = first; ray < last; ++ray) {
    CounterRng rng(p.seed, ray);
    Vec3 pos = p.source, dir = uniform_direction(rng);
    BandValues e;
    e.fill(e0);
    double travelled = 0.0;
    bool scattered = false;
    std::size_t from = im.triangles.size();  // no triangle to skip at the source
    for (int reflection = 0; reflection <= p.max_reflections; ++reflection) {
      const Kernel::Ray_3 query(Kernel::Point_3(pos.x, pos.y, pos.z),
                                Kernel::Direction_3(dir.x, dir.y, dir.z));
      const auto hit = im.tree.first_intersected_primitive(query, [&](TriangleIt it) {
        return static_cast<std::size_t>(it - im.triangles.cbegin()) == from;
      });
      ++h.segments;
      if (!hit) break;  // left through a gap
      const std::size_t t = static_cast<std::size_t>(*hit - im.triangles.cbegin());
      const Vec3& n = im.normals[t];
      const auto& a = im.triangles[t].vertex(0);
      const double denom = dot(dir, n);
      double len = std::abs(denom) > 1e-300 ? dot(Vec3{a.x(), a.y(), a.z()} - pos, n) / denom : 0.0;
      len = std::max(len, 0.0);
      // Receivers crossed by the segment [pos, pos + len dir].
      // Paths of more reflections than the images' largest order are the rays' at any time.
      const bool beyond_specular = p.specular_order >= 0 && reflection > p.specular_order;
      const bool beyond_silent = p.silent_order >= 0 && reflection > p.silent_order;
      const double counted_after = std::max(scattered || beyond_specular ? 0.0 : p.specular_until,
                                            beyond_silent ? 0.0 : p.silent_until) *
                                   p.sound_speed;
      if (travelled + len > counted_after) {
        for (std::size_t r = 0; r < p.receivers.size(); ++r) {
          const Vec3 w = p.receivers[r] - pos;
          const double tc = dot(w, dir);
          const double miss2 = dot(w, w) - tc * tc;
          if (miss2 >= r2) continue;
          const double half = std::sqrt(r2 - miss2);
          const double s0 = std::max(tc - half, 0.0), s1 = std::min(tc + half, len);
          if (s1 <= s0) continue;
          const double dist = travelled + 0.5 * (s0 + s1);
          if (dist <= counted_after && counted_after > 0.0) continue;
          const auto bin = static_cast<std::size_t>(dist / p.sound_speed / p.bin_width);
          if (bin >= p.bins) continue;
          const double w_chord = (s1 - s0) * deposit;
          const std::array<double, 3> arrival = {-dir.x, -dir.y, -dir.z};
          for (std::size_t b = 0; b < kGeoBandCount; ++b) {
            const double de = e[b] * std::exp(-p.air[b] * dist) * w_chord;
            h.at(r, b, bin) += de;
            for (std::size_t ax = 0; ax < 3; ++ax) {
              h.moment(r, b, bin, ax) += de * arrival[ax];
              h.moment(r, b, bin, 3 + ax) += de * arrival[ax] * arrival[ax];
            }
          }
        }
      }
      travelled += len;
      if (travelled >= d_end) break;
      const GeoMaterial& mat = im.materials[im.material[t]];
      double alive = 0.0;
      for (std::size_t b = 0; b < kGeoBandCount; ++b) {
        if (mat.impedance[b] > 0.0) {
          const double r = wall_reflection(mat.impedance[b], denom);
          e[b] *= r * r;
        } else {
          e[b] *= 1.0 - mat.absorption[b];
        }
        alive = std::max(alive, e[b] * std::exp(-p.air[b] * travelled));
      }
      if (alive < p.energy_floor * e0) break;
      pos = pos + len * dir;
      const Vec3 facing = denom > 0.0 ? -n : n;  // the side the ray arrives from
      if (mat.scattering > 0.0 && rng.uniform() < mat.scattering) {
        dir = lambert_direction(rng, facing);
        scattered = true;
      } else {
        dir = normalized(dir - 2.0 * dot(dir, facing) * facing);
      }
      from = t;
    }
  }
  return h;
}

EnergyHistogram RayTracer::trace(const RayTraceParams& p) const {
  EnergyHistogram sum(p.receivers.size(), p.bins);
  for (std::uint64_t b = 0; b < block_count(p); ++b) add_histogram(sum, trace_block(p, b));
  return sum;
}

}  // namespace sphreverb
