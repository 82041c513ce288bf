// The key schema of the scene (schema.hpp): one row per key, and the reference page printed from
// it. Units and ranges here are the ones the readers check; the docs are one line each.
#include "sphreverb/config/schema.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "detail/text.hpp"
#include "sphreverb/config/scene.hpp"

namespace sphreverb {

using config_detail::format_number;
using config_detail::join;

std::string Range::str() const {
  std::string s = std::string(lo_open ? "(" : "[") + format_number(lo) + ", " + format_number(hi) +
                  (hi_open ? ")" : "]");
  if (*unit != '\0') s += std::string(" ") + unit;
  return s;
}

const Names<KernelKind>& kernel_names() {
  static const Names<KernelKind> n = {{"wendland_c2", KernelKind::WendlandC2},
                                      {"cubic_spline", KernelKind::CubicSpline}};
  return n;
}
const Names<EosKind>& eos_names() {
  static const Names<EosKind> n = {{"linear", EosKind::Linear},
                                   {"ideal_gas", EosKind::IdealGasAdiabatic}};
  return n;
}
const Names<ShapeKind>& shape_names() {
  static const Names<ShapeKind> n = {{"rectangle", ShapeKind::Rectangle},
                                     {"disc", ShapeKind::Disc},
                                     {"cylinder", ShapeKind::Cylinder}};
  return n;
}
const Names<GradientCorrection>& gradient_names() {
  static const Names<GradientCorrection> n = {{"none", GradientCorrection::None},
                                              {"first_moment", GradientCorrection::FirstMoment},
                                              {"fourth_order", GradientCorrection::FourthOrder}};
  return n;
}
const Names<RoomWalls>& room_wall_names() {
  static const Names<RoomWalls> n = {{"auto", RoomWalls::Auto},
                                     {"mirror", RoomWalls::Mirror},
                                     {"ghost", RoomWalls::Ghost},
                                     {"tethered", RoomWalls::Tethered}};
  return n;
}
const Names<ReceiverType>& receiver_type_names() {
  static const Names<ReceiverType> n = {{"omni", ReceiverType::Omni},
                                        {"ambisonic", ReceiverType::Ambisonic}};
  return n;
}
const Names<SourceType>& source_type_names() {
  static const Names<SourceType> n = {{"monopole", SourceType::Monopole}};
  return n;
}
const Names<PathInterpolation>& interpolation_names() {
  static const Names<PathInterpolation> n = {{"linear", PathInterpolation::Linear},
                                             {"smooth", PathInterpolation::Smooth}};
  return n;
}
const Names<BoundaryWall>& boundary_wall_names() {
  static const Names<BoundaryWall> n = {{"auto", BoundaryWall::Auto},
                                        {"tethered", BoundaryWall::Tethered},
                                        {"ghost", BoundaryWall::Ghost}};
  return n;
}
const Names<GeometryRole>& geometry_role_names() {
  static const Names<GeometryRole> n = {{"room", GeometryRole::Room},
                                        {"object", GeometryRole::Object}};
  return n;
}
const Names<Drive>& drive_names() {
  static const Names<Drive> n = {{"displacement", Drive::Displacement},
                                 {"velocity", Drive::Velocity},
                                 {"acceleration", Drive::Acceleration}};
  return n;
}

namespace {

template <class E>
std::vector<std::string> words_of(const Names<E>& names) {
  std::vector<std::string> out;
  for (const auto& [name, value] : names) out.emplace_back(name);
  return out;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr Range closed(double lo, double hi, const char* unit = "") {
  return {lo, hi, false, false, unit};
}
constexpr Range open_closed(double lo, double hi, const char* unit = "") {
  return {lo, hi, true, false, unit};
}
constexpr Range closed_open(double lo, double hi, const char* unit = "") {
  return {lo, hi, false, true, unit};
}
constexpr Range any_real(const char* unit = "") { return {-kInf, kInf, true, true, unit}; }

// Row builders; `dflt` is a literal the parser applies, `note` the default in words.
KeySpec number(std::string sec, std::string key, Range r, std::string dflt, std::string doc) {
  return {std::move(sec), std::move(key), KeyType::Number, r, {}, 0, std::move(dflt), "",
          std::move(doc)};
}
KeySpec integer(std::string sec, std::string key, Range r, std::string dflt, std::string doc) {
  return {std::move(sec), std::move(key), KeyType::Int, r, {}, 0, std::move(dflt), "",
          std::move(doc)};
}
KeySpec vector(std::string sec, std::string key, const char* unit, std::string dflt,
               std::string note, std::string doc) {
  return {std::move(sec),  std::move(key),  KeyType::Vector, any_real(unit), {}, 3,
          std::move(dflt), std::move(note), std::move(doc)};
}
KeySpec text(std::string sec, std::string key, std::string dflt, std::string note,
             std::string doc) {
  return {std::move(sec),  std::move(key),  KeyType::String, {}, {}, 0,
          std::move(dflt), std::move(note), std::move(doc)};
}
KeySpec choice(std::string sec, std::string key, std::vector<std::string> names, std::string dflt,
               std::string doc) {
  std::string note = dflt.empty() ? "required" : "";
  return {std::move(sec),  std::move(key),  KeyType::Enum, {}, std::move(names), 0,
          std::move(dflt), std::move(note), std::move(doc)};
}
KeySpec boolean(std::string sec, std::string key, std::string dflt, std::string doc) {
  return {std::move(sec), std::move(key), KeyType::Bool, {}, {}, 0, std::move(dflt), "",
          std::move(doc)};
}
KeySpec required(KeySpec k) {
  k.default_value.clear();
  k.default_note = "required";
  return k;
}
KeySpec note(KeySpec k, std::string text) {
  k.default_value.clear();
  k.default_note = std::move(text);
  return k;
}

const std::string kMaterialRef = "`rigid` or the NAME of a [material.NAME]";

std::vector<KeySpec> make_schema() {
  std::vector<KeySpec> k;
  // [time]
  k.push_back(integer("time", "sample_rate", closed(1000, 384000, "Hz"), "44100",
                      "Output (and input) audio rate, a whole number of Hz"));
  k.push_back(integer("time", "substeps", closed(0, 1000000, "steps/sample"), "0",
                      "Time steps per audio sample; 0 = the smallest count the stability bound "
                      "allows (a count that breaks it is an error naming the minimum)"));
  k.push_back(number("time", "duration", open_closed(0, 3600, "s"), "0.05",
                     "Simulated time of stage 2 (the recording); at least one sample"));
  k.push_back(number("time", "cfl", open_closed(0, 1), "0.3", "Courant number C in dt <= C h / c"));
  // [equilibrium]
  k.push_back(number("equilibrium", "energy", open_closed(0, 1e3, "J"), "1e-5",
                     "Stage 1 (settling the lattice) ends when the kinetic energy 1/2 sum m v^2 "
                     "drops below this"));
  k.push_back(integer("equilibrium", "max_steps", closed(10, 1e9, "steps"), "20000",
                      "Step limit of stage 1; reaching it is an error"));
  k.push_back(number("equilibrium", "damping", closed(0, 1e7, "1/s"), "2000",
                     "Velocity relaxation rate, applied in stage 1 only"));
  // [fluid]
  k.push_back(number("fluid", "spacing", open_closed(0, 1, "m"), "0.015",
                     "Lattice spacing dx of the air particles"));
  k.push_back(
      number("fluid", "h_over_dx", closed(1, 3), "1.3", "Smoothing length h as a multiple of dx"));
  k.push_back(number("fluid", "rest_density", open_closed(0, 1e4, "kg/m^3"), "1.204",
                     "Rest density rho0 of the air"));
  k.push_back(
      number("fluid", "sound_speed", open_closed(0, 1e4, "m/s"), "343", "Speed of sound c0"));
  k.push_back(
      choice("fluid", "kernel", words_of(kernel_names()), "wendland_c2", "Smoothing kernel"));
  k.push_back(choice("fluid", "eos", words_of(eos_names()), "linear", "Equation of state"));
  k.push_back(
      number("fluid", "gamma", closed(1, 3), "1.4", "Adiabatic index, used by eos = ideal_gas"));
  k.push_back(number("fluid", "viscosity", closed(0, 1), "0",
                     "Monaghan artificial-viscosity alpha; 0 turns it off"));
  k.push_back(number("fluid", "density_diffusion", closed(0, 1), "0",
                     "delta of the delta-SPH density diffusion (Molteni & Colagrossi 2009); 0 "
                     "turns it off; it damps the audible band ~k^2: prefer hyperdiffusion"));
  k.push_back(number("fluid", "hyperdiffusion", closed(0, 1), "0.002",
                     "eps of the density hyperdiffusion -eps c dx^3 L(L(rho)), applied every 8 "
                     "steps: removes the lattice's short-wave branch; eps c lambda^2 / dx * 8 dt "
                     "must stay <= 1 (`check` names the maximum)"));
  k.push_back(number("fluid", "hyperviscosity", closed(0, 1), "auto",
                     "eps of the same filter on the velocity, -eps c dx^3 L(L(v)), applied with "
                     "the density's; 0 turns it off. `auto`: 0.005 where hard walls oblique to "
                     "the lattice would make the air's energy grow (the condition `check` "
                     "reports them under), else off; it keeps them bounded at the cost of a "
                     "small absorption at them (docs/limitations.md); same limit as "
                     "hyperdiffusion"));
  k.push_back(number("fluid", "shifting", closed(0, 10), "0",
                     "A of the particle shifting dr = -A h v dt grad C (v the speed; Lind et al. "
                     "2012), each step, for particles faster than 1 mm/s that no wall holds; 0 "
                     "turns it off. 2 keeps the air ahead of a moving object from piling up "
                     "(docs/limitations.md); it costs one more pair loop over the moving air"));
  k.push_back(number("fluid", "background_pressure", closed(0, 1e7, "Pa"), "0",
                     "Pressure added to p in the momentum equation"));
  k.push_back(number("fluid", "skin", closed(0.01, 1, "dx"), "0.2",
                     "Verlet-list skin as a fraction of dx"));
  k.push_back(choice("fluid", "gradient_correction", words_of(gradient_names()), "fourth_order",
                     "Kernel gradient of the pressure and continuity terms: first_moment makes "
                     "the divergence of a linear field exact, fourth_order also cancels the third "
                     "moment (needs h_over_dx > 1)"));
  k.push_back(vector("fluid", "fill_min", "m", "", "[room] min",
                     "Lower corner of the box the lattice fills, inside the room; required "
                     "without a [room]"));
  k.push_back(vector("fluid", "fill_max", "m", "", "[room] max",
                     "Upper corner of that box, > fill_min on every axis; required without a "
                     "[room]"));
  // [room]
  k.push_back(required(vector("room", "min", "m", "", "", "Lower corner of the room")));
  k.push_back(required(
      vector("room", "max", "m", "", "", "Upper corner of the room, > min on every axis")));
  k.push_back(text("room", "material", "rigid", "", "Material of the six faces: " + kMaterialRef));
  k.push_back(choice(
      "room", "walls", words_of(room_wall_names()), "auto",
      "How the faces are built: mirror ghost particles (rigid, resistive for one "
      "broadband absorption, reacting for absorption_bands; exact where every face lies dx/2 "
      "beyond the lattice), ghost walls of the box as a mesh (the same materials, any offset to "
      "the lattice), tethered force walls (any material); auto = mirror where every face lies "
      "dx/2 beyond the lattice, else ghost, and tethered if a face's material is given by "
      "stiffness/damping"));
  for (int f = 0; f < 6; ++f) {
    k.push_back(text("room", room_face_key(f), "", "`material`",
                     "Material of one face (" + room_face_key(f).substr(9) +
                         "), e.g. a carpet "
                         "floor: " +
                         kMaterialRef));
  }
  // [material.NAME]
  const std::string mat = "material.NAME";
  k.push_back(note(number(mat, "absorption", closed_open(0, 1), "",
                          "Normal-incidence absorption coefficient alpha at all frequencies; 0 "
                          "= rigid"),
                   "none"));
  KeySpec bands = note(number(mat, "absorption_bands", closed_open(0, 1), "",
                              "Normal-incidence alpha in the octave bands 125 250 500 1000 2000 "
                              "4000 Hz, fitted by one mass-spring-damper wall; all zero = rigid. "
                              "Given absorption_octaves alone: each band is the normal-incidence "
                              "alpha of the locally reacting wall whose real impedance (zeta >= "
                              "1.6) has that octave's random-incidence alpha (Paris)"),
                       "from absorption_octaves, else none");
  bands.type = KeyType::List;
  bands.count = 6;
  k.push_back(bands);
  k.push_back(note(number(mat, "stiffness", open_closed(0, 1e15, "Pa/m"), "",
                          "Normal spring per unit wall area (the spring form; required there)"),
                   "none"));
  k.push_back(number(mat, "damping", closed(0, 1e7, "Pa s/m"), "0",
                     "Normal damper per unit wall area (rayl), spring form"));
  k.push_back(number(mat, "mass", closed(0, 1e4, "kg/m^2"), "0",
                     "Added areal mass of the tethered air layer (a panel's mass), spring form"));
  // [boundary.NAME]
  const std::string bnd = "boundary.NAME";
  k.push_back(choice(bnd, "shape", words_of(shape_names()), "", "Shape of the surface"));
  k.push_back(note(vector(bnd, "center", "m", "", "", "Centre point (at t = 0 if it moves)"),
                   "required unless path is given"));
  k.push_back(required(vector(bnd, "normal", "", "", "",
                              "Surface normal, non-zero (normalised); cylinder: the axis")));
  KeySpec size = note(number(bnd, "size", open_closed(0, 1000, "m"), "",
                             "Rectangle: W H, W along u = normalised(normal x ref) and H along v "
                             "= normal x u (ref = z, or x if |normal.z| > 0.9). For a normal "
                             "along an axis: W runs along y on a wall facing x (H along z), "
                             "along x on a wall facing y (H along z), and along y on a floor or "
                             "ceiling (H along x). `check` refuses a fill box whose faces the "
                             "walls leave open"),
                      "rectangle: required");
  size.type = KeyType::List;
  size.count = 2;
  k.push_back(size);
  k.push_back(note(number(bnd, "radius", open_closed(0, 1000, "m"), "", "Disc and cylinder radius"),
                   "disc, cylinder: required"));
  k.push_back(note(
      number(bnd, "height", open_closed(0, 1000, "m"), "", "Cylinder: its length along the axis"),
      "cylinder: required"));
  k.push_back(text(bnd, "material", "rigid", "", "Material of the surface: " + kMaterialRef));
  k.push_back(text(bnd, "path", "", "none",
                   "Keyframes 't x y z; t x y z; ...' (s of stage 2, m) of the centre: a moving "
                   "object (translated, walking speeds; at most 0.3 c), inside the fill box"));
  k.push_back(text(bnd, "rotation", "", "none",
                   "Keyframes 't angle; t angle; ...' (s of stage 2, degrees) of a turn about "
                   "`axis` through `pivot` (a door on its hinge); the shape as written is its "
                   "pose at the first keyframe; its fastest surface point at most 0.3 c"));
  k.push_back(note(vector(bnd, "axis", "", "", "",
                          "Axis of the rotation, non-zero (normalised; right-hand rule)"),
                   "required with rotation"));
  k.push_back(note(vector(bnd, "pivot", "m", "", "",
                          "A point of the rotation's axis (the hinge), at the first keyframe's "
                          "pose; moves with the path"),
                   "`center`"));
  k.push_back(choice(bnd, "interpolation", words_of(interpolation_names()), "linear",
                     "Between keyframes of path and rotation: linear, or smooth (as "
                     "[emitter.NAME] interpolation)"));
  k.push_back(choice(bnd, "wall", words_of(boundary_wall_names()), "auto",
                     "ghost: fixed ghost particles with the solid behind the surface (exact, "
                     "edges shared with other ghost shapes do not leak; fixed; rigid, broadband "
                     "absorption or absorption_bands, a reacting wall); tethered: a force wall "
                     "(any material, may move; approximate, leaks where shapes meet); auto: "
                     "ghost for a fixed shape with such a material that is a cylinder or a "
                     "rectangle/disc closing the air (no fill-box air behind it), else tethered; "
                     "`check` prints each shape's choice"));
  // [geometry.NAME]
  const std::string geo = "geometry.NAME";
  KeySpec mesh = text(geo, "mesh", "", "required",
                      "Triangle mesh file (OBJ, STL, PLY, glTF, ...: what Assimp reads), relative "
                      "to the scene file's directory; closed and consistently oriented");
  mesh.type = KeyType::Path;
  k.push_back(mesh);
  k.push_back(choice(geo, "units", {"m", "cm", "mm", "in"}, "m", "Unit of the file's numbers"));
  k.push_back(number(geo, "scale", open_closed(0, 1e6), "1", "Further factor on the coordinates"));
  k.push_back(vector(geo, "rotation", "deg", "0 0 0", "",
                     "Euler angles x y z about the fixed axes, first x, then y, then z "
                     "(R = Rz Ry Rx), about the file's origin after scaling"));
  k.push_back(vector(geo, "rotation_axis", "", "", "none",
                     "Axis of a rotation by rotation_angle (right-hand rule), applied after "
                     "`rotation`"));
  k.push_back(number(geo, "rotation_angle", closed(-360, 360, "deg"), "0",
                     "Angle of the rotation about rotation_axis"));
  k.push_back(vector(geo, "translation", "m", "0 0 0", "", "Added after scaling and rotation"));
  k.push_back(choice(geo, "role", words_of(geometry_role_names()), "",
                     "room: air inside the mesh; object: solid inside, air around it"));
  k.push_back(text(geo, "material", "", "none",
                   "Material of every surface not named by a material.GROUP key: " + kMaterialRef));
  k.push_back(text(geo, "material.GROUP", "", "`material`",
                   "Material of the mesh surface GROUP (its material, group or object name in "
                   "the file): " +
                       kMaterialRef));
  k.push_back(
      text(geo, "path", "", "none",
           "role = object: keyframes 't x y z; t x y z; ...' (s of stage 2, m) of a "
           "reference point, the mesh as placed being its pose at the first one: a "
           "moving object (a tethered force wall, as [boundary.NAME] path; at most 0.3 c)"));
  k.push_back(text(geo, "turn", "", "none",
                   "role = object: keyframes 't angle; t angle; ...' (s of stage 2, degrees) of a "
                   "turn about `turn_axis` through `turn_pivot` (as [boundary.NAME] rotation); the "
                   "mesh as placed is its pose at the first keyframe"));
  k.push_back(note(vector(geo, "turn_axis", "", "", "",
                          "Axis of the turn, non-zero (normalised; right-hand rule)"),
                   "required with turn"));
  k.push_back(note(vector(geo, "turn_pivot", "m", "", "",
                          "A point of the turn's axis, at the first keyframe's pose; moves with "
                          "the path"),
                   "centre of the mesh's bounding box"));
  k.push_back(choice(geo, "interpolation", words_of(interpolation_names()), "linear",
                     "Between keyframes of path and turn: linear, or smooth"));
  // [emitter]
  KeySpec input = text("emitter", "input", "", "required",
                       "The signal: impulse (a single-sample click), sweep (an exponential sine "
                       "sweep) or a WAV path, relative to the scene file's directory");
  input.type = KeyType::Path;
  input.names = {"impulse", "sweep"};
  k.push_back(input);
  k.push_back(required(
      vector("emitter", "center", "m", "", "", "Rest position of the disc centre, in the air")));
  k.push_back(vector("emitter", "normal", "", "1 0 0", "",
                     "Direction the disc moves in, non-zero (normalised)"));
  k.push_back(number("emitter", "radius", open_closed(0, 10, "m"), "0.025",
                     "Disc radius; the disc must fit in the room"));
  k.push_back(note(number("emitter", "deflection", open_closed(0, 0.1, "m"), "",
                          "k in x = k s (displacement), V = k fs s (velocity) or A = k fs^2 s "
                          "(acceleration drive), s the input in [-1, 1]"),
                   "1e-5; 1e-8 with drive = acceleration"));
  k.push_back(choice("emitter", "drive", words_of(drive_names()), "acceleration",
                     "What the input drives; acceleration radiates a flat spectrum from a disc "
                     "on a wall"));
  k.push_back(number("emitter", "highpass", closed(0, 1000, "Hz"), "20",
                     "acceleration only: corner of the drive's 2nd-order high-pass (the disc "
                     "returns to rest); 0 = plain double integration"));
  k.push_back(
      text("emitter", "material", "rigid", "", "Wall material of the disc: " + kMaterialRef));
  k.push_back(number("emitter", "gain", closed(0, 1000), "1",
                     "The input is scaled by it (0: the disc stays as a silent rigid surface)"));
  // [emitter.NAME]
  const std::string src = "emitter.NAME";
  k.push_back(choice(src, "type", words_of(source_type_names()), "monopole",
                     "monopole: a point source in the air, a Gaussian-weighted mass source in the "
                     "continuity equation (docs/theory/emitter-receivers.md)"));
  KeySpec src_input = input;
  src_input.section = src;
  src_input.default_value = "impulse";
  src_input.default_note.clear();
  src_input.doc = "The source's own signal: impulse, sweep or a WAV path (relative to the scene)";
  k.push_back(src_input);
  k.push_back(
      note(vector(src, "position", "m", "", "", "Where the source is, in the air (a fixed source)"),
           "required unless path is given"));
  KeySpec path = text(src, "path", "", "none",
                      "Keyframes 't x y z; t x y z; ...' (s of stage 2, m): a moving source; "
                      "times increasing, inside the fill box, speed at most 0.3 c");
  k.push_back(path);
  k.push_back(choice(src, "interpolation", words_of(interpolation_names()), "linear",
                     "Between keyframes: linear, or smooth (cubic Hermite, Catmull-Rom "
                     "tangents, at rest at both ends)"));
  k.push_back(number(src, "gain", closed(0, 1000), "1", "The input is scaled by it"));
  k.push_back(number(src, "level", open_closed(0, 1e5, "Pa"), "1",
                     "Free-field pressure at 1 m for a unit input sample (below f_max)"));
  k.push_back(number(src, "width", closed(1, 5), "1.5",
                     "Standard deviation of the Gaussian source distribution in lattice "
                     "spacings (>= 1.5 keeps the lattice's short-wave branch quiet)"));
  k.push_back(number(src, "highpass", open_closed(0, 1000, "Hz"), "20",
                     "Corner of the volume velocity's 2nd-order high-pass (no net mass is "
                     "injected)"));
  // [receiver.NAME]
  k.push_back(note(vector("receiver.NAME", "position", "m", "", "",
                          "Measurement point, in the air; writes NAME.wav and NAME.raw.wav"),
                   "required unless path is given"));
  k.push_back(text("receiver.NAME", "group", "", "none",
                   "Receivers sharing a group also go into GROUP.wav, one channel each in file "
                   "order (letters, digits, '_', '-'; not a receiver's name)"));
  k.push_back(choice("receiver.NAME", "type", words_of(receiver_type_names()), "omni",
                     "ambisonic: also first-order B-format (ambiX: ACN W Y Z X, SN3D) from the "
                     "pressure and velocity, NAME.amb.wav and NAME.amb.raw.wav"));
  k.push_back(boolean("receiver.NAME", "binaural", "false",
                      "ambisonic only: also NAME.binaural.wav, the B-format decoded to 8 virtual "
                      "loudspeakers and rendered through [output] hrtf"));
  KeySpec rpath = path;
  rpath.section = "receiver.NAME";
  rpath.doc =
      "Keyframes 't x y z; t x y z; ...' (s of stage 2, m): a moving receiver (omni only; "
      "position is then optional and must equal the first keyframe)";
  k.push_back(rpath);
  k.push_back(choice("receiver.NAME", "interpolation", words_of(interpolation_names()), "linear",
                     "Between keyframes: linear, or smooth (as [emitter.NAME] interpolation)"));
  // [output]
  KeySpec dir = text("output", "dir", "out", "",
                     "Output directory, relative to the working directory (--out DIR overrides "
                     "it)");
  dir.type = KeyType::Path;
  k.push_back(dir);
  k.push_back(number("output", "checkpoint_every", closed(0, 3600, "s"), "0.01",
                     "Simulated time between checkpoints; 0 = only at the end of stage 1, at the "
                     "end and on a stop signal"));
  k.push_back(integer("output", "keep_checkpoints", closed(1, 1e6), "2",
                      "Complete checkpoints kept in DIR/checkpoints"));
  k.push_back(number("output", "snapshot_every", closed(0, 3600, "s"), "0",
                     "Simulated time between float32 snapshots for ParaView; 0 = none"));
  KeySpec fields = text("output", "snapshot_fields", "density pressure velocity", "",
                        "Arrays of the snapshots, each at most once (positions are always "
                        "written)");
  fields.type = KeyType::List;
  fields.names = kSnapshotFieldNames;
  k.push_back(fields);
  k.push_back(boolean("output", "normalize", "true",
                      "NAME.wav DC-free and peak-normalised; false: p' with full scale = 100 Pa, "
                      "clipped"));
  k.push_back(number("output", "progress_every", closed(0.1, 3600, "s"), "5",
                     "Wall-clock time between progress lines"));
  k.push_back(boolean("output", "lowpass", "true",
                      "Low-pass the receivers at f_max; false: only the anti-alias filter"));
  k.push_back(number("output", "highpass", closed(0, 1000, "Hz"), "20",
                     "Causal 4th-order Butterworth high-pass of the written pressure (NAME.wav, "
                     "NAME.raw.wav, groups): removes the sub-audio drift; 0 = off"));
  KeySpec hrtf = text("output", "hrtf", "", "libmysofa's MIT KEMAR default.sofa",
                      "SOFA file (HRIR) of the binaural receivers");
  hrtf.type = KeyType::Path;
  k.push_back(hrtf);
  k.push_back(boolean("output", "energy", "false",
                      "Write energy.csv, the air's acoustic energy after every audio sample"));
  // [material.NAME], the geometric part ([hybrid])
  KeySpec octaves = note(number(mat, "absorption_octaves", closed(0, 1), "",
                                "Random-incidence alpha at 125 250 500 1000 2000 4000 8000 Hz "
                                "for the geometric part ([hybrid]); given alone, the SPH's "
                                "absorption_bands follow from its first six (above 0.951, the "
                                "largest a real impedance reaches, they take that maximum's "
                                "alpha, 0.951)"),
                         "from absorption or absorption_bands: the locally reacting wall with "
                         "each band's real impedance, reflected at each angle (random incidence: "
                         "Paris' alpha_st); 8000 Hz takes the 4000 Hz band; the spring form: its "
                         "wall model's");
  octaves.type = KeyType::List;
  octaves.count = 7;
  k.push_back(octaves);
  k.push_back(number(mat, "scattering", closed(0, 1), "0.1",
                     "[hybrid] only: share of the reflected energy scattered (Lambert)"));
  // [hybrid]
  k.push_back(number("hybrid", "crossover", open_closed(0, 1e5, "Hz"), "auto",
                     "SPH below, geometric acoustics above; at least 1 / record length (a "
                     "period in the record), at most f_max and 0.2 sample_rate. `auto`: 0.7 "
                     "f_max; 0.7 min(f_max, c/(20 dx)) where a wall absorbs"));
  k.push_back(integer("hybrid", "rays", closed(0, 1e9), "100000",
                      "Rays traced for the late part; 0 = image sources only"));
  k.push_back(number("hybrid", "image_time", closed(0, 10, "s"), "0.1",
                     "Reflections from image sources up to this delay, rays after it"));
  k.push_back(integer("hybrid", "image_order", closed(0, 20), "3",
                      "Largest reflection order of the image sources of a room that is not a "
                      "[room] box (mesh room, [boundary] shapes; the box's images have every "
                      "order); rays for the paths of more reflections"));
  k.push_back(boolean("hybrid", "phased_images", "true",
                      "The image sources summed with their phases and the spherical-wave "
                      "reflection factor of each face, carrying the whole reflected energy "
                      "(docs/theory/geometric.md, Phased image sources); false: octave-band taps "
                      "of the plane-wave factor, their scattered share to the rays"));
  k.push_back(note(number("hybrid", "phased_limit", closed_open(0, 1e5, "Hz"), "",
                          "Phased images: the coherent sum up to this frequency (fading over "
                          "the octave below it), the octave-band taps above; 0 = the full band"),
                   "8 crossover"));
  k.push_back(number("hybrid", "scattering", closed(0, 1), "0.7",
                     "Least scattering coefficient of every surface for the rays (max with the "
                     "material's; phased images, the default in a box, ignore it); 0 keeps the "
                     "materials' own (docs/theory/geometric.md, Scattering)"));
  k.push_back(number("hybrid", "receiver_radius", open_closed(0, 10, "m"), "auto",
                     "Radius of the ray tracer's receiver spheres. `auto`: 3 (V / rays)^(1/3), at "
                     "most 0.5 m"));
  k.push_back(integer("hybrid", "seed", closed(0, 9007199254740992.0), "1",
                      "Seed of the rays' directions and of the tail's noise"));
  k.push_back(
      boolean("hybrid", "air_absorption", "true", "ISO 9613-1 air absorption along every path"));
  k.push_back(number("hybrid", "temperature", closed(-20, 50, "C"), "20",
                     "Air temperature for the air absorption"));
  k.push_back(number("hybrid", "humidity", closed(10, 100, "%"), "50",
                     "Relative humidity for the air absorption"));
  k.push_back(number("hybrid", "pressure", closed(50, 110, "kPa"), "101.325",
                     "Static pressure for the air absorption"));
  return k;
}

std::vector<SectionSpec> make_sections() {
  std::vector<SectionSpec> s = {
      {"time", false, "Audio rate, time step and duration.", {}},
      {"equilibrium", false, "Stage 1: settling the lattice before the emitter starts.", {}},
      {"fluid", false, "The air: lattice, kernel, equation of state, filters.", {}},
      {"room", false, "Optional: a box of six walls.", {}},
      {"material",
       true,
       "A wall material: `absorption`, `absorption_bands`, `absorption_octaves`, or the spring "
       "form (`stiffness` with optional `damping` and `mass`); not both forms. One description "
       "serves both parts: the normal-incidence bands (SPH) and the random-incidence octaves "
       "(geometric) follow from each other when only one is given. `rigid` is built in.",
       {}},
      {"boundary",
       true,
       "A rectangle, disc or cylindrical surface; a key of another shape is an error.",
       {}},
      {"geometry",
       true,
       "A room (air inside) or an object (solid inside) from a triangle mesh, a material per "
       "surface (docs/geometry.md).",
       {}},
      {"emitter", false, "Required: the loudspeaker, a disc moving along its normal.", {}},
      {"emitter",
       true,
       "Optional, any number: more sources, each with its own input and gain; a monopole point "
       "source in the air, fixed or moving along a path.",
       {}},
      {"receiver", true, "At least one: the microphones.", {}},
      {"output", false, "Files written by a run.", {}},
      {"hybrid",
       false,
       "Optional: full-band responses NAME.full.wav (an ambisonic receiver also NAME.amb.full.wav "
       "and, binaural, NAME.binaural.full.wav), SPH below the crossover, image sources and ray "
       "tracing above it (needs `[emitter] input = impulse`).",
       {}},
  };
  for (const auto& row : scene_schema())
    for (auto& sec : s)
      if ((sec.named ? sec.name + ".NAME" : sec.name) == row.section) sec.keys.push_back(row.key);
  return s;
}

std::string md_default(const KeySpec& k) {
  if (!k.default_value.empty()) return "`" + k.default_value + "`";
  return k.default_note.empty() ? "none" : k.default_note;
}

std::string md_allowed(const KeySpec& k) {
  std::vector<std::string> quoted;
  for (const auto& n : k.names) quoted.push_back("`" + n + "`");
  switch (k.type) {
    case KeyType::Number:
      return Range{k.range.lo, k.range.hi, k.range.lo_open, k.range.hi_open, ""}.str();
    case KeyType::Int:
      return "integer " + Range{k.range.lo, k.range.hi, k.range.lo_open, k.range.hi_open, ""}.str();
    case KeyType::Vector:
      return "x y z";
    case KeyType::String:
      return "a name";
    case KeyType::Enum:
      return join(quoted);
    case KeyType::Path:
      return quoted.empty() ? "a path" : join(quoted) + " or a path";
    case KeyType::Bool:
      return "`true`, `false` (also yes/no, on/off, 1/0)";
    case KeyType::List:
      if (!k.names.empty()) return "words from " + join(quoted);
      return std::to_string(k.count) + " numbers, each " +
             Range{k.range.lo, k.range.hi, k.range.lo_open, k.range.hi_open, ""}.str();
  }
  return "";
}

// Checks that involve more than one key, with the reason for each.
const char* const kCrossChecks = R"(## Checks across keys

Errors (exit 2, the message names the file, the line and the key):

- The fill box (default: the room) must be at least 2 x halo_width = 2 (2h + skin dx) thick on
  every axis, and lie inside the room.
- Receivers and the emitter centre lie in the air: inside the fill box and at least dx/2 from its
  faces.
- Every receiver and monopole, fixed or on its path, and the emitter disc's centre lie in the
  air of every fixed solid and at least dx/2 from its surface (lattice sites closer than that
  are not filled, so there is no air): inside a room mesh, outside an object mesh, off every
  `[boundary.NAME]` surface and out of the solid of a ghost-walled one (the disc's centre against
  the meshes; the disc against the shapes as below). A path is sampled along its keyframes at
  most dx/8 of travel apart; the message names the section, the key, the keyframe (or the
  segment starting at it), the time and the solid.
- No tethered `[boundary.NAME]` surface passes through the emitter disc: the disc's tethered
  particles would be pulled by two walls at once (a ghost-walled one may: the disc moves that
  part of it).
- The emitter disc fits in the fill box (its rim, centre +- radius across the normal).
- A moving `[boundary.NAME]` object (`path`, `rotation` or both; a moving mesh alike): its
  fastest surface point (the path's speed plus the turning rate times the farthest point's
  distance from the axis) at most 0.3 c, and its surface, posed at every keyframe (its own and
  the moving points') and in between at steps that bring no surface point and no receiver or
  monopole more than dx/4 closer, at least dx/2 from every receiver and monopole (each on its
  path) and from the emitter disc's centre and rim. The message names the keyframe of
  `rotation` (else `path`) or the segment starting at it, the time and the point.
- The stability bound dt <= min(C h / c, the stiffest wall spring's 0.5 / omega) needs at most
  1000000 substeps per sample; an explicit `substeps` must meet it.
- `hyperdiffusion` and `hyperviscosity` stay below the filter's stability limit at the chosen dt.

Warnings (printed by `check` and in the run log; the run goes on):

- `walls = mirror` given for a `[room]` whose face within the kernel's reach of the air does not
  sit dx/2 beyond the lattice's last layer (a room side that is not a multiple of `spacing`; the
  lattice is centred in the fill box). Mirror images then act across a gap of the wrong width and
  absorb far less than configured: a 0.8 x 0.6 x 0.5 m room at 15 mm with absorption = 0.3 decays
  with T30 ~ 110 ms where Eyring's formula gives 27 ms. `walls = auto` (the default) builds the
  box's ghost walls there instead, which sit where the faces are (docs/theory/walls.md).
- An emitter disc free in the air rather than on a wall (its centre within dx of a `[room]` face,
  a `[boundary.NAME]` plate or a `[geometry.NAME]` mesh face parallel to it): a free disc scatters sound into the lattice's
  short-wave branch (k dx near pi), which no wall absorbs, and the nearby modes lose energy.
- A `[boundary.NAME]` object moving along a `path` or turning while `[fluid] background_pressure`
  is below its wake's tension rho0 c v (v its fastest surface point's top speed): SPH is unstable in tension (Swegle,
  Hicks & Attaway 1995), the wake's particles pair up and its density stays at rho0 instead of
  falling by v/c (docs/limitations.md). A larger background pressure lets the wake rarefy but
  disorders the lattice at force walls and the emitter disc.
- Hard surfaces oblique to the lattice (faces of fixed meshes and ghost-walled plates whose normal
  lies more than 0.1 degrees off every axis, rigid or with a normal-incidence absorption below 0.1
  in some band) in a record longer than 30 ms without `[fluid] hyperviscosity`, where 0.13 times
  their area exceeds the room's absorption area (its smallest over the octaves): such walls can
  make the air's energy grow over long records (a rigid box turned 30 degrees at 1 cm from about
  40 ms, gaining as if its walls absorbed -0.13; a plaster one too); the warning gives their area
  and names the sections (docs/limitations.md, "Oblique mesh walls").
- A `[boundary.NAME]` rectangle or disc given `wall = ghost` with fill-box air behind it (the
  point 1.5 dx behind its centre): a ghost wall is one-sided, and the air behind sees its front's
  ghosts. `wall = auto` makes such a plate tethered.

Each `[boundary.NAME]` shape's treatment under `wall` (ghost or tethered, and why) is one line
of `check` and of the run log (`wall boundary.NAME  ghost (auto: ...)`) and an entry of
`summary.json` `boundaries`.
)";

}  // namespace

