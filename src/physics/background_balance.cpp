#include "sphreverb/physics/background_balance.hpp"

#include <algorithm>
#include <cmath>

namespace sphreverb {

BackgroundBalance::BackgroundBalance(std::vector<RestAcceleration> all) : table_(std::move(all)) {
  std::sort(table_.begin(), table_.end(),
            [](const RestAcceleration& a, const RestAcceleration& b) { return a.id < b.id; });
}

std::vector<RestAcceleration> BackgroundBalance::at_rest(const Particles& p, double threshold) {
  std::vector<RestAcceleration> out;
  const double t2 = threshold * threshold;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const double a2 = p.ax[i] * p.ax[i] + p.ay[i] * p.ay[i] + p.az[i] * p.az[i];
    if (a2 > t2) out.push_back({p.id(i), p.ax[i], p.ay[i], p.az[i]});
  }
  return out;
}

void BackgroundBalance::rebuild(const Particles& p) {
  local_.clear();
  if (table_.empty()) return;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const std::int64_t id = p.id(i);
    const auto it =
        std::lower_bound(table_.begin(), table_.end(), id,
                         [](const RestAcceleration& r, std::int64_t v) { return r.id < v; });
    if (it != table_.end() && it->id == id)
      local_.push_back({i, static_cast<std::size_t>(it - table_.begin())});
  }
}

void BackgroundBalance::subtract(Particles& p) const {
  for (const Local& l : local_) {
    const RestAcceleration& r = table_[l.record];
    p.ax[l.particle] -= r.ax, p.ay[l.particle] -= r.ay, p.az[l.particle] -= r.az;
  }
}

}  // namespace sphreverb
