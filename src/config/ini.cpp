// The scene's INI lexer (ini.hpp): lines, sections, keys, includes and command-line overrides.
#include "sphreverb/config/ini.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>
#include <system_error>

#include "detail/text.hpp"
#include "sphreverb/config/scene.hpp"

namespace sphreverb {

using config_detail::join;
using config_detail::trim;

namespace fs = std::filesystem;

namespace {

bool is_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Rejects a NUL byte anywhere in `text` (it would cut every later message short).
void check_no_nul(const std::string& text, const std::string& shown) {
  const auto at = text.find('\0');
  if (at == std::string::npos) return;
  const auto line_start = text.rfind('\n', at);
  const auto column = at - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
  const int line =
      1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  throw SceneError(origin(shown, line) + ": a NUL byte at column " + std::to_string(column) +
                   ": a scene file is text (is this a binary file?)");
}

// The keys a section of `type` may hold, for messages.
std::string keys_of(const SectionSpec& type) { return join(type.keys); }

void lex_into(IniScene& ini, const std::string& text, const std::string& path,
              const std::string& file);

// `include = VALUE` at `line` of `shown`: reads the library into `ini`.
void include_file(IniScene& ini, const std::string& value, const std::string& path,
                  const std::string& shown, int line, std::string_view s) {
  if (value.empty()) fail_line(shown, line, std::string(s), "empty value (expected a file path)");
  fs::path lib(value);
  if (lib.is_relative()) lib = fs::path(path).parent_path() / lib;
  const std::string where = origin(shown, line) + ": include = " + value + ": '" + lib.string() +
                            "' (relative to the scene file's directory): ";
  const std::string lib_text = read_scene_text(lib.string(), where);
  lex_into(ini, lib_text, path, lib.string());
}

// Adds the section of header `s` (a line of `shown`) to `ini`; returns it.
IniSection* open_section(IniScene& ini, std::string_view s, const std::string& path,
                         const std::string& shown, const std::string& file, int line) {
  const auto close = s.find(']');
  if (close == std::string_view::npos) {
    fail_line(shown, line, std::string(s), "unterminated section header (expected [SECTION])");
  }
  if (!trim(s.substr(close + 1)).empty()) {
    fail_line(shown, line, std::string(s), "unexpected text after the section header");
  }
  const std::string name(trim(s.substr(1, close - 1)));
  if (name.empty()) fail_line(shown, line, std::string(s), "empty section name");
  const SectionSpec* type = classify_section(name);
  if (type == nullptr) {
    fail_line(shown, line, "[" + name + "]",
              "unknown section (allowed: " + allowed_sections() +
                  "; NAME: letters, digits, '_' and '-')");
  }
  if (!file.empty() && type->name != "material") {
    fail_line(shown, line, "[" + name + "]",
              "an included file may hold [material.NAME] sections only");
  }
  for (const auto& other : ini.sections) {
    if (other.name != name) continue;
    fail_line(shown, line, "[" + name + "]",
              "section given twice (first at " +
                  (other.file.empty() && file.empty()
                       ? "line " + std::to_string(other.line)
                       : origin(other.file.empty() ? path : other.file, other.line)) +
                  ")");
  }
  ini.sections.push_back({name, type, line, {}, file});
  return &ini.sections.back();
}

// '#' starts a comment anywhere on a line (as in Boost.Program_options); ';' starts a comment
// line. `include = PATH` lines before the first section header read a library of
// [material.NAME] sections (no nested includes). `file` is empty for the scene file itself, else
// the included file's path (then `ini` already holds the scene's part).
void lex_into(IniScene& ini, const std::string& text, const std::string& path,
              const std::string& file) {
  const std::string& shown = file.empty() ? path : file;
  check_no_nul(text, shown);
  std::istringstream in(text);
  std::string line_text;
  int line = 0;
  std::size_t current = std::string::npos;  // index into ini.sections (an include appends)
  while (std::getline(in, line_text)) {
    ++line;
    std::string_view s = line_text;
    s = trim(s.substr(0, s.find('#')));
    if (s.empty() || s.front() == ';') continue;
    if (s.front() == '[') {
      open_section(ini, s, path, shown, file, line);
      current = ini.sections.size() - 1;
      continue;
    }
    const auto eq = s.find('=');
    if (eq == std::string_view::npos) {
      fail_line(shown, line, std::string(s),
                "not a comment ('#' or ';'), a [section] header or a 'key = value' line");
    }
    const std::string key(trim(s.substr(0, eq)));
    const std::string value(trim(s.substr(eq + 1)));
    if (key.empty()) fail_line(shown, line, std::string(s), "missing key before '='");
    // A pattern key (material.GROUP of [geometry.NAME]) may hold '.' and '-' after its prefix.
    const bool pattern_key = current != std::string::npos && key.find('.') != std::string::npos &&
                             find_key(*ini.sections[current].type, key) != nullptr;
    if (!pattern_key && !std::all_of(key.begin(), key.end(), is_key_char)) {
      fail_line(shown, line, std::string(s), "bad key name (letters, digits and '_' only)");
    }
    if (current == std::string::npos && key == "include") {
      if (!file.empty())
        fail_line(shown, line, std::string(s), "an included file may not include others");
      include_file(ini, value, path, shown, line, s);
      continue;  // the scene's own keys still need a [section] first
    }
    if (current == std::string::npos) {
      fail_line(shown, line, std::string(s),
                file.empty() ? "key before any [section] header (only 'include = PATH' may "
                               "come first)"
                             : "key before any [section] header");
    }
    IniSection& sec = ini.sections[current];
    const std::string where = "[" + sec.name + "] " + key + " = " + value;
    if (value.empty()) fail_line(shown, line, where, "empty value");
    const std::string dotted = sec.name + "." + key;
    if (const auto it = ini.entries.find(dotted); it != ini.entries.end()) {
      fail_line(shown, line, where,
                "duplicate key (first at line " + std::to_string(it->second.line) + ")");
    }
    if (find_key(*sec.type, key) == nullptr) {
      fail_line(shown, line, where,
                "unknown key (allowed in [" + sec.name + "]: " + keys_of(*sec.type) + ")");
    }
    ini.entries.emplace(dotted, IniEntry{sec.name, key, value, line, file});
    sec.keys.push_back(key);
  }
}

}  // namespace

std::string origin(const std::string& path, int line) {
  return line > 0 ? path + ":" + std::to_string(line) : path + " (command line)";
}

void fail_line(const std::string& path, int line, const std::string& text,
               const std::string& what) {
  throw SceneError(origin(path, line) + ": " + text + ": " + what);
}

std::string read_scene_text(const std::string& path, const std::string& what) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) throw SceneError(what + "no such file");
  if (fs::is_directory(st)) throw SceneError(what + "it is a directory");
  if (!fs::is_regular_file(st)) {
    throw SceneError(what + "not a regular file (a device, FIFO or socket cannot be a scene)");
  }
  const auto too_large = [&] {
    return SceneError(what + "larger than " + std::to_string(kMaxSceneFileBytes / (1024 * 1024)) +
                      " MiB: not a scene file");
  };
  if (fs::file_size(path, ec) > static_cast<std::uintmax_t>(kMaxSceneFileBytes)) throw too_large();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(what + "cannot open it (permission denied?)");
  // Read at most one byte past the limit: the file may grow while it is read.
  std::string text(static_cast<std::size_t>(kMaxSceneFileBytes) + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw SceneError(what + "error while reading it");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > static_cast<std::size_t>(kMaxSceneFileBytes)) throw too_large();
  return text;
}

