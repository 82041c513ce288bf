// Phase timers of the step: one steady_clock reading per phase boundary (a few per step, ~20 ns
// each), accumulated per rank. Reported in the log and summary.json ("phases") and by the
// benchmark (scripts/bench.sh).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <string_view>

namespace sphreverb {

enum class Phase : std::size_t {
  Neighbours,   // rebuild check (a global max) and, when due, migration + lists + halo plan
  Forces,       // momentum pair loop + tether forces
  Density,      // continuity pair loop
  Integration,  // kick, compress and drift
  Halo,         // halo refresh between ranks
  Ghosts,       // mirror-wall ghost refresh
  Receivers,    // receiver measurement and the periodic reduction onto rank 0
  Emitter,      // the disc's state (rank 0) and its broadcast
  Count
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(Phase::Count)> kPhaseNames =
    {"neighbours", "forces", "density", "integration", "halo", "ghosts", "receivers", "emitter"};

class PhaseTimes {
 public:
  using Clock = std::chrono::steady_clock;
  // Starts timing; the next lap(phase) charges the time since then to `phase`.
  void start() { last_ = Clock::now(); }
  void lap(Phase phase) {
    const Clock::time_point now = Clock::now();
    seconds_[static_cast<std::size_t>(phase)] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  double seconds(Phase phase) const { return seconds_[static_cast<std::size_t>(phase)]; }
  double total() const {
    double t = 0.0;
    for (double s : seconds_) t += s;
    return t;
  }
  void reset() { seconds_.fill(0.0); }
  const std::array<double, static_cast<std::size_t>(Phase::Count)>& all() const { return seconds_; }

 private:
  std::array<double, static_cast<std::size_t>(Phase::Count)> seconds_{};
  Clock::time_point last_;
};

// Peak resident memory of this process (VmHWM) and current resident memory (VmRSS), in bytes,
// from /proc/self/status; 0 where unavailable.
std::size_t peak_resident_bytes();
std::size_t resident_bytes();

}  // namespace sphreverb
