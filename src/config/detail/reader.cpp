// Typed reading of the lexed scene against the schema (reader.hpp).
#include "reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <system_error>

#include "sphreverb/config/scene.hpp"

namespace sphreverb::config_detail {
namespace {

std::optional<double> parse_real(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return std::nullopt;
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return std::nullopt;
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

const IniSection* Reader::section(const std::string& name) const {
  for (const auto& s : ini_.sections)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<const IniSection*> Reader::sections_of(const std::string& type) const {
  std::vector<const IniSection*> out;
  for (const auto& s : ini_.sections)
    if (s.type->named && s.type->name == type) out.push_back(&s);
  return out;
}

const IniEntry* Reader::entry(const std::string& section, const std::string& key) const {
  const auto it = ini_.entries.find(section + "." + key);
  return it == ini_.entries.end() ? nullptr : &it->second;
}

const KeySpec& Reader::spec(const std::string& section, const std::string& key) const {
  const SectionSpec* type = classify_section(section);
  const KeySpec* row = type == nullptr ? nullptr : find_key(*type, key);
  if (row == nullptr)
    throw std::logic_error("scene key [" + section + "] " + key + " not in the schema");
  return *row;
}

void Reader::fail(const std::string& section, const std::string& key,
                  const std::string& what) const {
  const IniEntry* e = entry(section, key);
  if (e == nullptr) fail_section(section, key + ": " + what);
  fail_line(e->file.empty() ? path_ : e->file, e->line,
            "[" + e->section + "] " + e->key + " = " + e->value, what);
}

void Reader::fail_section(const std::string& section, const std::string& what) const {
  const IniSection* s = this->section(section);
  if (s == nullptr) throw SceneError(path_ + ": [" + section + "] " + what);
  fail_line(s->file.empty() ? path_ : s->file, s->line, "[" + section + "]", what);
}

void Reader::require(const std::string& section, const std::string& key, const char* what) const {
  if (!has(section, key))
    fail_section(section, "missing required key '" + key + "' (" + what + ")");
}

std::optional<std::string> Reader::text(const std::string& section, const std::string& key) const {
  if (const IniEntry* e = entry(section, key)) return e->value;
  const KeySpec& row = spec(section, key);
  if (!row.default_value.empty()) return row.default_value;
  return std::nullopt;
}

double Reader::to_real(const std::string& section, const std::string& key, const std::string& word,
                       const Range& range) const {
  const auto v = parse_real(word);
  if (!v) fail(section, key, "'" + word + "' is not a number (expected " + range.str() + ")");
  if (!std::isfinite(*v)) {
    fail(
        section, key,
        "must be a finite number (NaN and infinity are not allowed; expected " + range.str() + ")");
  }
  if (!range.contains(*v)) fail(section, key, "must be in " + range.str());
  return *v;
}

void Reader::get(const std::string& section, const std::string& key, double& out) const {
  const auto t = text(section, key);
  if (!t) return;
  const KeySpec& row = spec(section, key);
  const double v = to_real(section, key, *t, row.range);
  if (row.type == KeyType::Int && v != std::floor(v)) {
    fail(section, key, "'" + *t + "' is not an integer (expected " + row.range.str() + ")");
  }
  out = v;
}

void Reader::get(const std::string& section, const std::string& key, std::int64_t& out) const {
  const auto t = text(section, key);
  if (!t) return;
  const Range& range = spec(section, key).range;
  const auto v = parse_integer(*t);
  if (!v) fail(section, key, "'" + *t + "' is not an integer (expected " + range.str() + ")");
  if (!range.contains(static_cast<double>(*v))) fail(section, key, "must be in " + range.str());
  out = *v;
}

void Reader::get(const std::string& section, const std::string& key, int& out) const {
  std::int64_t wide = out;
  get(section, key, wide);
  out = static_cast<int>(wide);  // the schema's range keeps it within int
}

void Reader::get(const std::string& section, const std::string& key, Vec3& out) const {
  const auto t = text(section, key);
  if (!t) return;
  const auto words = split_words(*t);
  // The key's unit from its schema row (m for a position, deg for Euler angles, none for an
  // axis).
  const std::string unit = spec(section, key).range.unit;
  if (words.size() != 3) {
    fail(section, key,
         "expected 3 numbers (x y z" + (unit.empty() ? "" : ", " + unit) + "), got " +
             std::to_string(words.size()));
  }
  const Range any{-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                  true, true, spec(section, key).range.unit};
  out = {to_real(section, key, words[0], any), to_real(section, key, words[1], any),
         to_real(section, key, words[2], any)};
}

void Reader::get(const std::string& section, const std::string& key, bool& out) const {
  const auto t = text(section, key);
  if (!t) return;
  std::string v = *t;
  std::transform(v.begin(), v.end(), v.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  if (v == "true" || v == "yes" || v == "on" || v == "1") {
    out = true;
  } else if (v == "false" || v == "no" || v == "off" || v == "0") {
    out = false;
  } else {
    fail(section, key, "not a boolean (allowed: true, false, yes, no, on, off, 1, 0)");
  }
}

void Reader::get(const std::string& section, const std::string& key, std::string& out) const {
  if (const auto t = text(section, key)) out = *t;
}

}  // namespace sphreverb::config_detail
