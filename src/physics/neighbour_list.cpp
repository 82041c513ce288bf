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
// With `positions`, also the entries' coordinates in that order, so a search reads each cell's
// candidates from contiguous memory instead of gathering them by index.
struct CellGrid {
  Vec3 lo;
  double inv_cell = 0.0;
  int n[3] = {1, 1, 1};
  std::vector<std::uint32_t> start;  // cell c holds entries order[start[c] .. start[c+1])
  std::vector<std::uint32_t> order;
  std::vector<double> cx, cy, cz;  // position of entry order[k], with `positions`

  int coord(double v, int axis) const {
    const int c = static_cast<int>((v - lo[axis]) * inv_cell);
    return std::clamp(c, 0, n[axis] - 1);
  }
  std::size_t cell_of(const Particles& p, std::size_t i) const {
    return coord(p.x[i], 0) +
           std::size_t(n[0]) * (coord(p.y[i], 1) + std::size_t(n[1]) * coord(p.z[i], 2));
  }

  CellGrid(const Particles& p, std::size_t count, double cell, bool positions) {
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
    if (!positions) return;
    cx.resize(count), cy.resize(count), cz.resize(count);
    for (std::size_t k = 0; k < count; ++k)
      cx[k] = p.x[order[k]], cy[k] = p.y[order[k]], cz[k] = p.z[order[k]];
  }
};

// The one distance test of the search and of the stencil check: the same expression in both, so
// both round alike.
inline bool within(double dx, double dy, double dz, double r2max) {
  return dx * dx + dy * dy + dz * dz <= r2max;
}

// A list of at most kPackedSlots candidates whose keys lie below kPackedKeyLimit is sorted as
// packed words (key << kSlotBits | slot); larger ones as (key, entry) pairs.
constexpr int kSlotBits = 9;

constexpr std::size_t kPackedSlots = std::size_t{1} << kSlotBits;
constexpr std::int64_t kPackedKeyLimit = std::int64_t{1} << (64 - kSlotBits);

}  // namespace

