// Scene reading: the lexed INI text (ini.hpp) converted section by section into the spec
// structs, each value as its schema row says (schema.hpp, detail/reader.hpp), then the checks
// across keys and the derived quantities (derived.cpp, checks.cpp).
#include "sphreverb/config/scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "detail/passes.hpp"
#include "detail/reader.hpp"
#include "sphreverb/config/ini.hpp"
#include "sphreverb/config/schema.hpp"
#include "sphreverb/model/mesh_check.hpp"
#include "sphreverb/physics/dispersion.hpp"
#include "sphreverb/physics/reverberation.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;
using config_detail::format_number;
using config_detail::format_vec;
using config_detail::join;
using config_detail::Reader;
using config_detail::split_words;

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

// ---- sections -----------------------------------------------------------------------------------

void read_time(const Reader& r, TimeSpec& t) {
  r.get("time", "sample_rate", t.sample_rate);
  r.get("time", "substeps", t.substeps);
  r.get("time", "duration", t.duration);
  r.get("time", "cfl", t.cfl);
}

void read_equilibrium(const Reader& r, EquilibriumSpec& e) {
  r.get("equilibrium", "energy", e.energy);
  r.get("equilibrium", "max_steps", e.max_steps);
  r.get("equilibrium", "damping", e.damping);
}

void read_fluid(const Reader& r, FluidSpec& f) {
  r.get("fluid", "spacing", f.spacing);
  r.get("fluid", "h_over_dx", f.h_over_dx);
  r.get("fluid", "rest_density", f.rest_density);
  r.get("fluid", "sound_speed", f.sound_speed);
  r.get_enum("fluid", "kernel", f.kernel, kernel_names());
  r.get_enum("fluid", "eos", f.eos, eos_names());
  r.get("fluid", "gamma", f.gamma);
  r.get("fluid", "viscosity", f.viscosity);
  r.get("fluid", "density_diffusion", f.density_diffusion);
  r.get("fluid", "hyperdiffusion", f.hyperdiffusion);
  // A number, or `auto` (the default): the solver decides from the scene's walls.
  const auto hyper = r.text("fluid", "hyperviscosity");
  f.hyperviscosity_auto = hyper && *hyper == "auto";
  if (hyper && !f.hyperviscosity_auto) {
    char* end = nullptr;
    std::strtod(hyper->c_str(), &end);
    if (end == hyper->c_str() || *end != '\0')
      r.fail("fluid", "hyperviscosity",
             "'" + *hyper + "' is neither `auto` nor a number (expected auto or " +
                 r.spec("fluid", "hyperviscosity").range.str() + ")");
    r.get("fluid", "hyperviscosity", f.hyperviscosity);
  }
  r.get("fluid", "shifting", f.shifting);
  r.get("fluid", "background_pressure", f.background_pressure);
  r.get("fluid", "skin", f.skin);
  r.get_enum("fluid", "gradient_correction", f.gradient_correction, gradient_names());
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
  r.get_enum("room", "walls", room.walls, room_wall_names());
  check_box(r, "room", "min", "max", room.min, room.max);
}

