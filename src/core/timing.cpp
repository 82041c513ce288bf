#include "sphreverb/core/timing.hpp"

#include <time.h>

#include <fstream>
#include <sstream>
#include <string>

namespace sphreverb {

namespace {
// The value of a "Key:   1234 kB" line of /proc/self/status, in bytes.
std::size_t status_bytes(const std::string& key) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, key.size(), key) != 0 || line.size() <= key.size() ||
        line[key.size()] != ':')
      continue;
    std::istringstream value(line.substr(key.size() + 1));
    std::size_t kb = 0;
    value >> kb;
    return kb * 1024;
  }
  return 0;
}
}  // namespace

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::size_t peak_resident_bytes() { return status_bytes("VmHWM"); }
std::size_t resident_bytes() { return status_bytes("VmRSS"); }

}  // namespace sphreverb
