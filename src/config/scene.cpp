// Scene parser: a light pre-scan of the INI text (line numbers, syntax, section names), the
// command-line overrides merged in, a strict Boost.Program_options parse of the result, then
// conversion of every value with its unit and range, cross-checks (materials, geometry) and the
// derived quantities (h, particle mass, time-step bounds, substeps).
#include "sphreverb/config/scene.hpp"

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>

#include "sphreverb/physics/dispersion.hpp"

namespace sphreverb {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxSubsteps = 1000000;

// ---- section types ------------------------------------------------------------------------------

struct SectionType {
  std::string name;  // "time", or the prefix of a named section ("material" for [material.NAME])
  bool named;        // true: the section is written [name.NAME]
  std::vector<std::string> keys;
};

const std::vector<SectionType>& section_types() {
  static const std::vector<SectionType> types = {
      {"time", false, {"sample_rate", "substeps", "duration", "cfl"}},
      {"equilibrium", false, {"energy", "max_steps", "damping"}},
      {"fluid",
       false,
       {"spacing", "h_over_dx", "rest_density", "sound_speed", "kernel", "eos", "gamma",
        "viscosity", "density_diffusion", "hyperdiffusion", "background_pressure", "skin",
        "fill_min", "fill_max", "gradient_correction"}},
      {"room",
       false,
       {"min", "max", "material", "walls", "material_x_min", "material_x_max", "material_y_min",
        "material_y_max", "material_z_min", "material_z_max"}},
      {"material", true, {"absorption", "absorption_bands", "stiffness", "damping", "mass"}},
      {"boundary", true, {"shape", "center", "normal", "size", "radius", "height", "material"}},
      {"emitter",
       false,
       {"input", "center", "normal", "radius", "deflection", "drive", "highpass", "material"}},
      {"receiver", true, {"position", "group"}},
      {"output",
       false,
       {"dir", "checkpoint_every", "keep_checkpoints", "snapshot_every", "snapshot_fields",
        "normalize", "progress_every", "lowpass", "energy"}},
  };
  return types;
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

std::string allowed_sections() {
  std::vector<std::string> names;
  for (const auto& t : section_types()) names.push_back("[" + t.name + (t.named ? ".NAME]" : "]"));
  return join(names);
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

bool is_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The type of a section name, or nullptr if the name is not one of the allowed forms.
const SectionType* classify_section(const std::string& name) {
  const auto dot = name.find('.');
  const std::string prefix = name.substr(0, dot);
  for (const auto& t : section_types()) {
    if (t.name != prefix) continue;
    if (!t.named) return dot == std::string::npos ? &t : nullptr;
    if (dot == std::string::npos) return nullptr;
    const std::string tail = name.substr(dot + 1);
    if (tail.empty() || !std::all_of(tail.begin(), tail.end(), is_name_char)) return nullptr;
    return &t;
  }
  return nullptr;
}

bool has_key(const SectionType& type, const std::string& key) {
  return std::find(type.keys.begin(), type.keys.end(), key) != type.keys.end();
}

// ---- the pre-scanned text -----------------------------------------------------------------------

struct Entry {
  std::string section;
  std::string key;
  std::string value;
  int line = 0;      // 1-based line in the file; 0 = from the command line
  std::string file;  // the included file it comes from; empty = the scene file itself
};

struct SectionInfo {
  std::string name;
  const SectionType* type = nullptr;
  int line = 0;                   // line of the [header]; 0 = created by a command-line override
  std::vector<std::string> keys;  // in order of appearance
  std::string file;               // the included file it comes from; empty = the scene file
};

struct RawScene {
  std::vector<SectionInfo> sections;     // file order, then sections created by overrides
  std::map<std::string, Entry> entries;  // dotted key -> entry
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\f\v");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\f\v");
  return s.substr(first, last - first + 1);
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string format_vec(const Vec3& v) {
  return format_number(v.x) + " " + format_number(v.y) + " " + format_number(v.z);
}

// "FILE:LINE" or "FILE (command line)".
std::string origin(const std::string& path, int line) {
  return line > 0 ? path + ":" + std::to_string(line) : path + " (command line)";
}

[[noreturn]] void fail_line(const std::string& path, int line, std::string_view text,
                            const std::string& what) {
  throw SceneError(origin(path, line) + ": " + std::string(text) + ": " + what);
}

std::string read_text_file(const fs::path& path, const std::string& what) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw SceneError(what + "no such file");
  if (fs::is_directory(path, ec)) throw SceneError(what + "it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(what + "cannot open it (permission denied?)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw SceneError(what + "error while reading it");
  return text.str();
}

// Splits the text into sections and key = value entries, checking the INI syntax. '#' starts a
// comment anywhere on a line (as in Boost.Program_options); ';' starts a comment line.
// `include = PATH` lines before the first section header read a library of [material.NAME]
// sections (PATH relative to the including file; no nested includes). `file` is empty for the
// scene file itself, else the included file's path (then `raw` already holds the scene's part).
void prescan_into(RawScene& raw, const std::string& text, const std::string& path,
                  const std::string& file) {
  const std::string& shown = file.empty() ? path : file;
  std::istringstream in(text);
  std::string line_text;
  int line = 0;
  SectionInfo* current = nullptr;
  while (std::getline(in, line_text)) {
    ++line;
    std::string_view s = line_text;
    s = s.substr(0, s.find('#'));
    s = trim(s);
    if (s.empty() || s.front() == ';') continue;
    if (s.front() == '[') {
      const auto close = s.find(']');
      if (close == std::string_view::npos) {
        fail_line(shown, line, s, "unterminated section header (expected [SECTION])");
      }
      if (!trim(s.substr(close + 1)).empty()) {
        fail_line(shown, line, s, "unexpected text after the section header");
      }
      const std::string name(trim(s.substr(1, close - 1)));
      if (name.empty()) fail_line(shown, line, s, "empty section name");
      const SectionType* type = classify_section(name);
      if (type == nullptr) {
        fail_line(shown, line, "[" + name + "]",
                  "unknown section (allowed: " + allowed_sections() +
                      "; NAME: letters, digits, '_' and '-')");
      }
      if (!file.empty() && type->name != "material") {
        fail_line(shown, line, "[" + name + "]",
                  "an included file may hold [material.NAME] sections only");
      }
      for (const auto& other : raw.sections) {
        if (other.name == name) {
          fail_line(shown, line, "[" + name + "]",
                    "section given twice (first at " +
                        (other.file.empty() && file.empty()
                             ? "line " + std::to_string(other.line)
                             : origin(other.file.empty() ? path : other.file, other.line)) +
                        ")");
        }
      }
      raw.sections.push_back({name, type, line, {}, file});
      current = &raw.sections.back();
      continue;
    }
    const auto eq = s.find('=');
    if (eq == std::string_view::npos) {
      fail_line(shown, line, s,
                "not a comment ('#' or ';'), a [section] header or a 'key = value' line");
    }
    const std::string key(trim(s.substr(0, eq)));
    const std::string value(trim(s.substr(eq + 1)));
    if (key.empty()) fail_line(shown, line, s, "missing key before '='");
    if (!std::all_of(key.begin(), key.end(), is_key_char)) {
      fail_line(shown, line, s, "bad key name (letters, digits and '_' only)");
    }
    if (current == nullptr && key == "include") {
      if (!file.empty()) fail_line(shown, line, s, "an included file may not include others");
      if (value.empty()) fail_line(shown, line, s, "empty value (expected a file path)");
      fs::path lib(value);
      if (lib.is_relative()) lib = fs::path(path).parent_path() / lib;
      const std::string where = origin(shown, line) + ": include = " + value + ": '" +
                                lib.string() + "' (relative to the scene file's directory): ";
      const std::string lib_text = read_text_file(lib, where);
      prescan_into(raw, lib_text, path, lib.string());
      // current stays nullptr: the scene's own keys still need a [section] first.
      continue;
    }
    if (current == nullptr) {
      fail_line(shown, line, s,
                file.empty() ? "key before any [section] header (only 'include = PATH' may "
                               "come first)"
                             : "key before any [section] header");
    }
    const std::string where = "[" + current->name + "] " + key + " = " + value;
    if (value.empty()) fail_line(shown, line, where, "empty value");
    const std::string dotted = current->name + "." + key;
    if (const auto it = raw.entries.find(dotted); it != raw.entries.end()) {
      fail_line(shown, line, where,
                "duplicate key (first at line " + std::to_string(it->second.line) + ")");
    }
    raw.entries.emplace(dotted, Entry{current->name, key, value, line, file});
    current->keys.push_back(key);
  }
}

RawScene prescan(const std::string& text, const std::string& path) {
  RawScene raw;
  prescan_into(raw, text, path, "");
  if (raw.sections.empty()) {
    throw SceneError(path + ": the scene file is empty (no [section] found)");
  }
  return raw;
}

// Replaces or adds entries from the command line; the key must be one a scene file may hold.
void apply_overrides(RawScene& raw, const std::map<std::string, std::string>& overrides,
                     const std::string& path) {
  for (const auto& [dotted, given] : overrides) {
    const std::string value(trim(given));
    const std::string shown = "--" + dotted + " " + given;
    const auto dot = dotted.rfind('.');
    if (dot == std::string::npos) {
      fail_line(path, 0, shown, "unknown key (expected SECTION.KEY, e.g. fluid.spacing)");
    }
    const std::string section = dotted.substr(0, dot);
    const std::string key = dotted.substr(dot + 1);
    const SectionType* type = classify_section(section);
    if (type == nullptr) {
      fail_line(path, 0, shown,
                "unknown key: no section [" + section + "] (allowed: " + allowed_sections() + ")");
    }
    if (!has_key(*type, key)) {
      fail_line(path, 0, shown,
                "unknown key (allowed in [" + section + "]: " + join(type->keys) + ")");
    }
    if (value.empty()) fail_line(path, 0, shown, "empty value");
    if (value.find_first_of("#\n\r") != std::string::npos) {
      fail_line(path, 0, shown, "a value may not contain '#' or a line break");
    }
    auto section_it = std::find_if(raw.sections.begin(), raw.sections.end(),
                                   [&](const SectionInfo& s) { return s.name == section; });
    if (section_it == raw.sections.end()) {
      raw.sections.push_back({section, type, 0, {}, {}});
      section_it = std::prev(raw.sections.end());
    }
    auto [it, inserted] = raw.entries.insert_or_assign(dotted, Entry{section, key, value, 0, {}});
    if (inserted) section_it->keys.push_back(key);
  }
}

// Builds the options_description for the sections that occur and parses the (canonicalised,
// overrides merged) scene strictly with Boost.Program_options.
po::variables_map boost_parse(const RawScene& raw, const std::string& path) {
  po::options_description desc("scene");
  std::ostringstream canonical;
  for (const auto& s : raw.sections) {
    for (const auto& key : s.type->keys) {
      desc.add_options()((s.name + "." + key).c_str(), po::value<std::string>());
    }
    canonical << '[' << s.name << "]\n";
    for (const auto& key : s.keys) {
      canonical << key << " = " << raw.entries.at(s.name + "." + key).value << '\n';
    }
  }
  std::istringstream in(canonical.str());
  po::variables_map vm;
  try {
    po::store(po::parse_config_file(in, desc, false), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    const auto it = raw.entries.find(e.get_option_name());
    if (it == raw.entries.end()) throw SceneError(path + ": " + e.what());
    const Entry& entry = it->second;
    const SectionType* type = classify_section(entry.section);
    fail_line(path, entry.line, "[" + entry.section + "] " + entry.key + " = " + entry.value,
              "unknown key (allowed in [" + entry.section + "]: " + join(type->keys) + ")");
  } catch (const po::error& e) {
    throw SceneError(path + ": " + e.what());
  }
  return vm;
}

// ---- value conversion ---------------------------------------------------------------------------

// An interval with its unit, e.g. (0, 1] m.
struct Range {
  double lo = -kInf, hi = kInf;
  bool lo_open = false, hi_open = false;
  const char* unit = "";

  bool contains(double v) const {
    return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  }
  std::string str() const {
    std::string s = std::string(lo_open ? "(" : "[") + format_number(lo) + ", " +
                    format_number(hi) + (hi_open ? ")" : "]");
    if (*unit != '\0') s += std::string(" ") + unit;
    return s;
  }
};

constexpr Range closed(double lo, double hi, const char* unit = "") {
  return {lo, hi, false, false, unit};
}
constexpr Range open_closed(double lo, double hi, const char* unit = "") {
  return {lo, hi, true, false, unit};
}

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

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

template <class E>
using Names = std::vector<std::pair<const char*, E>>;

// Reads typed values out of the Boost variables_map; messages name file, line and key.
class Reader {
 public:
  Reader(const std::string& path, const RawScene& raw, const po::variables_map& vm)
      : path_(path), raw_(raw), vm_(vm) {}

  const std::string& path() const { return path_; }

  const SectionInfo* section(const std::string& name) const {
    for (const auto& s : raw_.sections) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }
  // Named sections of one type ("receiver" -> [receiver.a], [receiver.b]) in order.
  std::vector<const SectionInfo*> sections_of(const std::string& type) const {
    std::vector<const SectionInfo*> out;
    for (const auto& s : raw_.sections) {
      if (s.type->named && s.type->name == type) out.push_back(&s);
    }
    return out;
  }

  const Entry* entry(const std::string& section, const std::string& key) const {
    const auto it = raw_.entries.find(section + "." + key);
    return it == raw_.entries.end() ? nullptr : &it->second;
  }
  bool has(const std::string& section, const std::string& key) const {
    return vm_.count(section + "." + key) > 0;
  }

  [[noreturn]] void fail(const std::string& section, const std::string& key,
                         const std::string& what) const {
    const Entry* e = entry(section, key);
    if (e == nullptr) fail_section(section, key + ": " + what);
    fail_line(e->file.empty() ? path_ : e->file, e->line,
              "[" + e->section + "] " + e->key + " = " + e->value, what);
  }
  [[noreturn]] void fail_section(const std::string& section, const std::string& what) const {
    const SectionInfo* s = this->section(section);
    if (s == nullptr) throw SceneError(path_ + ": [" + section + "] " + what);
    fail_line(s->file.empty() ? path_ : s->file, s->line, "[" + section + "]", what);
  }

  void require(const std::string& section, const std::string& key, const char* what) const {
    if (!has(section, key))
      fail_section(section, "missing required key '" + key + "' (" + what + ")");
  }

  std::optional<std::string> text(const std::string& section, const std::string& key) const {
    const std::string dotted = section + "." + key;
    if (vm_.count(dotted) == 0) return std::nullopt;
    return vm_[dotted].as<std::string>();
  }

  double to_real(const std::string& section, const std::string& key, const std::string& word,
                 const Range& range) const {
    const auto v = parse_real(word);
    if (!v) fail(section, key, "'" + word + "' is not a number (expected " + range.str() + ")");
    if (!std::isfinite(*v)) {
      fail(section, key,
           "must be a finite number (NaN and infinity are not allowed; expected " + range.str() +
               ")");
    }
    if (!range.contains(*v)) fail(section, key, "must be in " + range.str());
    return *v;
  }

  void get(const std::string& section, const std::string& key, double& out,
           const Range& range) const {
    if (const auto t = text(section, key)) out = to_real(section, key, *t, range);
  }

  void get(const std::string& section, const std::string& key, std::int64_t& out,
           const Range& range) const {
    const auto t = text(section, key);
    if (!t) return;
    const auto v = parse_integer(*t);
    if (!v) fail(section, key, "'" + *t + "' is not an integer (expected " + range.str() + ")");
    if (!range.contains(static_cast<double>(*v))) fail(section, key, "must be in " + range.str());
    out = *v;
  }

  void get(const std::string& section, const std::string& key, int& out, const Range& range) const {
    std::int64_t wide = out;
    get(section, key, wide, range);
    out = static_cast<int>(wide);  // the range keeps it within int
  }

  void get(const std::string& section, const std::string& key, Vec3& out) const {
    const auto t = text(section, key);
    if (!t) return;
    const auto words = split_words(*t);
    if (words.size() != 3) {
      fail(section, key, "expected 3 numbers (x y z, m), got " + std::to_string(words.size()));
    }
    const Range any{-kInf, kInf, true, true, "m"};
    out = {to_real(section, key, words[0], any), to_real(section, key, words[1], any),
           to_real(section, key, words[2], any)};
  }

  void get(const std::string& section, const std::string& key, bool& out) const {
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

  void get(const std::string& section, const std::string& key, std::string& out) const {
    if (const auto t = text(section, key)) out = *t;
  }

  template <class E>
  void get_enum(const std::string& section, const std::string& key, E& out,
                const Names<E>& names) const {
    const auto t = text(section, key);
    if (!t) return;
    std::vector<std::string> allowed;
    for (const auto& [name, value] : names) {
      if (*t == name) {
        out = value;
        return;
      }
      allowed.emplace_back(name);
    }
    fail(section, key, "unknown name (allowed: " + join(allowed) + ")");
  }

 private:
  const std::string& path_;
  const RawScene& raw_;
  const po::variables_map& vm_;
};

const Names<KernelKind> kKernelNames = {{"wendland_c2", KernelKind::WendlandC2},
                                        {"cubic_spline", KernelKind::CubicSpline}};
const Names<EosKind> kEosNames = {{"linear", EosKind::Linear},
                                  {"ideal_gas", EosKind::IdealGasAdiabatic}};
const Names<ShapeKind> kShapeNames = {{"rectangle", ShapeKind::Rectangle},
                                      {"disc", ShapeKind::Disc},
                                      {"cylinder", ShapeKind::Cylinder}};
const Names<GradientCorrection> kGradientNames = {
    {"none", GradientCorrection::None},
    {"first_moment", GradientCorrection::FirstMoment},
    {"fourth_order", GradientCorrection::FourthOrder}};
const Names<RoomWalls> kRoomWallNames = {
    {"auto", RoomWalls::Auto}, {"mirror", RoomWalls::Mirror}, {"tethered", RoomWalls::Tethered}};
const Names<Drive> kDriveNames = {{"displacement", Drive::Displacement},
                                  {"velocity", Drive::Velocity},
                                  {"acceleration", Drive::Acceleration}};

const Range kLength = open_closed(0.0, 1000.0, "m");

// ---- sections -----------------------------------------------------------------------------------

void read_time(const Reader& r, TimeSpec& t) {
  r.get("time", "sample_rate", t.sample_rate, closed(1000.0, 384000.0, "Hz"));
  r.get("time", "substeps", t.substeps, closed(0.0, kMaxSubsteps, "(0 = automatic)"));
  r.get("time", "duration", t.duration, open_closed(0.0, 3600.0, "s"));
  r.get("time", "cfl", t.cfl, open_closed(0.0, 1.0));
}

void read_equilibrium(const Reader& r, EquilibriumSpec& e) {
  r.get("equilibrium", "energy", e.energy, open_closed(0.0, 1e3, "J"));
  r.get("equilibrium", "max_steps", e.max_steps, closed(10.0, 1e9, "steps"));
  r.get("equilibrium", "damping", e.damping, closed(0.0, 1e7, "1/s"));
}

void read_fluid(const Reader& r, FluidSpec& f) {
  r.get("fluid", "spacing", f.spacing, open_closed(0.0, 1.0, "m"));
  r.get("fluid", "h_over_dx", f.h_over_dx, closed(1.0, 3.0));
  r.get("fluid", "rest_density", f.rest_density, open_closed(0.0, 1e4, "kg/m^3"));
  r.get("fluid", "sound_speed", f.sound_speed, open_closed(0.0, 1e4, "m/s"));
  r.get_enum("fluid", "kernel", f.kernel, kKernelNames);
  r.get_enum("fluid", "eos", f.eos, kEosNames);
  r.get("fluid", "gamma", f.gamma, closed(1.0, 3.0));
  r.get("fluid", "viscosity", f.viscosity, closed(0.0, 1.0));
  r.get("fluid", "density_diffusion", f.density_diffusion, closed(0.0, 1.0));
  r.get("fluid", "hyperdiffusion", f.hyperdiffusion, closed(0.0, 1.0));
  r.get("fluid", "background_pressure", f.background_pressure, closed(0.0, 1e7, "Pa"));
  r.get("fluid", "skin", f.skin, closed(0.01, 1.0, "x spacing"));
  r.get_enum("fluid", "gradient_correction", f.gradient_correction, kGradientNames);
}

void check_box(const Reader& r, const std::string& section, const std::string& min_key,
               const std::string& max_key, const Vec3& lo, const Vec3& hi) {
  for (int a = 0; a < 3; ++a) {
    if (!(hi[a] > lo[a])) {
      r.fail(section, max_key,
             "must exceed [" + section + "] " + min_key + " = " + format_vec(lo) +
                 " in every component (x, y, z)");
    }
  }
}

void read_room(const Reader& r, RoomSpec& room) {
  room.present = r.section("room") != nullptr;
  room.material = "rigid";
  if (!room.present) return;
  r.require("room", "min", "the room's lower corner x y z, m");
  r.require("room", "max", "the room's upper corner x y z, m");
  r.get("room", "min", room.min);
  r.get("room", "max", room.max);
  r.get("room", "material", room.material);
  for (int f = 0; f < 6; ++f) {
    room.face_material[f] = room.material;
    r.get("room", room_face_key(f), room.face_material[f]);
  }
  r.get_enum("room", "walls", room.walls, kRoomWallNames);
  check_box(r, "room", "min", "max", room.min, room.max);
}

void read_fill_box(const Reader& r, const RoomSpec& room, FluidSpec& f) {
  if (!room.present && !(r.has("fluid", "fill_min") && r.has("fluid", "fill_max"))) {
    r.fail_section("fluid",
                   "fill_min and fill_max (x y z, m) are required when there is no [room] section");
  }
  if (room.present) {
    f.fill_min = room.min;
    f.fill_max = room.max;
  }
  r.get("fluid", "fill_min", f.fill_min);
  r.get("fluid", "fill_max", f.fill_max);
  if (r.has("fluid", "fill_min") || r.has("fluid", "fill_max")) {
    const std::string max_key = r.has("fluid", "fill_max") ? "fill_max" : "fill_min";
    for (int a = 0; a < 3; ++a) {
      if (!(f.fill_max[a] > f.fill_min[a])) {
        r.fail("fluid", max_key,
               "fill box [" + format_vec(f.fill_min) + "] .. [" + format_vec(f.fill_max) +
                   "] m: fill_max must exceed fill_min in every component");
      }
    }
    if (room.present) {
      for (int a = 0; a < 3; ++a) {
        if (f.fill_min[a] < room.min[a] || f.fill_max[a] > room.max[a]) {
          r.fail("fluid", max_key,
                 "fill box [" + format_vec(f.fill_min) + "] .. [" + format_vec(f.fill_max) +
                     "] m must lie within the room [" + format_vec(room.min) + "] .. [" +
                     format_vec(room.max) + "] m");
        }
      }
    }
  }
}

// A material is rigid (absorption = 0), absorbing (absorption = alpha or absorption_bands = six
// values; the wall parameters are derived in derive()) or a spring wall (stiffness, damping, mass).
void read_materials(const Reader& r, std::vector<MaterialSpec>& materials) {
  materials.clear();
  MaterialSpec rigid;
  rigid.name = "rigid";
  materials.push_back(rigid);
  const Range kAlpha{0.0, 1.0, false, true, ""};
  for (const SectionInfo* s : r.sections_of("material")) {
    const std::string& sec = s->name;
    MaterialSpec m;
    m.name = sec.substr(sec.find('.') + 1);
    if (m.name == "rigid") {
      r.fail_section(sec, "the material 'rigid' is built in and may not be redefined");
    }
    const bool spring = r.has(sec, "stiffness") || r.has(sec, "damping") || r.has(sec, "mass");
    const bool single = r.has(sec, "absorption"), bands = r.has(sec, "absorption_bands");
    if (single && bands) {
      r.fail(sec, "absorption_bands", "give either absorption or absorption_bands, not both");
    }
    if (single || bands) {
      const char* key = single ? "absorption" : "absorption_bands";
      if (spring) {
        r.fail(sec, key,
               std::string("give either ") + key +
                   " or stiffness/damping/mass (the spring form), not both");
      }
      if (single) {
        double alpha = 0.0;
        r.get(sec, "absorption", alpha, kAlpha);
        m.absorption = {alpha};
      } else {
        const auto words = split_words(*r.text(sec, "absorption_bands"));
        if (words.size() != kOctaveBands.size()) {
          r.fail(sec, "absorption_bands",
                 "expected 6 numbers (normal-incidence alpha at 125 250 500 1000 2000 4000 Hz, "
                 "each in [0, 1)), got " +
                     std::to_string(words.size()));
        }
        for (const auto& w : words) m.absorption.push_back(r.to_real(sec, key, w, kAlpha));
      }
      m.rigid =
          std::all_of(m.absorption.begin(), m.absorption.end(), [](double a) { return a == 0.0; });
      if (m.rigid) m.absorption.clear();
    } else {
      if (!spring) {
        r.fail_section(sec,
                       "give absorption (normal-incidence alpha in [0, 1)), absorption_bands "
                       "(6 values) or stiffness (Pa/m) with optional damping (Pa s/m) and mass "
                       "(kg/m^2)");
      }
      if (!r.has(sec, "stiffness")) {
        r.fail_section(sec,
                       "missing required key 'stiffness' (Pa/m, in (0, 1e+15]); "
                       "a wall with damping or mass needs a spring too");
      }
      r.get(sec, "stiffness", m.stiffness, open_closed(0.0, 1e15, "Pa/m"));
      r.get(sec, "damping", m.damping, closed(0.0, 1e7, "Pa s/m"));
      r.get(sec, "mass", m.mass, closed(0.0, 1e4, "kg/m^2"));
      m.rigid = false;
    }
    materials.push_back(m);
  }
}

Vec3 read_normal(const Reader& r, const std::string& sec, Vec3 fallback) {
  Vec3 n = fallback;
  r.get(sec, "normal", n);
  if (!(norm(n) > 0.0)) r.fail(sec, "normal", "must not be the zero vector");
  return normalized(n);
}

void read_boundaries(const Reader& r, std::vector<BoundarySpec>& boundaries) {
  boundaries.clear();
  for (const SectionInfo* s : r.sections_of("boundary")) {
    const std::string& sec = s->name;
    BoundarySpec b;
    b.name = sec.substr(sec.find('.') + 1);
    b.material = "rigid";
    r.require(sec, "shape", "rectangle, disc or cylinder");
    r.get_enum(sec, "shape", b.shape, kShapeNames);
    std::vector<std::string> keys = {"shape", "center", "normal", "material"};
    switch (b.shape) {
      case ShapeKind::Rectangle:
        keys.emplace_back("size");
        break;
      case ShapeKind::Disc:
        keys.emplace_back("radius");
        break;
      case ShapeKind::Cylinder:
        keys.emplace_back("radius");
        keys.emplace_back("height");
        break;
    }
    for (const auto& key : s->keys) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        r.fail(sec, key,
               std::string("not a key of shape '") + to_string(b.shape) +
                   "' (allowed: " + join(keys) + ")");
      }
    }
    r.require(sec, "center", "x y z, m");
    r.require(sec, "normal", "x y z, non-zero");
    for (const auto& key : keys) {
      if (key == "size") r.require(sec, key, "W H, m");
      if (key == "radius" || key == "height") r.require(sec, key, "m, (0, 1000]");
    }
    r.get(sec, "center", b.center);
    b.normal = read_normal(r, sec, {});
    if (const auto size = r.text(sec, "size")) {
      const auto words = split_words(*size);
      if (words.size() != 2) {
        r.fail(sec, "size", "expected 2 numbers (W H, m), got " + std::to_string(words.size()));
      }
      b.width = r.to_real(sec, "size", words[0], kLength);
      b.height = r.to_real(sec, "size", words[1], kLength);
    }
    r.get(sec, "radius", b.radius, kLength);
    r.get(sec, "height", b.height, kLength);
    r.get(sec, "material", b.material);
    boundaries.push_back(b);
  }
}

void read_emitter(const Reader& r, EmitterSpec& e) {
  if (r.section("emitter") == nullptr) {
    throw SceneError(r.path() + ": no [emitter] section (required: input, center)");
  }
  r.require("emitter", "input", "impulse, sweep or a WAV path relative to the scene file");
  r.require("emitter", "center", "x y z, m");
  r.get("emitter", "input", e.input);
  r.get("emitter", "center", e.center);
  e.normal = read_normal(r, "emitter", e.normal);
  r.get("emitter", "radius", e.radius, open_closed(0.0, 10.0, "m"));
  r.get("emitter", "deflection", e.deflection, open_closed(0.0, 0.1, "m"));
  r.get_enum("emitter", "drive", e.drive, kDriveNames);
  r.get("emitter", "highpass", e.highpass, closed(0.0, 1000.0, "Hz"));
  // A = k fs^2 s moves the disc by ~k fs / (e w_c) after an impulse (129 k at 44.1 kHz, 20 Hz):
  // the acceleration drive's default k keeps that at ~1 um.
  if (e.drive == Drive::Acceleration && !r.has("emitter", "deflection"))
    e.deflection = EmitterSpec::kAccelerationDeflection;
  r.get("emitter", "material", e.material);

  e.builtin = e.input == "impulse" || e.input == "sweep";
  if (!e.builtin) {
    fs::path wav(e.input);
    if (wav.is_relative()) wav = fs::path(r.path()).parent_path() / wav;
    std::error_code ec;
    const bool regular = fs::is_regular_file(wav, ec);
    if (!fs::exists(wav, ec)) {
      r.fail("emitter", "input",
             "WAV file '" + wav.string() +
                 "' does not exist (relative paths are resolved "
                 "against the scene file's directory; built-in inputs: impulse, sweep)");
    }
    if (!regular || !std::ifstream(wav, std::ios::binary)) {
      r.fail("emitter", "input", "WAV file '" + wav.string() + "' is not a readable file");
    }
    e.input = wav.string();
  }
}

void read_receivers(const Reader& r, std::vector<ReceiverSpec>& receivers) {
  receivers.clear();
  for (const SectionInfo* s : r.sections_of("receiver")) {
    ReceiverSpec rec;
    rec.name = s->name.substr(s->name.find('.') + 1);
    r.require(s->name, "position", "x y z, m");
    r.get(s->name, "position", rec.position);
    r.get(s->name, "group", rec.group);
    if (!rec.group.empty() && !std::all_of(rec.group.begin(), rec.group.end(), is_name_char))
      r.fail(s->name, "group", "bad group name (letters, digits, '_' and '-' only)");
    receivers.push_back(rec);
  }
  // A group writes GROUP.wav, so it must not share a name with a receiver's file.
  for (const auto& rec : receivers) {
    for (const auto& other : receivers) {
      if (!rec.group.empty() && rec.group == other.name)
        r.fail("receiver." + rec.name, "group",
               "group name '" + rec.group + "' is also a receiver's name (both would write " +
                   rec.group + ".wav)");
    }
  }
  if (receivers.empty()) {
    throw SceneError(r.path() +
                     ": no [receiver.NAME] section; at least one receiver (position = x y z) "
                     "is required");
  }
}

void read_output(const Reader& r, OutputSpec& o) {
  r.get("output", "dir", o.dir);
  r.get("output", "checkpoint_every", o.checkpoint_every, closed(0.0, 3600.0, "s"));
  r.get("output", "keep_checkpoints", o.keep_checkpoints, closed(1.0, 1e6));
  r.get("output", "snapshot_every", o.snapshot_every, closed(0.0, 3600.0, "s"));
  if (const auto t = r.text("output", "snapshot_fields")) {
    o.snapshot_fields.clear();
    for (const std::string& w : split_words(*t)) {
      if (std::find(kSnapshotFieldNames.begin(), kSnapshotFieldNames.end(), w) ==
          kSnapshotFieldNames.end()) {
        std::vector<std::string> allowed(kSnapshotFieldNames.begin(), kSnapshotFieldNames.end());
        r.fail("output", "snapshot_fields",
               "unknown field '" + w + "' (allowed: " + join(allowed) + ")");
      }
      if (std::find(o.snapshot_fields.begin(), o.snapshot_fields.end(), w) !=
          o.snapshot_fields.end())
        r.fail("output", "snapshot_fields", "field '" + w + "' is listed twice");
      o.snapshot_fields.push_back(w);
    }
  }
  r.get("output", "normalize", o.normalize);
  r.get("output", "progress_every", o.progress_every, closed(0.1, 3600.0, "s"));
  r.get("output", "lowpass", o.lowpass);
  r.get("output", "energy", o.energy);
}

// ---- cross-checks and derived quantities --------------------------------------------------------

struct MaterialUse {
  std::string section, key, name;
};

std::vector<MaterialUse> material_uses(const Scene& s) {
  std::vector<MaterialUse> uses;
  if (s.room.present) {
    uses.push_back({"room", "material", s.room.material});
    for (int f = 0; f < 6; ++f) uses.push_back({"room", room_face_key(f), s.room.face_material[f]});
  }
  for (const auto& b : s.boundaries) uses.push_back({"boundary." + b.name, "material", b.material});
  uses.push_back({"emitter", "material", s.emitter.material});
  return uses;
}

void check_materials(const Reader& r, const Scene& s) {
  std::vector<std::string> names;
  for (const auto& m : s.materials) names.push_back(m.name);
  for (const auto& use : material_uses(s)) {
    if (std::find(names.begin(), names.end(), use.name) == names.end()) {
      r.fail(use.section, use.key,
             "unknown material (defined: " + join(names) + "; add a [material." + use.name +
                 "] section)");
    }
  }
}

void check_fill_box(const Reader& r, const Scene& s) {
  const FluidSpec& f = s.fluid;
  const double need = 2.0 * s.derived.halo_width;
  const bool explicit_fill = r.has("fluid", "fill_min") || r.has("fluid", "fill_max");
  const char* axes[] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const double side = f.fill_max[a] - f.fill_min[a];
    if (side >= need) continue;
    const std::string what =
        "room/fill box is thinner than 2 x halo_width = " + format_number(need) + " m along " +
        axes[a] + " (side " + format_number(side) +
        " m; halo_width = 2 h + skin at [fluid] spacing = " + format_number(f.spacing) +
        " m); enlarge the box or reduce [fluid] spacing";
    if (explicit_fill) {
      r.fail("fluid", r.has("fluid", "fill_max") ? "fill_max" : "fill_min", what);
    }
    r.fail("room", "max", what);
  }
}

// `p` must be inside the fill box, at least dx/2 from every face.
void check_in_air(const Reader& r, const Scene& s, const std::string& section,
                  const std::string& key, const Vec3& p) {
  const double margin = 0.5 * s.fluid.spacing;
  for (int a = 0; a < 3; ++a) {
    if (p[a] - s.fluid.fill_min[a] >= margin && s.fluid.fill_max[a] - p[a] >= margin) continue;
    r.fail(section, key,
           "must lie in the air: inside the fill box [" + format_vec(s.fluid.fill_min) + "] .. [" +
               format_vec(s.fluid.fill_max) + "] m ([fluid] fill_min/fill_max, default [room] " +
               "min/max) and at least dx/2 = " + format_number(margin) + " m from its faces");
  }
}

void derive(const Reader& r, Scene& s) {
  const FluidSpec& f = s.fluid;
  Derived& d = s.derived;
  const double dx = f.spacing;
  d.h = f.h_over_dx * dx;
  d.support = 2.0 * d.h;
  d.skin = f.skin * dx;
  d.halo_width = d.support + d.skin;
  d.particle_mass = f.rest_density * dx * dx * dx;
  d.dt_cfl = s.time.cfl * d.h / f.sound_speed;
  // A wall spring k (Pa/m) acts on the air column rho0 dx behind unit area: omega^2 = k/(rho0 dx).
  // Rigid walls get the stiffness whose bound 0.5/omega equals dt_cfl.
  const double areal_mass = f.rest_density * dx;
  d.rigid_stiffness = areal_mass * std::pow(0.5 / d.dt_cfl, 2);
  // Absorbing materials: the wall per unit area from alpha (material.hpp), shared among the n_t
  // tethered layers; the layers' own mass n_t rho0 dx is part of the wall's moving mass.
  const int layers = tethered_layers(f.h_over_dx);
  const double layer_mass = layers * f.rest_density * dx;
  const double rho_c = f.rest_density * f.sound_speed;
  for (auto& m : s.materials) {
    if (m.rigid) {
      m.stiffness = d.rigid_stiffness;
    } else if (m.absorption.size() == 1) {
      m.impedance = wall_for_absorption(m.absorption[0], rho_c, layer_mass);
    } else if (m.absorption.size() == kOctaveBands.size()) {
      std::array<double, 6> bands{};
      std::copy(m.absorption.begin(), m.absorption.end(), bands.begin());
      const BandFit fit = fit_bands(bands, rho_c, layer_mass, 0.5 / (2.0 * M_PI * d.dt_cfl));
      m.impedance = fit.wall;
      m.fit_rms = fit.rms_error;
    }
    if (!m.rigid && !m.absorption.empty()) {
      m.stiffness = m.impedance.stiffness / layers;
      m.damping = m.impedance.resistance / layers;
      m.mass = std::max(0.0, m.impedance.mass - layer_mass) / layers;
    }
  }

  // The room's walls: mirror particles for a rigid or resistive (one broadband alpha) material,
  // else force walls. A resistive mirror wall is Z = R alone (no layer mass, no spring: the ghost
  // images sit on the geometric face), so it absorbs alpha at every frequency.
  if (s.room.present) {
    const auto mirrorable = [&](const MaterialSpec& m) {
      return m.rigid || m.absorption.size() == 1;
    };
    for (int face = 0; face < 6; ++face) {
      const MaterialSpec& m = s.material(s.room.face_material[face]);
      if (s.room.walls == RoomWalls::Mirror && !mirrorable(m))
        r.fail("room", "walls",
               "mirror walls need rigid materials or one broadband `absorption`; material '" +
                   m.name + "' (" + room_face_key(face) +
                   ") is given by absorption_bands or stiffness/damping (use tethered or auto)");
    }
    d.mirror_room = s.room.walls == RoomWalls::Mirror;
    if (s.room.walls == RoomWalls::Auto) {
      d.mirror_room = true;
      for (const std::string& name : s.room.face_material)
        d.mirror_room = d.mirror_room && mirrorable(s.material(name));
    }
    for (int face = 0; face < 6 && d.mirror_room; ++face) {
      const MaterialSpec& m = s.material(s.room.face_material[face]);
      d.room_admittance[face] = m.rigid ? 0.0 : 1.0 / m.impedance.resistance;
    }
  }

  d.dt_wall = kInf;
  for (const auto& use : material_uses(s)) {
    const MaterialSpec& m = s.material(use.name);
    if (m.rigid || (use.section == "room" && d.mirror_room)) continue;
    // The damper is integrated implicitly (boundary.hpp) and sets no bound; the spring acts on
    // the tethered particle's areal mass plus the material's added mass.
    const double omega = std::sqrt(m.stiffness / (areal_mass + m.mass));
    if (omega > 0.0) d.dt_wall = std::min(d.dt_wall, 0.5 / omega);
  }
  const double dt_bound = std::min(d.dt_cfl, d.dt_wall);
  const double rate = s.time.sample_rate;
  // Smallest n with 1/(rate n) <= dt_bound (a relative tolerance of 1e-12 absorbs rounding).
  const auto fits = [&](double n) { return 1.0 / (rate * n) <= dt_bound * (1.0 + 1e-12); };
  double needed = std::max(1.0, std::ceil(1.0 / (rate * dt_bound)));
  while (needed > 1.0 && fits(needed - 1.0)) needed -= 1.0;
  while (!fits(needed)) needed += 1.0;
  const std::string bound_text =
      "dt <= " + format_number(dt_bound) + " s (" +
      (d.dt_wall < d.dt_cfl ? "stiffest wall material" : "CFL bound C h / c") + ")";
  if (needed > kMaxSubsteps) {
    r.fail("time", "substeps",
           "the stability bound " + bound_text + " needs " + format_number(needed) +
               " substeps per sample, more than " + std::to_string(kMaxSubsteps));
  }
  if (s.time.substeps == 0) {
    d.substeps = static_cast<int>(needed);
  } else {
    if (!fits(s.time.substeps)) {
      r.fail("time", "substeps",
             "too few for the stability bound " + bound_text + " at sample_rate " +
                 format_number(rate) + " Hz: at least " + format_number(needed) +
                 " needed (or 0 for automatic)");
    }
    d.substeps = s.time.substeps;
  }
  d.dt = 1.0 / (rate * d.substeps);
  d.samples = std::llround(s.time.duration * rate);
  if (d.samples < 1) {
    r.fail("time", "duration",
           "shorter than one sample at sample_rate " + format_number(rate) + " Hz");
  }
  d.steps = d.samples * d.substeps;
  if (f.hyperdiffusion > 0.0) {
    // Forward Euler every n steps on the fastest mode, eps c lambda_max^2 / dx: rate x n dt <= 1
    // (stable to 2).
    const double lam = laplacian_symbol_max(f.kernel, f.h_over_dx);
    const double interval = kHyperdiffusionEvery * d.dt;
    const double eps_max = dx / (f.sound_speed * lam * lam * interval);
    if (f.hyperdiffusion > eps_max)
      r.fail("fluid", "hyperdiffusion",
             "unstable at dt = " + format_number(d.dt) + " s: at most " + format_number(eps_max) +
                 " (the zone-corner rate eps c lambda^2 / dx, lambda = " + format_number(lam) +
                 " / dx^2, times the filter's interval " + std::to_string(kHyperdiffusionEvery) +
                 " dt must stay below 1)");
  }
  if (f.gradient_correction == GradientCorrection::FourthOrder && f.h_over_dx <= 1.0 + 1e-9) {
    r.fail("fluid", "gradient_correction",
           "fourth_order needs h_over_dx > 1 (the support 2h must reach the second lattice "
           "neighbour along an axis); use first_moment at h_over_dx = " +
               format_number(f.h_over_dx));
  }
  d.ppw_min = ppw_for_phase_error(f.gradient_correction, f.kernel, f.h_over_dx, kFmaxPhaseError);
  d.f_max_bulk = f.sound_speed / (d.ppw_min * dx);
  // Every scene has a force wall: the emitter's disc is one.
  d.f_max_walls = f.sound_speed / (kForceWallPpw * dx);
  d.f_max = std::min(d.f_max_bulk, d.f_max_walls);
}

}  // namespace

// ---- public interface ---------------------------------------------------------------------------

const MaterialSpec& Scene::material(const std::string& name) const {
  for (const auto& m : materials) {
    if (m.name == name) return m;
  }
  throw SceneError(path + ": unknown material '" + name + "'");
}

Scene parse_scene(const std::string& text, const std::string& path,
                  const std::map<std::string, std::string>& overrides) {
  if (trim(text).empty()) throw SceneError(path + ": the scene file is empty");
  RawScene raw = prescan(text, path);
  apply_overrides(raw, overrides, path);
  const po::variables_map vm = boost_parse(raw, path);
  const Reader r(path, raw, vm);

  Scene s;
  s.path = path;
  s.text = text;
  s.overrides = overrides;
  read_time(r, s.time);
  read_equilibrium(r, s.equilibrium);
  read_fluid(r, s.fluid);
  read_room(r, s.room);
  read_fill_box(r, s.room, s.fluid);
  read_materials(r, s.materials);
  read_boundaries(r, s.boundaries);
  read_emitter(r, s.emitter);
  read_receivers(r, s.receivers);
  read_output(r, s.output);

  check_materials(r, s);
  derive(r, s);
  check_fill_box(r, s);
  for (const auto& rec : s.receivers)
    check_in_air(r, s, "receiver." + rec.name, "position", rec.position);
  check_in_air(r, s, "emitter", "center", s.emitter.center);
  return s;
}

Scene load_scene(const std::string& path, const std::map<std::string, std::string>& overrides) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw SceneError(path + ": cannot open the scene file: no such file");
  if (fs::is_directory(path, ec)) {
    throw SceneError(path + ": cannot read the scene file: it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path + ": cannot open the scene file (permission denied?)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw SceneError(path + ": error while reading the scene file");
  return parse_scene(text.str(), path, overrides);
}

namespace {
// The file name of an enumerator, from the same table the parser reads names with.
template <class E>
const char* name_of(const Names<E>& names, E value) {
  for (const auto& [name, v] : names)
    if (v == value) return name;
  return "?";
}
}  // namespace

const char* to_string(KernelKind k) { return name_of(kKernelNames, k); }
const char* to_string(EosKind k) { return name_of(kEosNames, k); }
const char* to_string(ShapeKind k) { return name_of(kShapeNames, k); }
const char* to_string(Drive k) { return name_of(kDriveNames, k); }
const char* to_string(GradientCorrection k) { return name_of(kGradientNames, k); }
const char* to_string(RoomWalls k) { return name_of(kRoomWallNames, k); }
std::string room_face_key(int face) {
  static const char* const kKeys[6] = {"material_x_min", "material_x_max", "material_y_min",
                                       "material_y_max", "material_z_min", "material_z_max"};
  return kKeys[face];
}

}  // namespace sphreverb