void read_fill_box(const Reader& r, const RoomSpec& room, FluidSpec& f,
                   const std::optional<std::pair<Vec3, Vec3>>& room_mesh) {
  if (!room.present && !room_mesh && !(r.has("fluid", "fill_min") && r.has("fluid", "fill_max"))) {
    r.fail_section("fluid",
                   "fill_min and fill_max (x y z, m) are required when there is no [room] section "
                   "and no room mesh ([geometry.NAME] role = room)");
  }
  if (room.present) {
    f.fill_min = room.min;
    f.fill_max = room.max;
  } else if (room_mesh) {  // the room mesh's bounding box
    f.fill_min = room_mesh->first;
    f.fill_max = room_mesh->second;
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
// An absorbing one is one description for both parts: given only absorption_octaves (random
// incidence, the geometric part's), the SPH's normal-incidence bands follow here (Paris;
// reverberation.hpp); given only absorption or absorption_bands, the geometric part follows
// from them where it is built (the same wall's real impedance); both given, each part takes its
// own.
void read_materials(const Reader& r, std::vector<MaterialSpec>& materials) {
  materials.clear();
  MaterialSpec rigid;
  rigid.name = "rigid";
  materials.push_back(rigid);
  const Range& kAlpha = r.spec("material.x", "absorption_bands").range;
  constexpr std::size_t kOctaves = 7;  // absorption_octaves: 125 Hz ... 8 kHz
  for (const IniSection* s : r.sections_of("material")) {
    const std::string& sec = s->name;
    MaterialSpec m;
    m.name = sec.substr(sec.find('.') + 1);
    if (m.name == "rigid") {
      r.fail_section(sec, "the material 'rigid' is built in and may not be redefined");
    }
    const bool spring = r.has(sec, "stiffness") || r.has(sec, "damping") || r.has(sec, "mass");
    const bool single = r.has(sec, "absorption"), bands = r.has(sec, "absorption_bands");
    r.get(sec, "scattering", m.scattering);
    if (const auto t = r.text(sec, "absorption_octaves")) {
      const auto words = split_words(*t);
      if (words.size() != kOctaves) {
        r.fail(sec, "absorption_octaves",
               "expected 7 numbers (random-incidence alpha at 125 250 500 1000 2000 4000 8000 "
               "Hz, each in [0, 1]), got " +
                   std::to_string(words.size()));
      }
      const Range& range = r.spec("material.x", "absorption_octaves").range;
      for (const auto& w : words)
        m.absorption_octaves.push_back(r.to_real(sec, "absorption_octaves", w, range));
    }
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
        r.get(sec, "absorption", alpha);
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
      // Without absorption_octaves the geometric part follows from these bands where it is
      // built (make_geo_material, solver/hybrid_assembly.hpp): each band's real impedance
      // (hard branch), reflected at each angle, its random-incidence alpha_st Paris'; 8 kHz
      // takes the 4 kHz band. Filling absorption_octaves here would turn that angle-dependent
      // wall into angle-independent table values, so they stay empty.
      m.rigid =
          std::all_of(m.absorption.begin(), m.absorption.end(), [](double a) { return a == 0.0; });
      if (m.rigid) m.absorption.clear();
    } else if (!m.absorption_octaves.empty() && !spring) {
      // Random-incidence octaves only: the SPH's normal-incidence bands (125 Hz ... 4 kHz) are
      // those of the locally reacting wall with the real impedance that has each octave's
      // alpha_st (Paris, the hard branch zeta >= 1.6); 8 kHz lies above the bands.
      for (std::size_t b = 0; b < kOctaveBands.size(); ++b)
        m.absorption.push_back(normal_incidence_absorption(m.absorption_octaves[b]));
      m.rigid =
          std::all_of(m.absorption.begin(), m.absorption.end(), [](double a) { return a == 0.0; });
      if (m.rigid) m.absorption.clear();
    } else {
      if (!spring) {
        r.fail_section(sec,
                       "give absorption (normal-incidence alpha in [0, 1)), absorption_bands "
                       "(6 values), absorption_octaves (7 random-incidence values) or stiffness "
                       "(Pa/m) with optional damping (Pa s/m) and mass (kg/m^2)");
      }
      if (!r.has(sec, "stiffness")) {
        r.fail_section(sec,
                       "missing required key 'stiffness' (Pa/m, in (0, 1e+15]); "
                       "a wall with damping or mass needs a spring too");
      }
      r.get(sec, "stiffness", m.stiffness);
      r.get(sec, "damping", m.damping);
      r.get(sec, "mass", m.mass);
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

std::vector<Keyframe> read_path(const Reader& r, const std::string& sec);
std::vector<AngleKeyframe> read_rotation(const Reader& r, const std::string& sec,
                                         const std::string& key = "rotation");

void read_boundaries(const Reader& r, std::vector<BoundarySpec>& boundaries) {
  boundaries.clear();
  for (const IniSection* s : r.sections_of("boundary")) {
    const std::string& sec = s->name;
    BoundarySpec b;
    b.name = sec.substr(sec.find('.') + 1);
    b.material = "rigid";
    r.require(sec, "shape", "rectangle, disc or cylinder");
    r.get_enum(sec, "shape", b.shape, shape_names());
    std::vector<std::string> keys = {"shape",    "center", "normal", "material",      "path",
                                     "rotation", "axis",   "pivot",  "interpolation", "wall"};
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
    r.get_enum(sec, "interpolation", b.interpolation, interpolation_names());
    b.path = read_path(r, sec);
    if (b.path.empty()) r.require(sec, "center", "x y z, m; or a path");
    r.require(sec, "normal", "x y z, non-zero");
    for (const auto& key : keys) {
      if (key == "size") r.require(sec, key, "W H, m");
      if (key == "radius" || key == "height") r.require(sec, key, "m, (0, 1000]");
    }
    if (b.path.empty()) {
      r.get(sec, "center", b.center);
    } else {
      b.center = b.path.front().x;
      Vec3 given = b.center;
      r.get(sec, "center", given);
      if (!(given == b.center)) r.fail(sec, "center", "differs from the path's first keyframe");
    }
    b.normal = read_normal(r, sec, {});
    if (const auto size = r.text(sec, "size")) {
      const auto words = split_words(*size);
      if (words.size() != 2) {
        r.fail(sec, "size", "expected 2 numbers (W H, m), got " + std::to_string(words.size()));
      }
      const Range& kLength = r.spec(sec, "size").range;
      b.width = r.to_real(sec, "size", words[0], kLength);
      b.height = r.to_real(sec, "size", words[1], kLength);
    }
    r.get(sec, "radius", b.radius);
    r.get(sec, "height", b.height);
    r.get(sec, "material", b.material);
    b.rotation = read_rotation(r, sec);
    if (!b.rotation.empty()) {
      r.require(sec, "axis", "x y z, non-zero: the axis the object turns about");
      r.get(sec, "axis", b.axis);
      if (!(norm(b.axis) > 0.0)) r.fail(sec, "axis", "must not be the zero vector");
      b.axis = normalized(b.axis);
      b.pivot = b.center;
      r.get(sec, "pivot", b.pivot);
    } else {
      for (const char* key : {"axis", "pivot"})
        if (r.text(sec, key)) r.fail(sec, key, "only with a rotation ('t angle; t angle; ...')");
    }
    r.get_enum(sec, "wall", b.wall_key, boundary_wall_names());
    if (b.wall_key == BoundaryWall::Ghost && (b.path.size() > 1 || b.rotation.size() > 1))
      r.fail(sec, "wall",
             "a moving object (path, rotation) is a tethered force wall: wall = tethered");
    boundaries.push_back(b);
  }
}

// The motion keys of [geometry.NAME] (path, turn, turn_axis, turn_pivot, interpolation): an
// object mesh may move; a room mesh may not.
void read_geometry_motion(const Reader& r, std::vector<GeometrySpec>& geometries) {
  for (GeometrySpec& g : geometries) {
    const std::string sec = "geometry." + g.name;
    if (g.role == GeometryRole::Room) {
      for (const char* key : {"path", "turn", "turn_axis", "turn_pivot", "interpolation"})
        if (r.has(sec, key))
          r.fail(sec, key,
                 "a room mesh (role = room) cannot move: only role = object meshes take a "
                 "path or a turn");
      continue;
    }
    r.get_enum(sec, "interpolation", g.interpolation, interpolation_names());
    g.path = read_path(r, sec);
    g.turn = read_rotation(r, sec, "turn");
    const MeshFacts f = mesh_facts(*g.mesh);
    g.turn_pivot = 0.5 * (f.min + f.max);
    if (!g.turn.empty()) {
      r.require(sec, "turn_axis", "x y z, non-zero: the axis the object turns about");
      r.get(sec, "turn_axis", g.turn_axis);
      if (!(norm(g.turn_axis) > 0.0)) r.fail(sec, "turn_axis", "must not be the zero vector");
      g.turn_axis = normalized(g.turn_axis);
      r.get(sec, "turn_pivot", g.turn_pivot);
    } else {
      for (const char* key : {"turn_axis", "turn_pivot"})
        if (r.has(sec, key)) r.fail(sec, key, "only with a turn ('t angle; t angle; ...')");
    }
  }
}

// A built-in input name, or a WAV path made absolute (relative to the scene file) and checked to
// be a readable file. Returns true for a built-in.
bool resolve_input(const Reader& r, const std::string& sec, std::string& input) {
  if (input == "impulse" || input == "sweep") return true;
  fs::path wav(input);
  if (wav.is_relative()) wav = fs::path(r.path()).parent_path() / wav;
  std::error_code ec;
  const bool regular = fs::is_regular_file(wav, ec);
  if (!fs::exists(wav, ec)) {
    r.fail(sec, "input",
           "WAV file '" + wav.string() +
               "' does not exist (relative paths are resolved "
               "against the scene file's directory; built-in inputs: impulse, sweep)");
  }
  if (!regular || !std::ifstream(wav, std::ios::binary)) {
    r.fail(sec, "input", "WAV file '" + wav.string() + "' is not a readable file");
  }
  input = wav.string();
  return false;
}

void read_emitter(const Reader& r, EmitterSpec& e) {
  if (r.section("emitter") == nullptr) {  // no disc: [emitter.NAME] sources (read_sources)
    e.present = false;
    e.radius = 0.0;
    e.gain = 0.0;
    return;
  }
  r.require("emitter", "input", "impulse, sweep or a WAV path relative to the scene file");
  r.require("emitter", "center", "x y z, m");
  r.get("emitter", "input", e.input);
  r.get("emitter", "center", e.center);
  e.normal = read_normal(r, "emitter", e.normal);
  r.get("emitter", "radius", e.radius);
  r.get("emitter", "deflection", e.deflection);
  r.get_enum("emitter", "drive", e.drive, drive_names());
  r.get("emitter", "highpass", e.highpass);
  // A = k fs^2 s moves the disc by ~k fs / (e w_c) after an impulse (129 k at 44.1 kHz, 20 Hz):
  // the acceleration drive's default k keeps that at ~1 um.
  if (e.drive == Drive::Acceleration && !r.has("emitter", "deflection"))
    e.deflection = EmitterSpec::kAccelerationDeflection;
  r.get("emitter", "material", e.material);
  r.get("emitter", "gain", e.gain);
  e.builtin = resolve_input(r, "emitter", e.input);
}

// `key = t v1 ... vn; t v1 ... vn; ...`: keyframes of n values each with strictly increasing
// times >= 0 (s); `form` names them for the messages (e.g. "'t x y z' (s, m)"), `example` is
// the list's shape (e.g. "'t x y z; t x y z; ...'"). Empty when the key is not given.
std::vector<std::pair<double, std::vector<double>>> read_keyframes(
    const Reader& r, const std::string& sec, const std::string& key, std::size_t n,
    const std::string& form, const std::string& example) {
  std::vector<std::pair<double, std::vector<double>>> keys;
  std::string text;
  r.get(sec, key, text);
  if (text.empty()) return keys;
  std::istringstream groups(text);
  std::string group;
  const Range any{-HUGE_VAL, HUGE_VAL, true, true, ""};
  while (std::getline(groups, group, ';')) {
    const std::string where = "keyframe " + std::to_string(keys.size() + 1);
    std::istringstream words(group);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty() && keys.size() > 0 && groups.eof()) break;  // a trailing ';'
    if (w.size() != n + 1)
      r.fail(sec, key,
             where + " '" + std::string(config_detail::trim(group)) + "': needs " +
                 std::to_string(n + 1) + " numbers " + form + ", keyframes separated by ';'");
    const double t = r.to_real(sec, key, w[0], any);
    if (t < 0.0) r.fail(sec, key, where + ": time " + w[0] + " s is negative");
    if (!keys.empty() && !(t > keys.back().first))
      r.fail(sec, key,
             where + ": time " + w[0] + " s is not after keyframe " + std::to_string(keys.size()) +
                 "'s " + format_number(keys.back().first) + " s (times must increase)");
    std::vector<double> values;
    for (std::size_t a = 0; a < n; ++a) values.push_back(r.to_real(sec, key, w[1 + a], any));
    keys.emplace_back(t, std::move(values));
  }
  if (keys.empty()) r.fail(sec, key, "no keyframe (" + example + ")");
  return keys;
}

// "t x y z; t x y z; ...": keyframes with strictly increasing times >= 0 (s) and positions (m).
// Where they lie (in the air, off the surfaces) and how fast they move is checked with the
// geometry (checks.cpp).
std::vector<Keyframe> read_path(const Reader& r, const std::string& sec) {
  std::vector<Keyframe> keys;
  for (const auto& [t, x] :
       read_keyframes(r, sec, "path", 3, "'t x y z' (s, m)", "'t x y z; t x y z; ...'"))
    keys.push_back(Keyframe{t, Vec3{x[0], x[1], x[2]}});
  return keys;
}

// `KEY = t angle; t angle; ...` (s, degrees; KEY rotation, or turn of [geometry]), in radians.
std::vector<AngleKeyframe> read_rotation(const Reader& r, const std::string& sec,
                                         const std::string& key) {
  std::vector<AngleKeyframe> keys;
  for (const auto& [t, a] :
       read_keyframes(r, sec, key, 1, "'t angle' (s, degrees)", "'t angle; t angle; ...'"))
    keys.push_back(AngleKeyframe{t, a[0] * (M_PI / 180.0)});
  return keys;
}

void read_sources(const Reader& r, std::vector<SourceSpec>& sources) {
  sources.clear();
  for (const IniSection* s : r.sections_of("emitter")) {
    SourceSpec src;
    const std::string& sec = s->name;
    src.name = sec.substr(sec.find('.') + 1);
    r.get_enum(sec, "type", src.type, source_type_names());
    r.get(sec, "input", src.input);
    src.builtin = resolve_input(r, sec, src.input);
    r.get(sec, "gain", src.gain);
    r.get(sec, "level", src.level);
    r.get(sec, "width", src.width);
    r.get(sec, "highpass", src.highpass);
    r.get_enum(sec, "interpolation", src.interpolation, interpolation_names());
    src.path = read_path(r, sec);
    if (src.path.empty()) {
      r.require(sec, "position", "x y z, m; or a path");
      Keyframe k;
      r.get(sec, "position", k.x);
      src.path.push_back(k);
    } else if (r.has(sec, "position")) {
      r.fail(sec, "position", "give position or path, not both");
    }
    sources.push_back(src);
  }
}

void read_receivers(const Reader& r, std::vector<ReceiverSpec>& receivers) {
  receivers.clear();
  for (const IniSection* s : r.sections_of("receiver")) {
    ReceiverSpec rec;
    rec.name = s->name.substr(s->name.find('.') + 1);
    r.get_enum(s->name, "interpolation", rec.interpolation, interpolation_names());
    rec.path = read_path(r, s->name);
    if (rec.path.empty()) {
      r.require(s->name, "position", "x y z, m; or a path");
      r.get(s->name, "position", rec.position);
    } else {
      rec.position = rec.path.front().x;
      Vec3 given = rec.position;
      r.get(s->name, "position", given);
      if (!(given == rec.position))
        r.fail(s->name, "position", "differs from the path's first keyframe");
    }
    r.get(s->name, "group", rec.group);
    r.get_enum(s->name, "type", rec.type, receiver_type_names());
    r.get(s->name, "binaural", rec.binaural);
    if (rec.path.size() > 1 && rec.type != ReceiverType::Omni)
      r.fail(s->name, "path", "a moving receiver must be of type omni");
    if (rec.binaural && rec.type != ReceiverType::Ambisonic)
      r.fail(s->name, "binaural", "needs type = ambisonic (the decode starts from B-format)");
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
  r.get("output", "checkpoint_every", o.checkpoint_every);
  r.get("output", "keep_checkpoints", o.keep_checkpoints);
  r.get("output", "snapshot_every", o.snapshot_every);
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
  r.get("output", "progress_every", o.progress_every);
  r.get("output", "lowpass", o.lowpass);
  r.get("output", "highpass", o.highpass);
  r.get("output", "energy", o.energy);
  r.get("output", "hrtf", o.hrtf);
  if (!o.hrtf.empty()) {  // relative to the scene file, like [emitter] input
    fs::path sofa(o.hrtf);
    if (sofa.is_relative()) sofa = fs::path(r.path()).parent_path() / sofa;
    std::error_code ec;
    if (!fs::is_regular_file(sofa, ec))
      r.fail("output", "hrtf", "SOFA file '" + sofa.string() + "' is not a readable file");
    o.hrtf = sofa.string();
  }
}

// Whether a wall the air touches absorbs: a non-rigid material on a [room] face, a [boundary]
// shape or a [geometry] surface.
bool has_absorbing_walls(const Scene& s) {
  const auto absorbs = [&](const std::string& name) {
    for (const auto& m : s.materials)
      if (m.name == name) return !m.rigid;
    return false;
  };
  if (s.room.present)
    for (const std::string& m : s.room.face_material)
      if (absorbs(m)) return true;
  for (const auto& b : s.boundaries)
    if (absorbs(b.material)) return true;
  for (const auto& g : s.geometries)
    for (const std::string& m : g.surface_material)
      if (absorbs(m)) return true;
  return false;
}

// A [hybrid] key whose default is `auto` (kept as 0 in HybridSpec): `auto` leaves `out` at 0; a
// number must lie in the row's range, and 0 is refused (it is no crossover or radius: `auto` is
// the spelling of the default).
void read_auto(const Reader& r, const std::string& key, double& out) {
  const auto t = r.text("hybrid", key);
  if (!t || *t == "auto") {
    out = 0.0;
    return;
  }
  const KeySpec& row = r.spec("hybrid", key);
  char* end = nullptr;
  const double zero = std::strtod(t->c_str(), &end);
  if (end != t->c_str() && *end == '\0' && zero == 0.0)
    r.fail("hybrid", key,
           "0 is not allowed: must be in " + row.range.str() + ", or `auto` (the default)");
  out = r.to_real("hybrid", key, *t, row.range);
}

// [hybrid], after derive(): the crossover needs f_max.
void read_hybrid(const Reader& r, Scene& s) {
  HybridSpec& h = s.hybrid;
  h.present = r.section("hybrid") != nullptr;
  if (!h.present) return;
  read_auto(r, "crossover", h.crossover);
  r.get("hybrid", "rays", h.rays);
  r.get("hybrid", "image_time", h.image_time);
  r.get("hybrid", "image_order", h.image_order);
  r.get("hybrid", "phased_images", h.phased_images);
  r.get("hybrid", "phased_limit", h.phased_limit);
  r.get("hybrid", "scattering", h.scattering);
  read_auto(r, "receiver_radius", h.receiver_radius);
  r.get("hybrid", "seed", h.seed);
  r.get("hybrid", "air_absorption", h.air_absorption);
  r.get("hybrid", "temperature", h.temperature);
  r.get("hybrid", "humidity", h.humidity);
  r.get("hybrid", "pressure", h.pressure);
  const double f_max = s.derived.f_max;
  const double limit = std::min(f_max, 0.2 * s.time.sample_rate);
  // The default: 0.7 of the band the SPH part is right in: f_max (the air's, or the force walls'
  // where there are force walls), and c / (kForceWallPpw dx) where a wall absorbs: absorbing
  // walls are measured to about c / (22 dx) (V6), and above that the SPH room's decay is not its
  // walls' (docs/theory/geometric.md, "The crossover and the calibration").
  const double walls_band = s.fluid.sound_speed / (kForceWallPpw * s.fluid.spacing);
  const bool absorbing = has_absorbing_walls(s);
  if (h.crossover == 0.0) {
    const double band = absorbing ? std::min(limit, walls_band) : limit;
    h.crossover = kDefaultCrossover * band;
    h.crossover_basis =
        band == walls_band ? "0.7 c/(20 dx), the band absorbing walls are measured in"
        : band == f_max    ? (std::isfinite(s.derived.f_max_walls) && f_max == s.derived.f_max_walls
                                  ? "0.7 f_max, the force walls' limit"
                                  : "0.7 f_max, the air's")
                           : "0.7 of 0.2 sample_rate";
  } else {
    h.crossover_basis = "given";
  }
  if (h.phased_limit < 0.0) h.phased_limit = kPhasedLimitOverCrossover * h.crossover;
  const double record = static_cast<double>(s.derived.samples) / s.time.sample_rate;
  const double least = crossover_floor(record);
  if (!(h.crossover >= least && h.crossover <= limit)) {
    r.fail("hybrid", "crossover",
           "must be in [" + format_number(least) + ", " + format_number(limit) + "] Hz (at least " +
               format_number(kCrossoverPeriods) + " period(s) within the " + format_number(record) +
               " s record, so that the crossover filters and the overlap octave's calibration "
               "see the band; at most f_max = " +
               format_number(f_max) + " Hz and 0.2 sample_rate), or `auto`");
  }
  if (!s.room.present && s.boundaries.empty() && s.geometries.empty()) {
    r.fail_section("hybrid",
                   "the geometric part needs surfaces: a [room] box, [geometry.NAME] meshes or "
                   "[boundary.NAME] sections");
  }
  // The geometric part models a fixed scene driven by impulses: refuse what it cannot model
  // rather than model another scene than the SPH part's.
  const std::string impulse =
      "a scene with [hybrid] joins impulse responses: the input must be impulse";
  const std::string fixed =
      "the geometric part of [hybrid] models a fixed scene: sources, receivers and objects "
      "cannot move";
  if (s.emitter.present && s.emitter.gain > 0.0 && s.emitter.input != "impulse")
    r.fail("emitter", "input", impulse);
  for (const SourceSpec& src : s.sources) {
    if (src.input != "impulse") r.fail("emitter." + src.name, "input", impulse);
    if (src.path.size() > 1) r.fail("emitter." + src.name, "path", fixed);
  }
  for (const ReceiverSpec& rec : s.receivers)
    if (rec.path.size() > 1) r.fail("receiver." + rec.name, "path", fixed);
  for (const BoundarySpec& b : s.boundaries) {
    if (b.path.size() > 1) r.fail("boundary." + b.name, "path", fixed);
    if (b.rotation.size() > 1) r.fail("boundary." + b.name, "rotation", fixed);
  }
  for (const GeometrySpec& g : s.geometries) {
    if (g.path.size() > 1) r.fail("geometry." + g.name, "path", fixed);
    if (g.turn.size() > 1) r.fail("geometry." + g.name, "turn", fixed);
  }
}

}  // namespace

const MaterialSpec& Scene::material(const std::string& name) const {
  for (const auto& m : materials) {
    if (m.name == name) return m;
  }
  throw SceneError(path + ": unknown material '" + name + "'");
}

Scene parse_scene(const std::string& text, const std::string& path,
                  const std::map<std::string, std::string>& overrides) {
  if (config_detail::trim(text).empty()) throw SceneError(path + ": the scene file is empty");
  IniScene ini = lex_scene(text, path);
  apply_overrides(ini, overrides, path);
  const Reader r(path, ini);

  Scene s;
  s.path = path;
  s.text = text;
  s.overrides = overrides;
  read_time(r, s.time);
  read_equilibrium(r, s.equilibrium);
  read_fluid(r, s.fluid);
  read_room(r, s.room);
  config_detail::read_geometries(r, s);
  read_geometry_motion(r, s.geometries);
  read_fill_box(r, s.room, s.fluid, config_detail::room_mesh_box(s));
  read_materials(r, s.materials);
  read_boundaries(r, s.boundaries);
  read_emitter(r, s.emitter);
  read_sources(r, s.sources);
  if (!s.emitter.present && s.sources.empty()) {
    throw SceneError(r.path() +
                     ": no source: no [emitter] section (the disc; required: input, center) and "
                     "no [emitter.NAME] section (a monopole)");
  }
  read_receivers(r, s.receivers);
  read_output(r, s.output);
  // The output high-pass runs at the output rate, below the anti-alias cut-off (0.45 rate).
  if (s.output.highpass >= 0.4 * s.time.sample_rate)
    r.fail("output", "highpass",
           "must be below 0.4 sample_rate = " + format_number(0.4 * s.time.sample_rate) + " Hz");

  config_detail::check_materials(r, s);
  config_detail::resolve_boundary_walls(s);
  config_detail::assign_geometry_materials(r, s);
  config_detail::place_emitter(r, s);
  config_detail::derive(r, s);
  read_hybrid(r, s);
  config_detail::check_fill_box(r, s);
  config_detail::check_geometry(r, s);
  config_detail::check_objects_in_room(r, s);
  config_detail::check_in_mesh_air(r, s);
  config_detail::check_fill_box_closed(r, s);
  return s;
}

Scene load_scene(const std::string& path, const std::map<std::string, std::string>& overrides) {
  return parse_scene(read_scene_text(path, path + ": cannot open the scene file: "), path,
                     overrides);
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

const char* to_string(KernelKind k) { return name_of(kernel_names(), k); }
const char* to_string(EosKind k) { return name_of(eos_names(), k); }
const char* to_string(ShapeKind k) { return name_of(shape_names(), k); }
const char* to_string(Drive k) { return name_of(drive_names(), k); }
const char* to_string(GradientCorrection k) { return name_of(gradient_names(), k); }
const char* to_string(RoomWalls k) { return name_of(room_wall_names(), k); }
const char* to_string(SourceType k) { return name_of(source_type_names(), k); }
const char* to_string(PathInterpolation k) { return name_of(interpolation_names(), k); }
const char* to_string(GeometryRole k) { return name_of(geometry_role_names(), k); }
const char* to_string(BoundaryWall k) { return name_of(boundary_wall_names(), k); }
std::string room_face_key(int face) {
  static const char* const kKeys[6] = {"material_x_min", "material_x_max", "material_y_min",
                                       "material_y_max", "material_z_min", "material_z_max"};
  return kKeys[face];
}

}  // namespace sphreverb
