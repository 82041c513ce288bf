// Box image sources (see image_sources.hpp). Along one axis with the box [0, L] (local
// coordinates) and the source at x, the images lie at
//     2 k L + x   after |k| reflections off each of the two faces, and
//     2 k L - x   after k reflections off the max face and k - 1 off the min face (k >= 1), or
//                 |k| off the max face and |k| + 1 off the min face (k <= 0);
// an image of the box is one choice per axis.
#include "sphreverb/geometric/image_sources.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

#include "sphreverb/geometric/wall_reflection.hpp"

namespace sphreverb {
namespace {

struct AxisImage {
  double coord;  // image coordinate (absolute)
  int min_hits, max_hits;
};

std::vector<AxisImage> axis_images(double lo, double hi, double src, double rcv, double reach) {
  const double len = hi - lo, x = src - lo;
  std::vector<AxisImage> out;
  const int kmax = static_cast<int>(std::ceil(reach / (2.0 * len))) + 1;
  for (int k = -kmax; k <= kmax; ++k) {
    const double even = lo + 2.0 * k * len + x;
    if (std::abs(even - rcv) <= reach) out.push_back({even, std::abs(k), std::abs(k)});
    const double odd = lo + 2.0 * k * len - x;
    if (std::abs(odd - rcv) <= reach) {
      if (k >= 1)
        out.push_back({odd, k - 1, k});
      else
        out.push_back({odd, -k + 1, -k});
    }
  }
  return out;
}

}  // namespace

std::vector<ImageSource> box_image_sources(const BoxImageParams& p) {
  const double reach = p.max_delay * p.sound_speed;
  std::array<std::vector<AxisImage>, 3> axes;
  for (int a = 0; a < 3; ++a)
    axes[a] = axis_images(p.lo[a], p.hi[a], p.source[a], p.receiver[a], reach);
  std::vector<ImageSource> out;
  for (const AxisImage& ix : axes[0]) {
    for (const AxisImage& iy : axes[1]) {
      for (const AxisImage& iz : axes[2]) {
        const Vec3 img{ix.coord, iy.coord, iz.coord};
        const Vec3 d = img - p.receiver;
        const double dist = norm(d);
        if (!(dist < reach)) continue;
        ImageSource s;
        s.distance = dist;
        s.delay = dist / p.sound_speed;
        s.direction = dist > 0.0 ? d * (1.0 / dist) : Vec3{};
        s.hits = {ix.min_hits, ix.max_hits, iy.min_hits, iy.max_hits, iz.min_hits, iz.max_hits};
        for (int h : s.hits) s.order += h;
        const double spread = 1.0 / (4.0 * std::numbers::pi * std::max(dist, 1e-9));
        const Vec3 cos_axis{std::abs(d.x) / dist, std::abs(d.y) / dist, std::abs(d.z) / dist};
        for (std::size_t b = 0; b < kGeoBandCount; ++b) {
          double a = spread * std::exp(-0.5 * p.air[b] * dist);
          for (int f = 0; f < 6; ++f) {
            if (s.hits[f] == 0) continue;
            double r = p.reflection[f][b];
            if (p.impedance[f][b] > 0.0) r *= wall_reflection(p.impedance[f][b], cos_axis[f / 2]);
            a *= std::pow(r, s.hits[f]);
          }
          s.amplitude[b] = a;
        }
        out.push_back(s);
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const ImageSource& a, const ImageSource& b) {
    return std::tie(a.delay, a.order, a.direction.x, a.direction.y, a.direction.z) <
           std::tie(b.delay, b.order, b.direction.x, b.direction.y, b.direction.z);
  });
  return out;
}

}  // namespace sphreverb
