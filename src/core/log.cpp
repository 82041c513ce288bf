#include "sphreverb/core/log.hpp"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <vector>

namespace sphreverb {

namespace {
const char* const kModules[] = {"run", "sim", "io"};
}

void setup_logging(int rank, const std::string& log_file) {
  std::vector<spdlog::sink_ptr> sinks;
  auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  console->set_pattern(rank == 0 ? "[%H:%M:%S] %^%l%$ %v"
                                 : "[%H:%M:%S] [rank " + std::to_string(rank) + "] %^%l%$ %v");
  sinks.push_back(console);
  if (!log_file.empty() && rank == 0) {
    auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(log_file, true);
    file->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%n] %l %v");
    sinks.push_back(file);
  }
  for (const char* m : kModules) {
    spdlog::drop(m);
    auto l = std::make_shared<spdlog::logger>(m, sinks.begin(), sinks.end());
    l->set_level(rank == 0 ? spdlog::level::info : spdlog::level::warn);
    l->flush_on(spdlog::level::info);
    spdlog::register_logger(l);
  }
}

std::shared_ptr<spdlog::logger> logger(const std::string& module) {
  auto l = spdlog::get(module);
  if (!l) {
    setup_logging(0);
    l = spdlog::get(module);
  }
  return l;
}

Progress::Progress(std::string label, std::int64_t total_steps, std::int64_t particles, double dt,
                   double every_seconds, std::int64_t first)
    : label_(std::move(label)),
      total_(total_steps),
      particles_(particles),
      first_(first),
      dt_(dt),
      every_(every_seconds),
      start_(Clock::now()),
      last_(start_) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void Progress::update(std::int64_t done) {
  const auto now = Clock::now();
  if (std::chrono::duration<double>(now - last_).count() < every_ && done < total_) return;
  last_ = now;
  const double n = static_cast<double>(done), total = static_cast<double>(total_);
  const double wall = elapsed(), rate = wall > 0 ? (n - static_cast<double>(first_)) / wall : 0.0;
  const double eta = rate > 0 ? (total - n) / rate : 0.0;
  logger("sim")->info(
      "{}: step {}/{} ({:.1f} %), t = {:.3f} ms | {:.0f} steps/s | {:.3g} "
      "particle-steps/s | ETA {:.0f} s",
      label_, done, total_, total_ > 0 ? 100.0 * n / total : 100.0, 1e3 * n * dt_, rate,
      rate * static_cast<double>(particles_), eta);
}

}  // namespace sphreverb
