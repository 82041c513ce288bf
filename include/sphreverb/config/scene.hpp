// The scene: an INI file (Boost.Program_options syntax) parsed and validated once into an
// immutable value. Every key has a unit and an allowed range (schema.hpp, docs/scene-reference.md);
// unknown keys, bad numbers, NaN, wrong vector lengths and out-of-range values are errors that
// name the file, the line and the dotted key. Quantities derived from the keys (smoothing length,
// particle mass, time step, substeps, highest usable frequency) are computed once, by the parser
// (derived.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/emitter.hpp"  // Drive
#include "sphreverb/model/mesh.hpp"
#include "sphreverb/model/path.hpp"           // Keyframe, PathInterpolation
#include "sphreverb/model/rotation_path.hpp"  // AngleKeyframe
#include "sphreverb/model/shape.hpp"          // ShapeKind
#include "sphreverb/physics/eos.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/lattice_gradient.hpp"
#include "sphreverb/physics/material.hpp"

namespace sphreverb {

// Thrown for any problem with a scene: the message is complete and meant for the user, e.g.
// "configs/room.ini:12: [fluid] spacing = -1: must be in (0, 1] m".
class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// names "auto", "mirror", "tethered": how the [room] box's walls are built (mirror_walls.hpp)
enum class RoomWalls { Auto, Mirror, Ghost, Tethered };

struct TimeSpec {
  double sample_rate = 44100.0;  // Hz, output (and input) audio rate, [1000, 384000]
  int substeps = 0;        // time steps per audio sample; 0 = smallest count the CFL bound allows
  double duration = 0.05;  // s, simulated time of stage 2, (0, 3600]
  double cfl = 0.3;        // Courant number C of dt <= C h / c, (0, 1]
};

struct EquilibriumSpec {
  double energy = 1e-5;            // J, stage 1 ends when E = 1/2 sum m v^2 < energy, (0, 1e3]
  std::int64_t max_steps = 20000;  // step cap of stage 1, [10, 1e9]; reaching it is an error
  double damping = 2000.0;  // 1/s, velocity relaxation rate applied in stage 1 only, [0, 1e7]
};

struct FluidSpec {
  double spacing = 0.015;       // m, lattice spacing dx, (0, 1]
  double h_over_dx = 1.3;       // smoothing length h / dx, [1, 3]
  double rest_density = 1.204;  // kg/m^3, rho0, (0, 1e4]
  double sound_speed = 343.0;   // m/s, c0, (0, 1e4]
  KernelKind kernel = KernelKind::WendlandC2;
  EosKind eos = EosKind::Linear;
  double gamma = 1.4;      // adiabatic index of the ideal-gas EOS, [1, 3]
  double viscosity = 0.0;  // Monaghan artificial-viscosity alpha, [0, 1]; 0 switches it off
  double density_diffusion =
      0.0;  // delta of the delta-SPH term (Molteni & Colagrossi 2009), [0, 1]
  // epsilon of the density hyperdiffusion -eps c dx^3 L(L(rho)) (interactions.hpp), [0, 1]:
  // damps the lattice's short-wave branch (k dx near pi), ~(k dx)^4 in the audible band
  double hyperdiffusion = 0.002;  // applied every kHyperdiffusionEvery steps
  // epsilon of the same filter on the velocity, -eps c dx^3 L(L(v)), [0, 1]; 0 switches it off.
  // `auto` (hyperviscosity_auto, the default): on where hard walls oblique to the lattice need it,
  // else off (solver/surfaces.hpp, hyperviscosity_of); `hyperviscosity` is then 0.
  double hyperviscosity = 0.0;
  bool hyperviscosity_auto = true;
  // A of the particle shifting -A h |v| dt grad C (physics/shifting.hpp), [0, 10]; 0 switches it
  // off. For the air that moving objects push (it keeps their stagnation regions ordered).
  double shifting = 0.0;
  double background_pressure = 0.0;  // Pa, added to p in the momentum equation, [0, 1e7]
  double skin = 0.2;                 // Verlet skin as a fraction of dx, [0.01, 1]
  // grad W on the lattice: exact first moment, or first and third (lattice_gradient.hpp)
  GradientCorrection gradient_correction = GradientCorrection::FourthOrder;
  Vec3 fill_min, fill_max;  // m, the box the lattice fills; defaults to [room] min/max
};

// Steps between two applications of the hyperdiffusion filter (simulation.cpp).
inline constexpr int kHyperdiffusionEvery = 8;

struct MaterialSpec {
  std::string name;
  bool rigid = true;       // given as "absorption = 0": stiffness from the resolution, no damping
  double stiffness = 0.0;  // Pa/m, normal spring per unit wall area, [0, 1e15] (rigid: derived)
  double damping = 0.0;    // Pa s/m (rayl), normal damper per unit wall area, [0, 1e7]
  double mass = 0.0;       // kg/m^2, added areal mass of the tethered layer, [0, 1e4]
  // The three values above act on each tethered particle's area dx^2; a wall whose tether zone
  // holds n_t lattice layers has n_t times them per unit wall area (material.hpp).
  // Given as absorption (material.hpp): empty for the spring form, 1 value for `absorption`,
  // 6 for `absorption_bands` (normal incidence, 125 Hz ... 4 kHz). The parser derives stiffness,
  // damping and mass from them (Derived), and `impedance` is the wall model of eq. (1) they give.
  std::vector<double> absorption;
  WallImpedance impedance;  // per unit wall area, tethered air layer included (absorption only)
  double fit_rms = 0.0;     // absorption_bands: rms error of the fit in alpha at the band centres
  std::array<double, 6> fitted{};  // absorption_bands: the fitted wall's alpha at the centres
  // absorption_bands with fit_rms > kMaterialFitWarn: the largest of the spacings dx / k tried
  // (derived.cpp) whose fit is within it, m; 0 = none of them.
  double fitting_spacing = 0.0;
  // The geometric part ([hybrid]): random-incidence absorption at 125 Hz ... 8 kHz (7 values;
  // empty = derived from the wall model above, solver/hybrid_assembly.hpp) and the scattering
  // coefficient, [0, 1].
  std::vector<double> absorption_octaves;
  double scattering = 0.1;
};

struct RoomSpec {
  bool present = false;  // a [room] section was given
  Vec3 min, max;         // m, the box; six rectangle walls
  std::string material;  // name of a [material.NAME] section, or "rigid" (built in)
  // The material of each face, index 2 axis + side (x_min, x_max, y_min, ..., z_max): the keys
  // material_x_min ... material_z_max, each `material` unless given.
  std::array<std::string, 6> face_material;
  // mirror: ghost particles (rigid, a resistive wall for one broadband `absorption`, a reacting
  // wall for `absorption_bands`); tethered: force walls (any material); auto: mirror where the
  // material allows it.
  RoomWalls walls = RoomWalls::Auto;
};

// How a [boundary.NAME] surface is walled: tethered force wall (boundary.hpp), or fixed ghost
// particles behind it (solid_sheet.hpp, ghost_walls.hpp); auto (the key's default) is resolved
// to one of the two by the parser (resolve_boundary_walls, detail/passes.hpp).
enum class BoundaryWall { Tethered, Ghost, Auto };

struct BoundarySpec {
  std::string name;  // NAME of [boundary.NAME]
  ShapeKind shape = ShapeKind::Rectangle;
  Vec3 center;           // m
  Vec3 normal;           // unit (normalised by the parser); cylinder: the axis
  double width = 0.0;    // m, rectangle: "size = W H" along u = normalised(normal x ref) ...
  double height = 0.0;   // m, ... and v = normal x u (ref = z unless normal is along z, then x);
                         //    cylinder: length along the axis
  double radius = 0.0;   // m, disc and cylinder
  std::string material;  // name of a [material.NAME] section, or "rigid"
  // A moving object: keyframes of its centre (center is then the first one), translated rigidly;
  // empty: fixed at center.
  std::vector<Keyframe> path;
  PathInterpolation interpolation = PathInterpolation::Linear;  // of path and rotation
  // A turning object (model/rotation_path.hpp): keyframes of its angle (rad; the shape as written
  // is its pose at the first one) about `axis` (unit) through `pivot` (m, default center); empty:
  // it does not turn.
  std::vector<AngleKeyframe> rotation;
  Vec3 axis;
  Vec3 pivot;
  BoundaryWall wall_key = BoundaryWall::Auto;  // the `wall` key as written
  // The treatment it got (never Auto after parse_scene) and why, one short phrase (the check
  // report, the log and summary.json print it).
  BoundaryWall wall = BoundaryWall::Tethered;
  std::string wall_reason;
};

// room: air inside the mesh; object: solid inside, air around it.
enum class GeometryRole { Room, Object };

// [geometry.NAME]: a triangle mesh (docs/geometry.md), read, transformed and checked by the
// parser. Its walls are ghost walls (ghost_walls.hpp).
struct GeometrySpec {
  std::string name;             // NAME of [geometry.NAME]
  std::string file;             // the mesh file, resolved against the scene file's directory
  std::string units = "m";      // m, cm, mm, in
  double scale = 1.0;           // (0, 1e6]
  Vec3 rotation;                // degrees, extrinsic Euler x y z (R = Rz Ry Rx) ...
  Vec3 rotation_axis;           // ... or an axis (zero: none) ...
  double rotation_angle = 0.0;  // ... and an angle, degrees, applied after the Euler angles
  Vec3 translation;             // m
  GeometryRole role = GeometryRole::Object;
  std::string material;                              // default material of the surfaces ("": none)
  std::map<std::string, std::string> surface_given;  // material.GROUP = NAME
  std::shared_ptr<const Mesh> mesh;                  // loaded and checked, in metres
  std::vector<std::string> surface_material;         // per mesh surface: a material name
  // A moving object (role = object; boundary.hpp "Moving mesh objects"): keyframes of a
  // reference point (the mesh as placed is its pose at the first one), translated rigidly; empty:
  // fixed. Its walls are then a tethered force wall, not ghost walls.
  std::vector<Keyframe> path;
  PathInterpolation interpolation = PathInterpolation::Linear;  // of path and turn
  // Keyframes of its angle (rad) about `turn_axis` (unit) through `turn_pivot` (m, default the
  // centre of the mesh's bounding box); empty: it does not turn.
  std::vector<AngleKeyframe> turn;
  Vec3 turn_axis;
  Vec3 turn_pivot;
  bool moves() const { return path.size() > 1 || turn.size() > 1; }

