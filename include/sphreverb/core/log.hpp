// Logging: one spdlog logger per module ("run", "sim", "io"), info and above from rank 0 only
// (other ranks: warnings and errors), to the console and, once set, to DIR/sphreverb.log.
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace sphreverb {

// Creates the module loggers for this rank (idempotent). `log_file` empty: console only.
void setup_logging(int rank, const std::string& log_file = {});
std::shared_ptr<spdlog::logger> logger(const std::string& module);

// Progress lines at most every `every` seconds of wall time: done/total steps, simulated time,
// steps/s, particle-steps/s and an ETA.
class Progress {
 public:
  // `first`: the step this process starts at (a restart), so rates count only its own steps.
  Progress(std::string label, std::int64_t total_steps, std::int64_t particles, double dt,
           double every_seconds, std::int64_t first = 0);
  void update(std::int64_t done);
  double elapsed() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::string label_;
  std::int64_t total_, particles_, first_;
  double dt_, every_;
  Clock::time_point start_, last_;
};

}  // namespace sphreverb
