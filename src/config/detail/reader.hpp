// Typed reading of the lexed scene (internal to src/config): each value is converted as its
// schema row says (type, range, unit, default), and every message names the file, the line and
// the key: "FILE:LINE: [section] key = value: must be in (0, 1] m".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sphreverb/config/ini.hpp"
#include "sphreverb/config/schema.hpp"
#include "sphreverb/core/vec3.hpp"
#include "text.hpp"

namespace sphreverb::config_detail {

class Reader {
 public:
  Reader(const std::string& path, const IniScene& ini) : path_(path), ini_(ini) {}

  const std::string& path() const { return path_; }

  const IniSection* section(const std::string& name) const;
  // Named sections of one type ("receiver" -> [receiver.a], [receiver.b]) in file order.
  std::vector<const IniSection*> sections_of(const std::string& type) const;
  const IniEntry* entry(const std::string& section, const std::string& key) const;
  // The key is given (in the file or on the command line).
  bool has(const std::string& section, const std::string& key) const {
    return entry(section, key) != nullptr;
  }
  // The schema row of a key (the readers ask only for keys in the schema).
  const KeySpec& spec(const std::string& section, const std::string& key) const;

  [[noreturn]] void fail(const std::string& section, const std::string& key,
                         const std::string& what) const;
  [[noreturn]] void fail_section(const std::string& section, const std::string& what) const;
  void require(const std::string& section, const std::string& key, const char* what) const;

  // The given value, else the schema's literal default, else nothing.
  std::optional<std::string> text(const std::string& section, const std::string& key) const;

  // `word` as a finite real in `range` (messages name the key).
  double to_real(const std::string& section, const std::string& key, const std::string& word,
                 const Range& range) const;

  // Number (Int rows: a whole number), Int, Vector, Bool and String/Path rows; `out` keeps its
  // value when the key is absent and the schema has no literal default.
  void get(const std::string& section, const std::string& key, double& out) const;
  void get(const std::string& section, const std::string& key, std::int64_t& out) const;
  void get(const std::string& section, const std::string& key, int& out) const;
  void get(const std::string& section, const std::string& key, Vec3& out) const;
  void get(const std::string& section, const std::string& key, bool& out) const;
  void get(const std::string& section, const std::string& key, std::string& out) const;

  template <class E>
  void get_enum(const std::string& section, const std::string& key, E& out,
                const Names<E>& names) const {
    const auto t = text(section, key);
    if (!t) return;
    for (const auto& [name, value] : names) {
      if (*t == name) {
        out = value;
        return;
      }
    }
    fail(section, key, "unknown name (allowed: " + join(spec(section, key).names) + ")");
  }

 private:
  const std::string& path_;
  const IniScene& ini_;
};

}  // namespace sphreverb::config_detail
