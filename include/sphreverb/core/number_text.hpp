// The form numbers take in messages: printf's %g (6 significant digits, no trailing zeros), so a
// message reads "0.0336 m", not "0.033600000000000005 m" or "0.033600".
#pragma once

#include <cstdio>
#include <string>

namespace sphreverb {

inline std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace sphreverb