const std::vector<KeySpec>& scene_schema() {
  static const std::vector<KeySpec> rows = make_schema();
  return rows;
}

const std::vector<SectionSpec>& scene_sections() {
  static const std::vector<SectionSpec> sections = make_sections();
  return sections;
}

const SectionSpec* classify_section(const std::string& name) {
  const auto is_name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
  };
  const auto dot = name.find('.');
  const std::string prefix = name.substr(0, dot);
  for (const auto& t : scene_sections()) {
    if (t.name != prefix) continue;
    if (!t.named) {
      if (dot == std::string::npos) return &t;
      continue;  // [emitter] and [emitter.NAME] share a prefix
    }
    if (dot == std::string::npos) continue;
    const std::string tail = name.substr(dot + 1);
    if (tail.empty() || !std::all_of(tail.begin(), tail.end(), is_name_char)) return nullptr;
    return &t;
  }
  return nullptr;
}

const KeySpec* find_key(const SectionSpec& type, const std::string& key) {
  const std::string section = type.named ? type.name + ".NAME" : type.name;
  for (const auto& row : scene_schema())
    if (row.section == section && row.key == key) return &row;
  // Pattern rows: "material.GROUP" matches "material.X" for any non-empty X of name characters
  // (letters, digits, '_', '-', '.').
  for (const auto& row : scene_schema()) {
    if (row.section != section) continue;
    const auto dot = row.key.find('.');
    if (dot == std::string::npos || row.key.compare(dot + 1, std::string::npos, "GROUP") != 0)
      continue;
    const std::string prefix = row.key.substr(0, dot + 1);
    if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix) != 0) continue;
    const bool names = std::all_of(key.begin() + prefix.size(), key.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
    });
    if (names) return &row;
  }
  return nullptr;
}

