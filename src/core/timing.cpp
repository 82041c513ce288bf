#include "sphreverb/core/timing.hpp"

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

std::size_t peak_resident_bytes() { return status_bytes("VmHWM"); }
std::size_t resident_bytes() { return status_bytes("VmRSS"); }

}  // namespace sphreverb
