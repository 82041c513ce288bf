// Decomposition::of exact up to a budget of sites, sampled beyond (decomposition_estimate.hpp).
#include "sphreverb/solver/decomposition_estimate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "sphreverb/parallel/slabs.hpp"
#include "sphreverb/solver/assembly.hpp"
#include "sphreverb/solver/plane_counts.hpp"

namespace sphreverb {

namespace {

// splitmix64: a well-mixed 64-bit value of the block's indices.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A site index in [first, first + extent), drawn from `h`.
int draw(std::uint64_t h, int first, int extent) {
  return first + static_cast<int>(h % static_cast<std::uint64_t>(extent));
}

}  // namespace

Decomposition estimate_decomposition(const Scene& s, std::int64_t budget,
                                     const std::function<bool()>& stop) {
  const Lattice lattice = make_lattice(s);
  if (!s.derived.ghost_walls || lattice.sites() <= budget) return Decomposition::of(s);
  const auto start = std::chrono::steady_clock::now();
  Decomposition d;
  const Vec3 size = s.fluid.fill_max - s.fluid.fill_min;  // the longest axis, as of() takes it
  d.axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
  const std::vector<Wall> walls = make_walls(s);
  d.plane_count = count_air_per_plane(lattice, walls, d.axis);
  const SolidGeometry geometry = make_solid_geometry(s);

  const int a0 = d.axis, a1 = (d.axis + 1) % 3, a2 = (d.axis + 2) % 3;
  const double ratio = static_cast<double>(lattice.sites()) / static_cast<double>(budget);
  const int k = std::max(1, static_cast<int>(std::ceil(std::cbrt(ratio))));
  d.sample_block = k;
  const auto blocks = [&](int a) { return (lattice.n[a] + k - 1) / k; };
  double solid_weight = 0.0, all_weight = 0.0;
  for (int bq = 0; bq < blocks(a0); ++bq) {
    const int q0 = bq * k, nq = std::min(k, lattice.n[a0] - q0);
    double layer = 0.0;  // estimated solid sites of the layer's planes
    for (int b1 = 0; b1 < blocks(a1); ++b1) {
      if (stop && stop()) throw EstimateStopped("stopped by a signal while sampling the lattice");
      for (int b2 = 0; b2 < blocks(a2); ++b2) {
        const int i0 = b1 * k, ni = std::min(k, lattice.n[a1] - i0);
        const int j0 = b2 * k, nj = std::min(k, lattice.n[a2] - j0);
        const std::uint64_t h =
            mix(mix(mix(static_cast<std::uint64_t>(bq)) ^ static_cast<std::uint64_t>(b1)) ^
                static_cast<std::uint64_t>(b2));
        int ijk[3];
        ijk[a0] = draw(h, q0, nq);
        ijk[a1] = draw(mix(h), i0, ni);
        ijk[a2] = draw(mix(mix(h)), j0, nj);
        const Vec3 x = lattice.site(ijk[0], ijk[1], ijk[2]);
        const double weight = static_cast<double>(nq) * ni * nj;
        all_weight += weight;
        ++d.sampled_sites;
        if (!geometry.is_air(x) && is_air_site(walls, x, lattice.dx)) {
          layer += weight;
          solid_weight += weight;
        }
      }
    }
    for (int q = q0; q < q0 + nq; ++q) {
      auto& c = d.plane_count[static_cast<std::size_t>(q)];
      c = std::max<std::int64_t>(0, c - std::llround(layer / nq));
    }
  }
  const double p = all_weight > 0.0 ? solid_weight / all_weight : 0.0;
  d.particles_sigma = all_weight * std::sqrt(p * (1.0 - p) / static_cast<double>(d.sampled_sites));
  d.classify_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (int q = 0; q < lattice.n[d.axis]; ++q) d.plane_pos.push_back(lattice.plane(d.axis, q));
  d.particles = std::accumulate(d.plane_count.begin(), d.plane_count.end(), std::int64_t{0});
  d.max_ranks = Slabs::max_ranks(d.plane_pos, d.plane_count, s.fluid.fill_min[d.axis],
                                 s.fluid.fill_max[d.axis], s.derived.halo_depth);
  return d;
}

}  // namespace sphreverb
