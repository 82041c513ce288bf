#include "sphreverb/physics/neighbour_list.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <utility>

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

void NeighbourList::build(const Particles& p, double radius, bool use_stencil) {
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
  std::vector<std::uint32_t> list;  // one particle's neighbours, key order
  const auto list_of = [&](std::size_t i) {
    list.clear();
    search(i, [&](std::uint32_t j) { list.push_back(j); });
    std::sort(list.begin(), list.end(),
              [&](std::uint32_t a, std::uint32_t b) { return p.key[a] < p.key[b]; });
  };
  // j - i for every neighbour, or false if one does not fit the stencil's int32.
  const auto deltas = [&](std::size_t i, std::vector<std::int32_t>& out) {
    out.clear();
    for (std::uint32_t j : list) {
      const std::int64_t d = std::int64_t{j} - std::int64_t(i);
      if (d < std::numeric_limits<std::int32_t>::min() ||
          d > std::numeric_limits<std::int32_t>::max())
        return false;
      out.push_back(static_cast<std::int32_t>(d));
    }
    return true;
  };

  // The stencil: the most common pattern of offsets (by a hash of it; a collision only makes a
  // worse choice, as every particle is checked against the pattern itself below).
  stencil_.clear();
  std::vector<std::int32_t> pattern;
  if (use_stencil && p.n_owned > 0) {
    std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>>
        seen;  // count, first
    for (std::size_t i = 0; i < p.n_owned; ++i) {
      list_of(i);
      if (list.empty() || !deltas(i, pattern)) continue;
      std::uint64_t h = 0xcbf29ce484222325ULL ^ pattern.size();
      for (std::int32_t d : pattern) h = (h ^ static_cast<std::uint32_t>(d)) * 0x100000001b3ULL;
      auto& e = seen.try_emplace(h, 0u, static_cast<std::uint32_t>(i)).first->second;
      ++e.first;
    }
    std::pair<std::uint32_t, std::uint32_t> best{0, 0};
    for (const auto& [h, e] : seen)
      if (e.first > best.first || (e.first == best.first && e.second < best.second)) best = e;
    if (best.first > 0) {
      list_of(best.second);
      deltas(best.second, stencil_);
    }
  }
  const auto fits = [&](std::size_t i) {
    if (stencil_.empty() || list.size() != stencil_.size()) return false;
    for (std::size_t k = 0; k < list.size(); ++k)
      if (std::int64_t{list[k]} != std::int64_t(i) + stencil_[k]) return false;
    return true;
  };

  // Count, then fill, so the explicit lists are allocated once at their exact size: the peak
  // memory of a rebuild is the lists themselves, not a guess plus a shrinking copy.
  std::vector<bool> regular(p.n_owned, false);
  offsets_.assign(p.n_owned + 1, 0);
  std::size_t total = 0;
  pairs_ = 0;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    list_of(i);
    pairs_ += list.size();
    regular[i] = fits(i);
    if (!regular[i]) total += list.size();
    if (total > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error(
          "neighbour list of one rank exceeds 2^32 entries (~45 million "
          "particles per rank): use more ranks");
    offsets_[i + 1] = static_cast<std::uint32_t>(total);
  }
  index_.clear();
  index_.shrink_to_fit();  // the old list goes before the new one is allocated
  index_.resize(total);
  runs_.clear();
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    if (regular[i]) {
      if (runs_.empty() || runs_.back().end != i)
        runs_.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i)});
      ++runs_.back().end;
      continue;
    }
    list_of(i);
    std::copy(list.begin(), list.end(), index_.begin() + offsets_[i]);
  }
  runs_.shrink_to_fit();
}

void NeighbourList::neighbours(std::size_t i, std::vector<std::uint32_t>& out) const {
  out.assign(index_.begin() + offsets_[i], index_.begin() + offsets_[i + 1]);
  const auto r = std::upper_bound(runs_.begin(), runs_.end(), i,
                                  [](std::size_t v, const Run& run) { return v < run.end; });
  if (r != runs_.end() && r->begin <= i)
    for (std::int32_t d : stencil_) out.push_back(static_cast<std::uint32_t>(std::int64_t(i) + d));
}

std::size_t NeighbourList::on_stencil() const {
  std::size_t n = 0;
  for (const Run& r : runs_) n += r.end - r.begin;
  return n;
}

std::vector<std::size_t> NeighbourList::key_order(const Particles& p) {
  std::vector<std::size_t> order(p.n_owned);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return p.key[a] < p.key[b]; });
  return order;
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
