#include "sphreverb/parallel/slabs.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <sstream>

namespace sphreverb {

namespace {
// Inner cut positions that balance counts: cut k (1..ranks-1) is placed between the planes where
// the running count first reaches k/ranks of the total.
std::vector<double> balanced_cuts(const std::vector<double>& pos,
                                  const std::vector<std::int64_t>& count, double lo, double hi,
                                  int ranks, std::vector<std::int64_t>& per_slab) {
  const std::int64_t total = std::accumulate(count.begin(), count.end(), std::int64_t{0});
  std::vector<double> cuts{lo};
  per_slab.assign(ranks, 0);
  std::int64_t running = 0;
  int slab = 0;
  for (std::size_t p = 0; p < pos.size(); ++p) {
    // Start the next slab before plane p when the running count has reached its target.
    if (slab + 1 < ranks && p > 0 &&
        running * ranks >= static_cast<std::int64_t>(slab + 1) * total) {
      cuts.push_back(0.5 * (pos[p - 1] + pos[p]));
      ++slab;
    }
    running += count[p];
    per_slab[slab] += count[p];
  }
  while (static_cast<int>(cuts.size()) < ranks) cuts.push_back(hi);  // fewer planes than ranks
  cuts.push_back(hi);
  return cuts;
}
}  // namespace

Slabs Slabs::balanced(int axis, const std::vector<double>& plane_pos,
                      const std::vector<std::int64_t>& plane_count, double lo, double hi, int ranks,
                      double min_thickness) {
  assert(plane_pos.size() == plane_count.size() && ranks >= 1);
  std::vector<std::int64_t> per_slab;
  Slabs s;
  s.axis_ = axis;
  s.cuts_ = balanced_cuts(plane_pos, plane_count, lo, hi, ranks, per_slab);
  for (int r = 0; r < ranks; ++r) {
    const double thickness = s.cuts_[r + 1] - s.cuts_[r];
    if (thickness < min_thickness || per_slab[r] == 0) {
      std::ostringstream msg;
      msg << "the scene is too thin for " << ranks << " ranks: slab " << r << " along "
          << "xyz"[axis] << " would be " << thickness << " m thick with " << per_slab[r]
          << " particles (at least " << min_thickness << " m and one particle needed); use at most "
          << max_ranks(plane_pos, plane_count, lo, hi, min_thickness) << " ranks";
      throw DecompositionError(msg.str());
    }
  }
  return s;
}

int Slabs::max_ranks(const std::vector<double>& plane_pos,
                     const std::vector<std::int64_t>& plane_count, double lo, double hi,
                     double min_thickness) {
  int best = 1;
  const int limit = static_cast<int>(std::min<std::size_t>(plane_pos.size(), 1u << 16));
  for (int n = 2; n <= limit; ++n) {
    std::vector<std::int64_t> per_slab;
    const auto cuts = balanced_cuts(plane_pos, plane_count, lo, hi, n, per_slab);
    bool ok = true;
    for (int r = 0; r < n && ok; ++r)
      ok = cuts[r + 1] - cuts[r] >= min_thickness && per_slab[r] > 0;
    if (ok) best = n;
    if ((hi - lo) / n < min_thickness) break;  // no larger count can work
  }
  return best;
}

int Slabs::owner(double c) const {
  // upper_bound over the inner cuts: the number of inner cuts <= c is the owner.
  const auto first = cuts_.begin() + 1, last = cuts_.end() - 1;
  return static_cast<int>(std::upper_bound(first, last, c) - first);
}

}  // namespace sphreverb
