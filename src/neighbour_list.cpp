#include "sphreverb/neighbour_list.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace sphreverb {

namespace {

// A uniform grid over the bounding box of all entries, entries sorted by cell (counting sort).
struct CellGrid {
  Vec3 lo;
  double inv_cell = 0.0;
  int n[3] = {1, 1, 1};
  std::vector<std::uint32_t> start;  // cell c holds entries order[start[c] .. start[c+1])
  std::vector<std::uint32_t> order;

  int coord(double v, int axis) const {
    const int c = static_cast<int>((v - lo[axis]) * inv_cell);
    return std::clamp(c, 0, n[axis] - 1);
  }
  std::size_t cell_of(const Particles& p, std::size_t i) const {
    return coord(p.x[i], 0) +
           std::size_t(n[0]) * (coord(p.y[i], 1) + std::size_t(n[1]) * coord(p.z[i], 2));
  }

  CellGrid(const Particles& p, std::size_t count, double cell) {
    Vec3 hi;
    for (int a = 0; a < 3; ++a)
      lo[a] = std::numeric_limits<double>::max(), hi[a] = std::numeric_limits<double>::lowest();
    for (std::size_t i = 0; i < count; ++i) {
      const Vec3 r = p.position(i);
      for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], r[a]), hi[a] = std::max(hi[a], r[a]);
    }
    inv_cell = 1.0 / cell;
    for (int a = 0; a < 3; ++a)
      n[a] = count == 0 ? 1 : std::max(1, static_cast<int>((hi[a] - lo[a]) * inv_cell) + 1);
    const std::size_t cells = std::size_t(n[0]) * n[1] * n[2];
    start.assign(cells + 1, 0);
    std::vector<std::uint32_t> cell_index(count);
    for (std::size_t i = 0; i < count; ++i)
      ++start[(cell_index[i] = static_cast<std::uint32_t>(cell_of(p, i))) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    order.resize(count);
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < count; ++i)
      order[fill[cell_index[i]]++] = static_cast<std::uint32_t>(i);
  }
};

}  // namespace

void NeighbourList::build(const Particles& p, double radius) {
  const CellGrid grid(p, p.size(), radius);
  const double r2max = radius * radius;
  // Calls f(j) for every entry j != i within the radius of owned i.
  const auto search = [&](std::size_t i, auto&& f) {
    const int ci[3] = {grid.coord(p.x[i], 0), grid.coord(p.y[i], 1), grid.coord(p.z[i], 2)};
    for (int cz = std::max(0, ci[2] - 1); cz <= std::min(grid.n[2] - 1, ci[2] + 1); ++cz)
      for (int cy = std::max(0, ci[1] - 1); cy <= std::min(grid.n[1] - 1, ci[1] + 1); ++cy)
        for (int cx = std::max(0, ci[0] - 1); cx <= std::min(grid.n[0] - 1, ci[0] + 1); ++cx) {
          const std::size_t c = cx + std::size_t(grid.n[0]) * (cy + std::size_t(grid.n[1]) * cz);
          for (std::uint32_t k = grid.start[c]; k < grid.start[c + 1]; ++k) {
            const std::uint32_t j = grid.order[k];
            if (j == i) continue;
            const double dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j], dz = p.z[i] - p.z[j];
            if (dx * dx + dy * dy + dz * dz <= r2max) f(j);
          }
        }
  };
  // Two passes, count then fill, so the list is allocated once at its exact size: the peak
  // memory of a rebuild is the list itself, not a guess plus a shrinking copy.
  offsets_.assign(p.n_owned + 1, 0);
  std::size_t total = 0;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    search(i, [&](std::uint32_t) { ++total; });
    if (total > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error(
          "neighbour list of one rank exceeds 2^32 entries (~45 million "
          "particles per rank): use more ranks");
    offsets_[i + 1] = static_cast<std::uint32_t>(total);
  }
  index_.clear();
  index_.shrink_to_fit();  // the old list goes before the new one is allocated
  index_.resize(total);
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    std::uint32_t* out = index_.data() + offsets_[i];
    search(i, [&](std::uint32_t j) { *out++ = j; });
    std::sort(index_.begin() + offsets_[i], index_.begin() + offsets_[i + 1],
              [&](std::uint32_t a, std::uint32_t b) { return p.key[a] < p.key[b]; });
  }
}

std::vector<std::size_t> NeighbourList::cell_order(const Particles& p, double cell) {
  const CellGrid grid(p, p.n_owned, cell);
  return {grid.order.begin(), grid.order.end()};
}

std::vector<std::vector<std::uint32_t>> brute_force_neighbours(const Particles& p, double radius) {
  std::vector<std::vector<std::uint32_t>> out(p.n_owned);
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (j == i) continue;
      const double dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j], dz = p.z[i] - p.z[j];
      if (dx * dx + dy * dy + dz * dz <= radius * radius)
        out[i].push_back(static_cast<std::uint32_t>(j));
    }
    std::sort(out[i].begin(), out[i].end(),
              [&](std::uint32_t a, std::uint32_t b) { return p.key[a] < p.key[b]; });
  }
  return out;
}

}  // namespace sphreverb
