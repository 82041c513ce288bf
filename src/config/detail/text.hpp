// Small text helpers shared by the scene's lexer, schema and readers (internal to src/config).
#pragma once

#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "sphreverb/core/number_text.hpp"
#include "sphreverb/core/vec3.hpp"

namespace sphreverb::config_detail {

inline std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

// `s` without leading and trailing blanks (space, tab, CR, FF, VT).
inline std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\f\v");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\f\v");
  return s.substr(first, last - first + 1);
}

// printf's %g: the form numbers take in messages (core/number_text.hpp).
using sphreverb::format_number;

inline std::string format_vec(const Vec3& v) {
  return format_number(v.x) + " " + format_number(v.y) + " " + format_number(v.z);
}

// Whitespace-separated words.
inline std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace sphreverb::config_detail