std::string allowed_sections() {
  std::vector<std::string> names;
  for (const auto& t : scene_sections()) names.push_back("[" + t.name + (t.named ? ".NAME]" : "]"));
  return join(names);
}

const char* to_string(KeyType t) {
  switch (t) {
    case KeyType::Number:
      return "number";
    case KeyType::Int:
      return "int";
    case KeyType::Vector:
      return "vector";
    case KeyType::String:
      return "string";
    case KeyType::Enum:
      return "enum";
    case KeyType::Path:
      return "path";
    case KeyType::Bool:
      return "bool";
    case KeyType::List:
      return "list";
  }
  return "?";
}

std::string scene_reference_markdown() {
  std::ostringstream o;
  o << "# Scene reference\n\n"
    << "<!-- Generated by `sphreverb keys` from the key schema (src/config/schema.cpp). Do not "
       "edit;\n     regenerate with `build/sphreverb keys > docs/scene-reference.md`. -->\n\n"
    << "A scene is an INI file: `[section]` headers, `key = value` lines, `#` starts a comment "
       "anywhere on a\nline, `;` a comment line. Vectors are written `x y z`. Unknown sections "
       "and keys, a key given\ntwice, bad numbers, NaN and values out of range are errors that "
       "name the file, the line and the\nkey. Any key can be overridden on the command line by "
       "its dotted name, once:\n`--fluid.spacing 0.01`, `--receiver.left.position \"0.4 0.2 "
       "0.2\"`. Before the first section,\n`include = PATH` (relative to the scene file) reads a "
       "library of `[material.NAME]` sections\n(`configs/materials.ini`). Scene and included "
       "files must be regular files of at most "
    << kMaxSceneFileBytes / (1024 * 1024) << " MiB\nwithout NUL bytes.\n";
  for (const auto& sec : scene_sections()) {
    o << "\n## `[" << sec.name << (sec.named ? ".NAME" : "") << "]`\n\n"
      << sec.doc << "\n\n"
      << "| key | type | unit | default | allowed | meaning |\n"
      << "|---|---|---|---|---|---|\n";
    for (const auto& key : sec.keys) {
      const KeySpec& k = *find_key(sec, key);
      o << "| `" << k.key << "` | " << to_string(k.type) << " | "
        << (*k.range.unit != '\0' ? k.range.unit : "-") << " | " << md_default(k) << " | "
        << md_allowed(k) << " | " << k.doc << " |\n";
    }
  }
  o << "\n" << kCrossChecks;
  return o.str();
}

}  // namespace sphreverb