IniScene lex_scene(const std::string& text, const std::string& path) {
  IniScene ini;
  lex_into(ini, text, path, "");
  if (ini.sections.empty()) {
    throw SceneError(path + ": the scene file is empty (no [section] found)");
  }
  return ini;
}

void apply_overrides(IniScene& ini, const std::map<std::string, std::string>& overrides,
                     const std::string& path) {
  for (const auto& [dotted, given] : overrides) {
    if (given.find('\0') != std::string::npos) {
      fail_line(path, 0, "--" + dotted, "a value may not contain a NUL byte");
    }
    const std::string value(trim(given));
    const std::string shown = "--" + dotted + " " + given;
    auto dot = dotted.rfind('.');
    if (dot == std::string::npos) {
      fail_line(path, 0, shown, "unknown key (expected SECTION.KEY, e.g. fluid.spacing)");
    }
    // A pattern key holds a dot itself (geometry.NAME.material.GROUP): the first split whose
    // section and key both exist.
    for (auto d = dotted.find('.'); d != std::string::npos; d = dotted.find('.', d + 1)) {
      const SectionSpec* t = classify_section(dotted.substr(0, d));
      if (t != nullptr && find_key(*t, dotted.substr(d + 1)) != nullptr) {
        dot = d;
        break;
      }
    }
    const std::string section = dotted.substr(0, dot);
    const std::string key = dotted.substr(dot + 1);
    const SectionSpec* type = classify_section(section);
    if (type == nullptr) {
      fail_line(path, 0, shown,
                "unknown key: no section [" + section + "] (allowed: " + allowed_sections() + ")");
    }
    if (find_key(*type, key) == nullptr) {
      fail_line(path, 0, shown,
                "unknown key (allowed in [" + section + "]: " + keys_of(*type) + ")");
    }
    if (value.empty()) fail_line(path, 0, shown, "empty value");
    if (value.find_first_of("#\n\r") != std::string::npos) {
      fail_line(path, 0, shown, "a value may not contain '#' or a line break");
    }
    auto section_it = std::find_if(ini.sections.begin(), ini.sections.end(),
                                   [&](const IniSection& s) { return s.name == section; });
    if (section_it == ini.sections.end()) {
      ini.sections.push_back({section, type, 0, {}, {}});
      section_it = std::prev(ini.sections.end());
    }
    auto [it, inserted] =
        ini.entries.insert_or_assign(dotted, IniEntry{section, key, value, 0, {}});
    if (inserted) section_it->keys.push_back(key);
  }
}

}  // namespace sphreverb
