// The scene's key schema: every key of a scene file is one row (section, key, type, unit, range,
// default, one line of doc). The rows drive the unknown-key check, the range checks and their
// messages, the conversion of values in the readers (scene.cpp), and the reference page that
// `sphreverb keys` prints (docs/scene-reference.md is that output).
#pragma once

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sphreverb/physics/eos.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/lattice_gradient.hpp"

namespace sphreverb {

enum class ShapeKind;
enum class RoomWalls;
enum class Drive;
enum class ReceiverType;
enum class SourceType;
enum class PathInterpolation;
enum class GeometryRole;
enum class BoundaryWall;

// An interval with its unit, e.g. (0, 1] m.
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = true, hi_open = true;
  const char* unit = "";

  bool contains(double v) const {
    return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  }
  // "(0, 1] m"
  std::string str() const;
};

enum class KeyType {
  Number,  // a finite real in `range`
  Int,     // an integer in `range`
  Vector,  // "x y z", three finite reals
  String,  // free text (a name)
  Enum,    // one of `names`
  Path,    // a file path (or a built-in name listed in `names`)
  Bool,    // true/false, yes/no, on/off, 1/0
  List,    // `count` words (0: any count), reals in `range`, or names from `names`
};

struct KeySpec {
  std::string section;  // "fluid", or "receiver.NAME" for a named section
  std::string key;
  KeyType type = KeyType::Number;
  Range range;                     // Number, Int, List of reals (unit also for Vector)
  std::vector<std::string> names;  // Enum, Path (built-in names), List of names
  int count = 0;                   // List: the number of words (0 = any)
  std::string default_value;       // literal default the parser applies ("" = none)
  std::string default_note;        // the default in words when it is not a literal
  std::string doc;                 // one line
};

struct SectionSpec {
  std::string name;  // "time", or the prefix of a named section ("material" for [material.NAME])
  bool named = false;
  std::string doc;
  std::vector<std::string> keys;  // in schema order
};

// Every key, in the order of the reference.
const std::vector<KeySpec>& scene_schema();
// The section types, in the order of the reference; keys from scene_schema().
const std::vector<SectionSpec>& scene_sections();
// The type of a section name ("receiver.left" -> receiver), or nullptr if the name is not one of
// the allowed forms (NAME: letters, digits, '_' and '-').
const SectionSpec* classify_section(const std::string& name);
// The row of `key` in a section of type `type`, or nullptr.
const KeySpec* find_key(const SectionSpec& type, const std::string& key);
// "[time], [fluid], ..., [receiver.NAME], ...".
std::string allowed_sections();
// "type" column of the reference: "number", "int", "vector", ...
const char* to_string(KeyType);

// The reference page (Markdown) generated from the schema: `sphreverb keys`.
std::string scene_reference_markdown();

// The names a file uses for enumerators, in the order the reference lists them.
template <class E>
using Names = std::vector<std::pair<const char*, E>>;
const Names<KernelKind>& kernel_names();
const Names<EosKind>& eos_names();
const Names<ShapeKind>& shape_names();
const Names<GradientCorrection>& gradient_names();
const Names<RoomWalls>& room_wall_names();
const Names<Drive>& drive_names();
const Names<ReceiverType>& receiver_type_names();
const Names<SourceType>& source_type_names();
const Names<PathInterpolation>& interpolation_names();
const Names<GeometryRole>& geometry_role_names();
const Names<BoundaryWall>& boundary_wall_names();

// The longest scene or included file read, bytes.
inline constexpr long long kMaxSceneFileBytes = 16LL * 1024 * 1024;

}  // namespace sphreverb
