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

// The phases in which a rank computes on its own particles without waiting for another rank:
// their sum per rank is the rank's load (the other phases also hold the time it waits for the
// slowest rank: the halo refresh, the rebuild check's reduction, the receivers' reduction, the
// emitter's broadcast).
inline constexpr std::array<Phase, 4> kBusyPhases = {Phase::Forces, Phase::Density,
                                                     Phase::Integration, Phase::Ghosts};

// Wall time since `start`, s.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU time of the calling thread, s (CLOCK_THREAD_CPUTIME_ID): unlike wall time, it does not
// grow while other processes hold the core.
double thread_cpu_seconds();

class PhaseTimes {
 public:
  using Clock = std::chrono::steady_clock;
  // Starts timing; the next lap(phase) charges the time since then to `phase` (wall time, and
  // the thread's CPU time for the busy phases).
  void start() { last_ = Clock::now(), last_cpu_ = thread_cpu_seconds(); }
  void lap(Phase phase) {
    const Clock::time_point now = Clock::now();
    const double cpu = thread_cpu_seconds();
    seconds_[static_cast<std::size_t>(phase)] += std::chrono::duration<double>(now - last_).count();
    cpu_seconds_[static_cast<std::size_t>(phase)] += cpu - last_cpu_;
    last_ = now, last_cpu_ = cpu;
  }
  double seconds(Phase phase) const { return seconds_[static_cast<std::size_t>(phase)]; }
  double total() const {
    double t = 0.0;
    for (double s : seconds_) t += s;
    return t;
  }
  // Sum over kBusyPhases, s of wall time; busy_cpu(): of CPU time (the rank's load, whatever
  // else the machine runs: what balancing the slabs evens out).
  double busy() const {
    double t = 0.0;
    for (Phase p : kBusyPhases) t += seconds(p);
    return t;
  }
  double busy_cpu() const {
    double t = 0.0;
    for (Phase p : kBusyPhases) t += cpu_seconds_[static_cast<std::size_t>(p)];
    return t;
  }
  void reset() { seconds_.fill(0.0), cpu_seconds_.fill(0.0); }
  const std::array<double, static_cast<std::size_t>(Phase::Count)>& all() const { return seconds_; }

 private:
  std::array<double, static_cast<std::size_t>(Phase::Count)> seconds_{}, cpu_seconds_{};
  Clock::time_point last_;
  double last_cpu_ = 0.0;
};

// Peak resident memory of this process (VmHWM) and current resident memory (VmRSS), in bytes,
// from /proc/self/status; 0 where unavailable.
std::size_t peak_resident_bytes();
std::size_t resident_bytes();

}  // namespace sphreverb