  double read_seconds = 0.0;  // wall time to read, transform and check the file (this rank)
};

struct EmitterSpec {
  // An [emitter] section was given. Without one (a scene of [emitter.NAME] sources) there is no
  // disc: radius and gain are 0, nothing is tethered to it or driven, and no check concerns it.
  bool present = true;
  std::string input =
      "impulse";               // "impulse", "sweep" or a WAV path (resolved against the scene dir)
  bool builtin = true;         // input is "impulse" or "sweep"
  Vec3 center;                 // m, rest position of the disc centre
  Vec3 normal{1.0, 0.0, 0.0};  // unit, the disc moves along it
  double radius = 0.025;       // m, (0, 10]
  double deflection = 1e-5;    // m, k of x = x_rest + k s(t) (Wolfe & Semwal Eq. 5/7), (0, 0.1]
  Drive drive = Drive::Acceleration;                       // flat for a disc on a wall (measured,
                                                           // docs/theory/emitter-receivers.md)
  static constexpr double kAccelerationDeflection = 1e-8;  // m, the default k of that drive
  double highpass = 20.0;  // Hz, [0, 1000]: the acceleration drive's 2nd-order high-pass (leak)
  std::string material = "rigid";  // the disc's wall material
  double gain = 1.0;               // the input is scaled by it, [0, 1e3] (0: a silent disc)
};

// names "monopole": the kinds of [emitter.NAME] sources
enum class SourceType { Monopole };

// A source of its own: [emitter.NAME] (point_source.hpp), beside the [emitter] disc.
struct SourceSpec {
  std::string name;  // NAME of [emitter.NAME]
  SourceType type = SourceType::Monopole;
  std::string input = "impulse";  // as EmitterSpec::input
  bool builtin = true;
  double gain = 1.0;           // the input is scaled by it, [0, 1e3]
  double level = 1.0;          // Pa, free-field pressure at 1 m for a unit input
  double width = 1.5;          // the Gaussian's s in lattice spacings, [1, 5]
  double highpass = 20.0;      // Hz, the volume velocity's 2nd-order high-pass
  std::vector<Keyframe> path;  // position, or keyframes (one: a fixed source)
  PathInterpolation interpolation = PathInterpolation::Linear;
};

// Fastest a path may move, as a fraction of [fluid] sound_speed (Mach number).
inline constexpr double kMaxPathMach = 0.3;

// omni: the pressure only; ambisonic: also first-order B-format (ambiX conventions:
// docs/theory/emitter-receivers.md).
enum class ReceiverType { Omni, Ambisonic };

struct ReceiverSpec {
  std::string name;   // NAME of [receiver.NAME]; output files NAME.wav and NAME.raw.wav
  Vec3 position;      // m, must lie in the air
  std::string group;  // optional: receivers sharing a group also go into GROUP.wav, one channel
                      // each in file order (e.g. a stereo pair)
  ReceiverType type = ReceiverType::Omni;  // ambisonic: also NAME.amb.wav and NAME.amb.raw.wav
  bool binaural = false;  // ambisonic only: also NAME.binaural.wav (an HRTF decode)
  // A moving receiver: keyframes (position is then the first one); empty: fixed at position.
  std::vector<Keyframe> path;
  PathInterpolation interpolation = PathInterpolation::Linear;
};

// Field names [output] snapshot_fields accepts (positions are always written).
inline const std::vector<std::string> kSnapshotFieldNames = {"density", "pressure", "velocity",
                                                             "rank"};

struct OutputSpec {
  std::string dir = "out";         // output directory (relative to the working directory)
  double checkpoint_every = 0.01;  // s of simulated time between checkpoints, [0, 3600]; 0 = only
                                   // at the end of stage 1, at the end and on a signal
  int keep_checkpoints = 2;        // complete checkpoints kept in DIR/checkpoints, [1, 1e6]
  double snapshot_every = 0.0;     // s of simulated time between float32 snapshots; 0 = none
  std::vector<std::string> snapshot_fields = {"density", "pressure",
                                              "velocity"};  // of kSnapshotFieldNames
  bool normalize = true;        // NAME.wav: DC removed and peak-normalised (seed); else clipped
  double progress_every = 5.0;  // s of wall time between progress lines, [0.1, 3600]
  bool lowpass = true;          // low-pass the receivers at f_max (false: only anti-aliasing)
  double highpass = 20.0;       // Hz, causal 4th-order Butterworth high-pass of the written
                                // pressure (NAME.raw.wav, NAME.wav, groups); 0 = off
  bool energy = false;          // write energy.csv: acoustic energy of the air every sample
  std::string hrtf;             // SOFA file of the binaural receivers ("" = libmysofa's default)
};

// Quantities derived from the keys, in SI units.
struct Derived {
  double h = 0.0;                // m, smoothing length
  double support = 0.0;          // m, kernel support radius (2h)
  double skin = 0.0;             // m, Verlet skin
  double halo_width = 0.0;       // m, support + skin: the neighbour lists' reach
  double particle_mass = 0.0;    // kg, rho0 dx^3
  double dt_cfl = 0.0;           // s, CFL bound C h / c
  double dt_wall = 0.0;          // s, stability bound of the stiffest wall spring (inf if none)
  double dt = 0.0;               // s, the time step, 1 / (sample_rate * substeps)
  int substeps = 0;              // actual substeps per audio sample
  std::int64_t steps = 0;        // stage-2 steps, round(duration * sample_rate) * substeps
  std::int64_t samples = 0;      // output samples per receiver, round(duration * sample_rate)
  double rigid_stiffness = 0.0;  // Pa/m, stiffness used for "absorption = 0" walls
  double f_max = 0.0;            // Hz, highest usable frequency, min(f_max_bulk, f_max_walls)
  double f_max_bulk = 0.0;       // Hz, c / (ppw_min dx): the air's dispersion limit
  // Hz, c / (kForceWallPpw dx), the force walls' limit (dispersion.hpp); inf when the scene has
  // no force wall (a mirror room, no tethered boundary, the emitter disc on a mirror face)
  double f_max_walls = 0.0;
  bool mirror_room = false;  // the [room] walls are mirror walls (RoomSpec::walls resolved)
  bool ghost_room = false;   // ... or ghost walls of the box as a mesh (faces off the lattice)
  // walls = auto made the room's faces ghost walls although they lie on the lattice: this
  // ghost-walled [boundary] panel lies on one of them (its NAME; "": not so).
  std::string room_panel;
  // m/(Pa s), 1/R of each face of a mirror room (RoomSpec::face_material order); 0 = rigid
  std::array<double, 6> room_admittance{};
  // The fitted wall (material.hpp eq. 1) of each reacting face of a mirror room (a material
  // given by absorption_bands: a face element per first-layer particle, mirror_walls.hpp);
  // mass 0 = not reacting (rigid or resistive)
  std::array<WallImpedance, 6> room_reacting{};
  // The face of the mirror room (2 axis + side, RoomSpec::face_material order) the emitter disc
  // lies on, a velocity boundary of that face (mirror_walls.hpp); -1: the disc is a force wall
  int emitter_face = -1;
  // The scene has ghost walls: meshes ([geometry.NAME]) or boundaries with wall = ghost.
  bool ghost_walls = false;
  // m, depth of the halo copies and the minimum slab thickness (min_slab_thickness,
  // solver/simulation.hpp): halo_width, plus the reach of the ghost walls' interpolation
  // stencils (GhostWalls::kStencilReach dx + dx/2) when the scene has ghost walls
  double halo_depth = 0.0;
  double ppw_min = 0.0;  // spacings per wavelength where the lattice phase-speed error of the
                         // scheme reaches kFmaxPhaseError (dispersion.hpp, checked by V1)
};

// [hybrid]: full-band responses, the SPH part below `crossover`, geometric acoustics above it
// (docs/theory/geometric.md). Absent: nothing of it runs.
struct HybridSpec {
  bool present = false;
  double crossover = 0.0;       // Hz, resolved by the parser (`auto`, the default: scene.cpp)
  std::string crossover_basis;  // how the parser chose it, for check and the log ("given", ...)
  std::int64_t rays = 100000;   // rays traced, [0, 1e9]; 0 = image sources only
  double image_time = 0.1;      // s, reflections from image sources up to this delay
  // Largest reflection order of the polyhedral image sources (any room but a [room] box, whose
  // lattice of images has every order), [0, 20].
  std::int64_t image_order = 3;
  // The image sources summed coherently with the spherical-wave reflection factor
  // (geometric/phased_images.hpp), the faces flat (the whole reflected energy, the rays after
  // image_time only), instead of octave-band taps of the plane-wave factor.
  bool phased_images = true;
  // Hz: phased images up to it, taps above (phased_images.hpp); 0 = the full band; < 0 before
  // the parser resolves the default, kPhasedLimitOverCrossover times the crossover.
  double phased_limit = -1.0;
  // Least scattering coefficient of every surface in the geometric part, [0, 1]: a surface
  // scatters max(its material's `scattering`, this) (docs/theory/geometric.md, "Scattering").
  double scattering = 0.7;
  double receiver_radius = 0.0;  // m, the ray tracer's receiver sphere; 0: `auto` (plan.hpp)
  std::int64_t seed = 1;         // of the rays and the noise, [0, 2^53]
  bool air_absorption = true;    // ISO 9613-1 attenuation along every path
  double temperature = 20.0;     // degrees C, [-20, 50]
  double humidity = 50.0;        // %, [10, 100]
  double pressure = 101.325;     // kPa, [50, 110]
};
// The rms error in alpha above which a band material's fit is warned of (check, the log).
inline constexpr double kMaterialFitWarn = 0.05;
// The default crossover as a fraction of f_max: a half octave below it, where the output's
// 4th-order Butterworth low-pass at f_max is down by 0.24 dB only.
inline constexpr double kDefaultCrossover = 0.7;
// The least crossover: kCrossoverPeriods of its period within the record (the crossover filters'
// and the overlap octave's calibration need the band inside the record; far below, the join's
// filters and delays are sized by 1 / crossover, not by the record).
inline constexpr double kCrossoverPeriods = 1.0;
inline double crossover_floor(double record_seconds) { return kCrossoverPeriods / record_seconds; }
// The default phased limit over the crossover (docs/theory/geometric.md, Phased image sources).
inline constexpr double kPhasedLimitOverCrossover = 8.0;

struct Scene {
  std::string path;  // the scene file as given
  std::string text;  // its full text (echoed into summary.json and, later, checkpoints)
  std::map<std::string, std::string> overrides;  // dotted key -> value, from the command line