// One search per owned particle (its list, its size and the hash of its offsets), then the
// stencil chosen from the hashes, then a check of each particle against the stencil without a
// search (below); the explicit lists are those kept from the search, and a particle whose list
// was not kept (the first build, or one expected on the stencil that is not) is searched again. The
// lists, the stencil and the runs are those of searching every particle three times (pattern count,
// size count, fill).
void NeighbourList::build(const Particles& p, double radius, bool use_stencil) {
  const CellGrid grid(p, p.size(), radius, true);
  const double r2max = radius * radius;
  // The entries j != i within the radius of owned i, cell by cell (the order the key sort starts
  // from), as (key, j) into `keyed`, then sorted by key into `list`. The distance tests of a row
  // of cells run as one vector loop, and the hits are compacted without a branch (most
  // candidates miss).
  std::vector<std::uint32_t> hits;  // positions k in the cell order
  std::vector<std::uint64_t> near;  // per candidate of one row of cells: within the radius
  std::vector<std::pair<std::int64_t, std::uint32_t>> keyed;
  std::vector<std::uint64_t> packed;  // key << kSlotBits | slot in keyed
  std::vector<std::uint32_t> list;    // one particle's neighbours, key order
  const auto list_of = [&](std::size_t i) {
    const double xi = p.x[i], yi = p.y[i], zi = p.z[i];
    const int ci[3] = {grid.coord(xi, 0), grid.coord(yi, 1), grid.coord(zi, 2)};
    std::size_t n = 0;
    for (int cz = std::max(0, ci[2] - 1); cz <= std::min(grid.n[2] - 1, ci[2] + 1); ++cz)
      for (int cy = std::max(0, ci[1] - 1); cy <= std::min(grid.n[1] - 1, ci[1] + 1); ++cy) {
        // The three cells along x of one row are consecutive in the cell order.
        const std::size_t row = std::size_t(grid.n[0]) * (cy + std::size_t(grid.n[1]) * cz);
        const std::uint32_t k0 = grid.start[row + std::max(0, ci[0] - 1)];
        const std::uint32_t k1 = grid.start[row + std::min(grid.n[0] - 1, ci[0] + 1) + 1];
        const std::uint32_t m = k1 - k0;
        if (near.size() < m) near.resize(2 * m);
        if (hits.size() < n + m) hits.resize(2 * (n + m));
        const double* __restrict x = grid.cx.data() + k0;
        const double* __restrict y = grid.cy.data() + k0;
        const double* __restrict z = grid.cz.data() + k0;
        std::uint64_t* __restrict in = near.data();
        for (std::uint32_t k = 0; k < m; ++k)  // vectorised
          in[k] = within(xi - x[k], yi - y[k], zi - z[k], r2max);
        std::uint32_t* __restrict out = hits.data();
        for (std::uint32_t k = 0; k < m; ++k) out[n] = k0 + k, n += in[k];
      }
    // i itself is among the hits (at distance 0): dropped here.
    std::size_t kept = 0;
    keyed.resize(n);
    bool packable = n <= kPackedSlots;
    for (std::size_t m = 0; m < n; ++m) {
      const std::uint32_t j = grid.order[hits[m]];
      if (j == i) continue;
      const std::int64_t key = p.key[j];
      packable = packable && key >= 0 && key < kPackedKeyLimit;
      keyed[kept++] = {key, j};
    }
    n = kept;
    keyed.resize(n);
    list.resize(n);
    if (packable) {
      // Keys are distinct: sorting (key, slot) packed into one word orders by key alone, and a
      // sort of plain words is about twice as fast as one of pairs.
      packed.resize(n);
      for (std::size_t m = 0; m < n; ++m)
        packed[m] = static_cast<std::uint64_t>(keyed[m].first) << kSlotBits | m;
      std::sort(packed.begin(), packed.end());
      for (std::size_t m = 0; m < n; ++m) list[m] = keyed[packed[m] & (kPackedSlots - 1)].second;
      return;
    }
    std::sort(keyed.begin(), keyed.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t m = 0; m < n; ++m) list[m] = keyed[m].second;
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
  const auto hash_of = [](const std::vector<std::int32_t>& pattern) {
    std::uint64_t h = 0xcbf29ce484222325ULL ^ pattern.size();
    for (std::int32_t d : pattern) h = (h ^ static_cast<std::uint32_t>(d)) * 0x100000001b3ULL;
    return h;
  };

  // Pass 1: every list once, its size and (for the stencil) the hash of its offsets. The lists
  // of the particles that will not fit the stencil are kept (`kept`, in particle order), so that
  // pass 3 need not search for them again: which ones is guessed from the last build's stencil
  // (a particle whose offsets have its hash is expected to fit). The old lists go first, so the
  // peak memory stays about that of the explicit lists.
  // The first build keeps none (it has no guess; pass 3 searches again).
  const bool had_stencil = !stencil_.empty();
  const std::uint64_t guess = stencil_hash_;
  const std::size_t expected = index_.size();
  index_.clear();
  index_.shrink_to_fit();
  std::vector<std::uint32_t> kept;
  kept.reserve(expected + expected / 8);
  constexpr std::uint32_t kNotKept = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> kept_at(p.n_owned, kNotKept);
  std::vector<std::uint32_t> count(p.n_owned);
  std::vector<std::uint64_t> hash(use_stencil ? p.n_owned : 0);
  std::vector<bool> hashed(use_stencil ? p.n_owned : 0, false);
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>> seen;  // count, first
  std::vector<std::int32_t> pattern;
  pairs_ = 0;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    list_of(i);
    count[i] = static_cast<std::uint32_t>(list.size());
    pairs_ += list.size();
    if (use_stencil && !list.empty() && deltas(i, pattern)) {
      hash[i] = hash_of(pattern), hashed[i] = true;
      auto& e = seen.try_emplace(hash[i], 0u, static_cast<std::uint32_t>(i)).first->second;
      ++e.first;
      if (had_stencil && hash[i] == guess) continue;  // expected to fit
    }
    if (!had_stencil) continue;
    if (kept.size() + list.size() > kNotKept)
      throw std::length_error(
          "neighbour list of one rank exceeds 2^32 entries (~45 million "
          "particles per rank): use more ranks");
    kept_at[i] = static_cast<std::uint32_t>(kept.size());
    kept.insert(kept.end(), list.begin(), list.end());
  }

  // The stencil: the most common pattern of offsets (by its hash; a collision only makes a
  // worse choice, as every particle is checked against the pattern itself below).
  stencil_.clear();
  std::uint64_t& stencil_hash = stencil_hash_;
  stencil_hash = 0;
  {
    std::pair<std::uint32_t, std::uint32_t> best{0, 0};
    for (const auto& [h, e] : seen)
      if (e.first > best.first || (e.first == best.first && e.second < best.second))
        best = e, stencil_hash = h;
    if (best.first > 0) {
      list_of(best.second);
      deltas(best.second, stencil_);
    }
  }
  // Whether i's list is i + stencil, without searching again: the entries i + stencil[k] are
  // distinct and not i; if each exists and lies within the radius, and i's list has as many
  // entries, the two are the same set; and if their keys rise along the stencil, the same order.
  const auto fits = [&](std::size_t i) {
    if (stencil_.empty() || !hashed[i] || hash[i] != stencil_hash || count[i] != stencil_.size())
      return false;
    const double xi = p.x[i], yi = p.y[i], zi = p.z[i];
    std::int64_t last_key = std::numeric_limits<std::int64_t>::min();
    for (std::int32_t d : stencil_) {
      const std::int64_t j = std::int64_t(i) + d;
      if (j < 0 || j >= static_cast<std::int64_t>(p.size())) return false;
      const std::size_t u = static_cast<std::size_t>(j);
      if (!within(xi - p.x[u], yi - p.y[u], zi - p.z[u], r2max) || p.key[u] <= last_key)
        return false;
      last_key = p.key[u];
    }
    return true;
  };

  // Pass 2: which particles fit, and the explicit lists' sizes, so they are allocated once at
  // their exact size: the peak memory of a rebuild is the lists themselves, not a guess plus a
  // shrinking copy.
  std::vector<bool> regular(p.n_owned, false);
  offsets_.assign(p.n_owned + 1, 0);
  std::size_t total = 0;
  bool kept_all = true;  // `kept` holds exactly the explicit lists, in particle order
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    regular[i] = fits(i);
    if (!regular[i]) total += count[i];
    kept_all = kept_all && regular[i] == (kept_at[i] == kNotKept);
    if (total > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error(
          "neighbour list of one rank exceeds 2^32 entries (~45 million "
          "particles per rank): use more ranks");
    offsets_[i + 1] = static_cast<std::uint32_t>(total);
  }
  hash = {}, hashed = {}, count = {};
  runs_.clear();
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    if (!regular[i]) continue;
    if (runs_.empty() || runs_.back().end != i)
      runs_.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i)});
    ++runs_.back().end;
  }
  runs_.shrink_to_fit();
  if (kept_all) {
    index_ = std::move(kept);  // its spare capacity stays for the next build
    return;
  }
  // Pass 3 (a guess was wrong, or the stencil changed): the explicit lists, copied from pass 1
  // or searched again.
  index_.resize(total);
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    if (regular[i]) continue;
    if (kept_at[i] != kNotKept) {
      const auto from = kept.begin() + kept_at[i];
      std::copy(from, from + (offsets_[i + 1] - offsets_[i]), index_.begin() + offsets_[i]);
      continue;
    }
    list_of(i);
    std::copy(list.begin(), list.end(), index_.begin() + offsets_[i]);
  }
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
  const CellGrid grid(p, p.n_owned, cell, false);
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