  TimeSpec time;
  EquilibriumSpec equilibrium;
  FluidSpec fluid;
  RoomSpec room;
  std::vector<MaterialSpec> materials;   // in file order; "rigid" is always present
  std::vector<BoundarySpec> boundaries;  // in file order
  std::vector<GeometrySpec> geometries;  // in file order
  EmitterSpec emitter;
  std::vector<SourceSpec> sources;      // [emitter.NAME], in file order
  std::vector<ReceiverSpec> receivers;  // in file order; at least one
  OutputSpec output;
  HybridSpec hybrid;
  Derived derived;
  // Problems that do not stop a run (e.g. an emitter disc free in the air), one sentence each;
  // `check` prints them and a run logs them.
  std::vector<std::string> warnings;
  // What the parser changed in the scene as written and why (the disc placed at dx/2 from the
  // wall it is meant for, emitter_placement.cpp): `check` and the run's log print them.
  std::vector<std::string> notes;

  // Looks up a material by name; the parser guarantees every referenced name exists.
  const MaterialSpec& material(const std::string& name) const;
};

// Reads, parses and validates a scene file; `overrides` maps dotted keys ("fluid.spacing") to
// values that replace (or add to) the file's. Throws SceneError with a complete message.
Scene load_scene(const std::string& path, const std::map<std::string, std::string>& overrides = {});

// The same from text already in memory (`path` is used in messages and to resolve WAV paths).
Scene parse_scene(const std::string& text, const std::string& path,
                  const std::map<std::string, std::string>& overrides = {});

// Names used in files and messages.
const char* to_string(KernelKind);
const char* to_string(EosKind);
const char* to_string(ShapeKind);
const char* to_string(Drive);
const char* to_string(GradientCorrection);
const char* to_string(RoomWalls);
const char* to_string(SourceType);
const char* to_string(PathInterpolation);
const char* to_string(GeometryRole);
const char* to_string(BoundaryWall);
// "material_x_min" ... "material_z_max": the [room] key of face 2 axis + side.
std::string room_face_key(int face);

}  // namespace sphreverb
