// Scene parser: a full scene with hand-computed derived quantities, defaults, command-line
// overrides, and one test per class of bad input. Every error test checks that SceneError names
// the file, the line (where there is one) and the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/config/schema.hpp"
#include "sphreverb/physics/dispersion.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

const std::string kPath = "scenes/test.ini";

// A small but complete scene; the numbers are chosen so the derived values are easy by hand.
const std::string kFull = R"(# full scene
[time]
sample_rate = 10000
duration = 0.01
cfl = 0.4

[equilibrium]
energy = 1e-6
max_steps = 500
damping = 100

[fluid]
spacing = 0.01
h_over_dx = 1.5
rest_density = 1.2
sound_speed = 300
kernel = cubic_spline
eos = ideal_gas
gamma = 1.4
viscosity = 0.1
density_diffusion = 0.1
background_pressure = 10
skin = 0.2

[room]
min = 0 0 0
max = 0.5 0.4 0.3
material = soft

; a soft wall spring that does not limit the time step
[material.soft]
stiffness = 1.2e4
damping = 0

[material.hard]   # unused materials are fine
absorption = 0

[boundary.pillar]
shape = cylinder
center = 0.25 0.2 0.15
normal = 0 0 2
radius = 0.02
height = 0.3

[boundary.panel]
shape = rectangle
center = 0.1 0.1 0.1
normal = 3 0 4
size = 0.1 0.05
material = hard

[emitter]
input = sweep
center = 0.1 0.2 0.15
normal = 0 1 0
radius = 0.03
deflection = 2e-5
drive = velocity

[receiver.left]
position = 0.4 0.1 0.15

[receiver.right]
position = 0.4 0.3 0.15

[output]
dir = results
checkpoint_every = 0
normalize = no
progress_every = 1
)";

// The smallest valid scene: everything else takes its default.
const std::string kMinimal = R"([room]
min = 0 0 0
max = 1 1 1

[emitter]
input = impulse
center = 0.2 0.5 0.5

[receiver.mic]
position = 0.8 0.5 0.5
)";

// `text` with the first occurrence of `from` replaced by `to` (the test fails if absent).
std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture has no '" << from << "'";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// 1-based line of the first occurrence of `needle` in `text`.
int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << "no '" << needle << "' in the text";
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

std::string at_line(const std::string& text, const std::string& needle) {
  return kPath + ":" + std::to_string(line_of(text, needle)) + ":";
}

// The SceneError message of parse_scene, or "" (and a test failure) if it did not throw.
std::string error_of(const std::string& text, const std::map<std::string, std::string>& ov = {}) {
  try {
    parse_scene(text, kPath, ov);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "parse_scene did not throw";
  return "";
}

void expect_mentions(const std::string& message, std::initializer_list<std::string> needles) {
  for (const auto& n : needles) {
    EXPECT_NE(message.find(n), std::string::npos) << "'" << n << "' not in: " << message;
  }
}

// Checks that changing `from` to `to` in kFull fails with a message naming the file, the line of
// the changed text, and every one of `needles`.
void expect_bad_line(const std::string& from, const std::string& to,
                     std::initializer_list<std::string> needles) {
  const std::string text = replace(kFull, from, to);
  const std::string message = error_of(text);
  expect_mentions(message, {at_line(text, to)});
  expect_mentions(message, needles);
}

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("sphreverb_scene_") + info->test_suite_name() + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~TempDir() { fs::remove_all(dir_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string write(const std::string& name, const std::string& content) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  const fs::path& path() const { return dir_; }

 private:
  fs::path dir_;
};

// ---- valid scenes -------------------------------------------------------------------------------

TEST(SceneParse, FullSceneValuesAndDerivedQuantities) {
  const Scene s = parse_scene(kFull, kPath);
  EXPECT_EQ(s.path, kPath);
  EXPECT_EQ(s.text, kFull);
  EXPECT_DOUBLE_EQ(s.time.sample_rate, 10000.0);
  EXPECT_EQ(s.time.substeps, 0);
  EXPECT_DOUBLE_EQ(s.time.duration, 0.01);
  EXPECT_DOUBLE_EQ(s.time.cfl, 0.4);
  EXPECT_DOUBLE_EQ(s.equilibrium.energy, 1e-6);
  EXPECT_EQ(s.equilibrium.max_steps, 500);
  EXPECT_DOUBLE_EQ(s.equilibrium.damping, 100.0);
  EXPECT_DOUBLE_EQ(s.fluid.spacing, 0.01);
  EXPECT_DOUBLE_EQ(s.fluid.h_over_dx, 1.5);
  EXPECT_DOUBLE_EQ(s.fluid.rest_density, 1.2);
  EXPECT_DOUBLE_EQ(s.fluid.sound_speed, 300.0);
  EXPECT_EQ(s.fluid.kernel, KernelKind::CubicSpline);
  EXPECT_EQ(s.fluid.eos, EosKind::IdealGasAdiabatic);
  EXPECT_DOUBLE_EQ(s.fluid.viscosity, 0.1);
  EXPECT_DOUBLE_EQ(s.fluid.density_diffusion, 0.1);
  EXPECT_DOUBLE_EQ(s.fluid.background_pressure, 10.0);
  EXPECT_EQ(s.fluid.fill_min, (Vec3{0, 0, 0}));  // defaults to the room
  EXPECT_EQ(s.fluid.fill_max, (Vec3{0.5, 0.4, 0.3}));

  EXPECT_TRUE(s.room.present);
  EXPECT_EQ(s.room.max, (Vec3{0.5, 0.4, 0.3}));
  EXPECT_EQ(s.room.material, "soft");

  ASSERT_EQ(s.materials.size(), 3u);
  EXPECT_EQ(s.materials[0].name, "rigid");
  EXPECT_TRUE(s.materials[0].rigid);
  EXPECT_EQ(s.materials[1].name, "soft");
  EXPECT_FALSE(s.materials[1].rigid);
  EXPECT_DOUBLE_EQ(s.materials[1].stiffness, 1.2e4);
  EXPECT_DOUBLE_EQ(s.materials[1].damping, 0.0);
  EXPECT_TRUE(s.material("hard").rigid);
  EXPECT_THROW(s.material("nope"), SceneError);

  ASSERT_EQ(s.boundaries.size(), 2u);
  EXPECT_EQ(s.boundaries[0].name, "pillar");
  EXPECT_EQ(s.boundaries[0].shape, ShapeKind::Cylinder);
  EXPECT_EQ(s.boundaries[0].normal, (Vec3{0, 0, 1}));  // normalised
  EXPECT_DOUBLE_EQ(s.boundaries[0].radius, 0.02);
  EXPECT_DOUBLE_EQ(s.boundaries[0].height, 0.3);
  EXPECT_EQ(s.boundaries[0].material, "rigid");
  EXPECT_EQ(s.boundaries[1].shape, ShapeKind::Rectangle);
  EXPECT_DOUBLE_EQ(s.boundaries[1].normal.x, 0.6);
  EXPECT_DOUBLE_EQ(s.boundaries[1].normal.z, 0.8);
  EXPECT_DOUBLE_EQ(s.boundaries[1].width, 0.1);
  EXPECT_DOUBLE_EQ(s.boundaries[1].height, 0.05);
  EXPECT_EQ(s.boundaries[1].material, "hard");

  EXPECT_EQ(s.emitter.input, "sweep");
  EXPECT_TRUE(s.emitter.builtin);
  EXPECT_EQ(s.emitter.center, (Vec3{0.1, 0.2, 0.15}));
  EXPECT_EQ(s.emitter.normal, (Vec3{0, 1, 0}));
  EXPECT_DOUBLE_EQ(s.emitter.radius, 0.03);
  EXPECT_DOUBLE_EQ(s.emitter.deflection, 2e-5);
  EXPECT_EQ(s.emitter.drive, Drive::Velocity);

  ASSERT_EQ(s.receivers.size(), 2u);
  EXPECT_EQ(s.receivers[0].name, "left");
  EXPECT_EQ(s.receivers[1].name, "right");
  EXPECT_EQ(s.receivers[1].position, (Vec3{0.4, 0.3, 0.15}));

  EXPECT_EQ(s.output.dir, "results");
  EXPECT_FALSE(s.output.normalize);
  EXPECT_DOUBLE_EQ(s.output.progress_every, 1.0);

  // By hand: h = 1.5 * 0.01; support 2h; skin 0.2 dx; mass 1.2 * 0.01^3; dt_cfl = 0.4 h / 300
  // = 2e-5 s; the soft wall: omega = sqrt(1.2e4 / (1.2 * 0.01)) = 1000/s, bound 0.5/omega = 5e-4 s;
  // substeps = ceil(1 / (1e4 * 2e-5)) = 5; samples = 0.01 * 1e4 = 100; steps = 500;
  // rigid stiffness = 1.2 * 0.01 * (0.5 / 2e-5)^2 = 7.5e6 Pa/m; f_max = 300 / (PPW * 0.01), PPW
  // the measured points per wavelength of the cubic spline at h/dx = 1.5 (dispersion.hpp).
  const Derived& d = s.derived;
  EXPECT_DOUBLE_EQ(d.h, 0.015);
  EXPECT_DOUBLE_EQ(d.support, 0.03);
  EXPECT_DOUBLE_EQ(d.skin, 0.002);
  EXPECT_DOUBLE_EQ(d.halo_width, 0.032);
  EXPECT_DOUBLE_EQ(d.particle_mass, 1.2e-6);
  EXPECT_DOUBLE_EQ(d.dt_cfl, 2e-5);
  EXPECT_DOUBLE_EQ(d.dt_wall, 5e-4);
  EXPECT_EQ(d.substeps, 5);
  EXPECT_DOUBLE_EQ(d.dt, 2e-5);
  EXPECT_EQ(d.samples, 100);
  EXPECT_EQ(d.steps, 500);
  EXPECT_DOUBLE_EQ(d.rigid_stiffness, 7.5e6);
  EXPECT_DOUBLE_EQ(s.material("rigid").stiffness, 7.5e6);
  EXPECT_EQ(s.fluid.gradient_correction, GradientCorrection::FourthOrder);  // the default
  const double ppw = ppw_for_phase_error(GradientCorrection::FourthOrder, KernelKind::CubicSpline,
                                         1.5, kFmaxPhaseError);
  EXPECT_DOUBLE_EQ(d.ppw_min, ppw);
  EXPECT_DOUBLE_EQ(d.f_max_bulk, 300.0 / (ppw * 0.01));
  EXPECT_DOUBLE_EQ(d.f_max_walls, 300.0 / (kForceWallPpw * 0.01));
  EXPECT_DOUBLE_EQ(d.f_max, std::min(d.f_max_bulk, d.f_max_walls));
}

TEST(SceneParse, ReceiverGroupsAndOutputSwitches) {
  const std::string text = kFull +
                           "\n[receiver.l]\nposition = 0.1 0.3 0.1\ngroup = stereo\n"
                           "[receiver.r]\nposition = 0.2 0.1 0.1\ngroup = stereo\n";
  const Scene s = parse_scene(text, kPath, {{"output.lowpass", "false"}, {"output.energy", "on"}});
  ASSERT_GE(s.receivers.size(), 2u);
  EXPECT_EQ(s.receivers[s.receivers.size() - 2].group, "stereo");
  EXPECT_EQ(s.receivers.back().group, "stereo");
  EXPECT_TRUE(s.receivers.front().group.empty());
  EXPECT_FALSE(s.output.lowpass);
  EXPECT_TRUE(s.output.energy);
  const Scene d = parse_scene(kFull, kPath);
  EXPECT_TRUE(d.output.lowpass);
  EXPECT_FALSE(d.output.energy);
}

TEST(SceneErrors, GroupNameClashesWithAReceiver) {
  const std::string text = kFull + "\n[receiver.l]\nposition = 0.1 0.3 0.1\ngroup = l\n";
  expect_mentions(error_of(text), {at_line(text, "group = l"), "[receiver.l] group", "l.wav"});
}

TEST(SceneErrors, BadGroupName) {
  const std::string text = kFull + "\n[receiver.l]\nposition = 0.1 0.3 0.1\ngroup = a/b\n";
  expect_mentions(error_of(text), {at_line(text, "group = a/b"), "bad group name"});
}

// Receiver types: omni by default; ambisonic with or without binaural; binaural needs ambisonic;
// [output] hrtf resolves against the scene's directory and must exist.
TEST(SceneParse, ReceiverTypesAndBinaural) {
  const std::string text = kFull +
                           "\n[receiver.amb]\nposition = 0.1 0.3 0.1\ntype = ambisonic\n"
                           "binaural = true\n";
  const Scene s = parse_scene(text, kPath);
  EXPECT_EQ(s.receivers.front().type, ReceiverType::Omni);
  EXPECT_FALSE(s.receivers.front().binaural);
  EXPECT_EQ(s.receivers.back().type, ReceiverType::Ambisonic);
  EXPECT_TRUE(s.receivers.back().binaural);
  EXPECT_TRUE(s.output.hrtf.empty());
}

TEST(SceneErrors, BinauralNeedsAnAmbisonicReceiver) {
  const std::string text = kFull + "\n[receiver.b]\nposition = 0.1 0.3 0.1\nbinaural = true\n";
  expect_mentions(error_of(text),
                  {at_line(text, "binaural = true"), "[receiver.b] binaural", "type = ambisonic"});
  const std::string bad_type = kFull + "\n[receiver.b]\nposition = 0.1 0.3 0.1\ntype = stereo\n";
  expect_mentions(error_of(bad_type), {"[receiver.b] type", "omni, ambisonic"});
  expect_mentions(error_of(kFull, {{"output.hrtf", "no_such_hrtf.sofa"}}),
                  {"[output] hrtf", "no_such_hrtf.sofa"});
}

// The room's faces: mirror walls for rigid, broadband-absorbing and band-fitted materials (per
// face; band-fitted faces react with the fitted wall) where every face lies dx/2 beyond the
// lattice (0.99 m = 66 spacings of 15 mm), ghost walls of the box where one does not (1 m), force
// walls for springs under `auto`; `walls = mirror` and `ghost` refuse springs.
TEST(SceneParse, RoomFacesAndTheirWalls) {
  const std::string rooms = replace(kMinimal, "max = 1 1 1\n",
                                    "max = 0.99 0.99 0.99\nmaterial_z_min = carpet\n"
                                    "[material.carpet]\nabsorption = 0.5\n");
  const Scene s = parse_scene(rooms, kPath);
  EXPECT_EQ(s.room.face_material[4], "carpet");
  EXPECT_EQ(s.room.face_material[5], "rigid");
  EXPECT_TRUE(s.derived.mirror_room);
  EXPECT_FALSE(s.derived.ghost_room);
  // Off the lattice (1 m: 66.7 spacings): the box's ghost walls, no mirror images.
  const Scene off = parse_scene(rooms, kPath, {{"room.max", "1 1 1"}});
  EXPECT_FALSE(off.derived.mirror_room);
  EXPECT_TRUE(off.derived.ghost_room);
  EXPECT_TRUE(off.derived.ghost_walls);
  EXPECT_EQ(off.warnings.size(), s.warnings.size());  // the free disc's, as on the lattice
  // Given: ghost walls on the lattice too, mirror walls off it (with a warning).
  EXPECT_TRUE(parse_scene(rooms, kPath, {{"room.walls", "ghost"}}).derived.ghost_room);
  const Scene forced = parse_scene(rooms, kPath, {{"room.max", "1 1 1"}, {"room.walls", "mirror"}});
  EXPECT_TRUE(forced.derived.mirror_room);
  EXPECT_EQ(forced.warnings.size(), s.warnings.size() + 1);
  // R = zeta rho0 c with zeta = (1 + sqrt(0.5)) / (1 - sqrt(0.5)) (material.hpp eq. 3)
  const double zeta = (1.0 + std::sqrt(0.5)) / (1.0 - std::sqrt(0.5));
  EXPECT_NEAR(s.derived.room_admittance[4] * zeta * 1.204 * 343.0, 1.0, 1e-12);
  for (int f : {0, 1, 2, 3, 5}) EXPECT_EQ(s.derived.room_admittance[f], 0.0) << f;
  EXPECT_FALSE(parse_scene(rooms, kPath, {{"room.walls", "tethered"}}).derived.mirror_room);
  const std::string bands =
      replace(rooms, "absorption = 0.5", "absorption_bands = 0.1 0.2 0.3 0.4 0.5 0.5");
  EXPECT_FALSE(parse_scene(bands, kPath, {{"room.walls", "tethered"}}).derived.mirror_room);
  // auto (as mirror): the band-fitted face reacts with the fitted wall, the others stay rigid.
  EXPECT_EQ(parse_scene(bands, kPath).derived.room_reacting[4].mass,
            parse_scene(bands, kPath, {{"room.walls", "mirror"}}).derived.room_reacting[4].mass);
  const Scene reacting = parse_scene(bands, kPath);
  EXPECT_TRUE(reacting.derived.mirror_room);
  const WallImpedance& fitted = reacting.material("carpet").impedance;
  EXPECT_GT(fitted.mass, 0.0);
  EXPECT_EQ(reacting.derived.room_reacting[4].resistance, fitted.resistance);
  EXPECT_EQ(reacting.derived.room_reacting[4].mass, fitted.mass);
  EXPECT_EQ(reacting.derived.room_reacting[4].stiffness, fitted.stiffness);
  EXPECT_EQ(reacting.derived.room_admittance[4], 0.0);
  for (int f : {0, 1, 2, 3, 5}) EXPECT_EQ(reacting.derived.room_reacting[f].mass, 0.0) << f;
  const std::string springs = replace(rooms, "absorption = 0.5", "stiffness = 1e5");
  EXPECT_FALSE(parse_scene(springs, kPath).derived.mirror_room);  // auto: tethered
  expect_mentions(error_of(springs, {{"room.walls", "mirror"}}),
                  {"[room] walls", "carpet", "material_z_min", "stiffness"});
  expect_mentions(error_of(springs, {{"room.walls", "ghost"}}),
                  {"[room] walls", "ghost walls need", "material_z_min", "stiffness"});
  expect_mentions(error_of(kMinimal, {{"room.walls", "glass"}}), {"[room] walls", "glass"});
}

// A ghost-walled [boundary] panel lying on a face of a [room] on the lattice: `auto` builds the
// box as ghost walls (one solid with the panel), naming the panel; `walls = mirror` keeps the
// images and warns; a panel standing in front of the face (1 cm) leaves the mirror walls.
TEST(SceneParse, PanelOnARoomFaceMakesTheBoxGhostWalled) {
  const std::string rooms = replace(kMinimal, "max = 1 1 1\n",
                                    "max = 0.99 0.99 0.99\n[boundary.door]\nshape = rectangle\n"
                                    "center = 0.5 0.99 0.3\nnormal = 0 -1 0\nsize = 0.3 0.6\n");
  const Scene s = parse_scene(rooms, kPath);
  ASSERT_EQ(s.boundaries.size(), 1u);
  EXPECT_EQ(s.boundaries[0].wall, BoundaryWall::Ghost);
  EXPECT_FALSE(s.derived.mirror_room);
  EXPECT_TRUE(s.derived.ghost_room);
  EXPECT_EQ(s.derived.room_panel, "door");
  const Scene forced = parse_scene(rooms, kPath, {{"room.walls", "mirror"}});
  EXPECT_TRUE(forced.derived.mirror_room);
  EXPECT_TRUE(forced.derived.room_panel.empty());
  bool warned = false;
  for (const std::string& w : forced.warnings)
    warned = warned || (w.find("[boundary.door] is a ghost-walled panel lying on a face") !=
                            std::string::npos &&
                        w.find("walls = auto") != std::string::npos);
  EXPECT_TRUE(warned);
  EXPECT_EQ(forced.warnings.size(), s.warnings.size() + 1);
  const Scene in_front = parse_scene(rooms, kPath, {{"boundary.door.center", "0.5 0.98 0.3"}});
  EXPECT_TRUE(in_front.derived.mirror_room);
  EXPECT_TRUE(in_front.derived.room_panel.empty());
}

// The emitter disc on a mirror face is a velocity boundary of it: with no other force wall the
// force walls' limit is gone and f_max is the air's; a tethered room, a tethered boundary, a disc
// in the air or of an absorbing material keep it (c / (kForceWallPpw dx)).
TEST(SceneDerived, TheForceWallLimitOnlyWhereThereAreForceWalls) {
  const std::string on_face =
      replace(replace(kMinimal, "center = 0.2 0.5 0.5", "center = 0.008 0.5 0.5"), "max = 1 1 1",
              "max = 0.99 0.99 0.99");
  const Scene s = parse_scene(on_face, kPath);
  EXPECT_EQ(s.derived.emitter_face, 0);
  EXPECT_TRUE(std::isinf(s.derived.f_max_walls));
  EXPECT_EQ(s.derived.f_max, s.derived.f_max_bulk);
  const Scene high = parse_scene(
      on_face, kPath, {{"emitter.center", "0.5 0.5 0.982"}, {"emitter.normal", "0 0 -1"}});
  EXPECT_EQ(high.derived.emitter_face, 5);
  // A room off the lattice: the disc is a velocity boundary of the box's ghost walls.
  const Scene ghost = parse_scene(on_face, kPath, {{"room.max", "1 1 1"}});
  EXPECT_TRUE(ghost.derived.ghost_room);
  EXPECT_EQ(ghost.derived.emitter_face, -1);
  EXPECT_TRUE(std::isinf(ghost.derived.f_max_walls));
  const double walls = s.fluid.sound_speed / (kForceWallPpw * s.fluid.spacing);
  const auto expect_force_wall = [&](const Scene& t, int face) {
    EXPECT_EQ(t.derived.emitter_face, face);
    EXPECT_DOUBLE_EQ(t.derived.f_max_walls, walls);
    EXPECT_DOUBLE_EQ(t.derived.f_max, std::min(t.derived.f_max_bulk, walls));
  };
  expect_force_wall(parse_scene(kMinimal, kPath), -1);  // the disc in the air
  expect_force_wall(parse_scene(on_face, kPath, {{"room.walls", "tethered"}}), -1);
  expect_force_wall(parse_scene(on_face + "[material.soft]\nabsorption = 0.5\n", kPath,
                                {{"emitter.material", "soft"}}),
                    -1);
  expect_force_wall(
      parse_scene(on_face + "[boundary.plate]\nshape = rectangle\ncenter = 0.5 0.5 0.5\n"
                            "normal = 0 0 1\nsize = 0.1 0.1\n",
                  kPath),
      0);
}

// The hyperdiffusion's explicit step bound eps c lambda^2 / dx * dt <= 1 is checked and named.
TEST(SceneErrors, HyperdiffusionAboveItsStabilityBound) {
  const Scene s = parse_scene(kMinimal, kPath);
  EXPECT_EQ(s.fluid.hyperdiffusion, 0.002);
  const double lam = laplacian_symbol_max(s.fluid.kernel, s.fluid.h_over_dx);
  const double eps_max =
      s.fluid.spacing / (s.fluid.sound_speed * lam * lam * kHyperdiffusionEvery * s.derived.dt);
  EXPECT_NO_THROW(parse_scene(kMinimal, kPath, {{"fluid.hyperdiffusion", "0"}}));
  expect_mentions(error_of(kMinimal, {{"fluid.hyperdiffusion", std::to_string(1.01 * eps_max)}}),
                  {"[fluid] hyperdiffusion", "unstable", "at most"});
  EXPECT_NO_THROW(
      parse_scene(kMinimal, kPath, {{"fluid.hyperdiffusion", std::to_string(0.99 * eps_max)}}));
  // The velocity's filter (off by default) has the same bound.
  EXPECT_EQ(s.fluid.hyperviscosity, 0.0);
  expect_mentions(error_of(kMinimal, {{"fluid.hyperviscosity", std::to_string(1.01 * eps_max)}}),
                  {"[fluid] hyperviscosity", "unstable", "at most"});
  EXPECT_NO_THROW(
      parse_scene(kMinimal, kPath, {{"fluid.hyperviscosity", std::to_string(0.99 * eps_max)}}));
}

TEST(SceneParse, DefaultsApply) {
  const Scene s = parse_scene(kMinimal, kPath);
  const TimeSpec t;
  const FluidSpec f;
  EXPECT_EQ(s.time.sample_rate, t.sample_rate);
  EXPECT_EQ(s.time.duration, t.duration);
  EXPECT_EQ(s.time.cfl, t.cfl);
  EXPECT_EQ(s.equilibrium.energy, EquilibriumSpec{}.energy);
  EXPECT_EQ(s.equilibrium.max_steps, EquilibriumSpec{}.max_steps);
  EXPECT_EQ(s.fluid.spacing, f.spacing);
  EXPECT_EQ(s.fluid.h_over_dx, f.h_over_dx);
  EXPECT_EQ(s.fluid.kernel, KernelKind::WendlandC2);
  EXPECT_EQ(s.fluid.eos, EosKind::Linear);
  EXPECT_EQ(s.fluid.fill_max, (Vec3{1, 1, 1}));
  EXPECT_EQ(s.room.material, "rigid");
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_EQ(s.emitter.normal, (Vec3{1, 0, 0}));
  EXPECT_EQ(s.emitter.radius, EmitterSpec{}.radius);
  EXPECT_EQ(s.emitter.deflection, EmitterSpec::kAccelerationDeflection);  // default drive
  EXPECT_EQ(s.emitter.drive, Drive::Acceleration);
  EXPECT_EQ(s.emitter.highpass, 20.0);
  EXPECT_EQ(s.emitter.material, "rigid");
  EXPECT_EQ(s.output.dir, "out");
  EXPECT_TRUE(s.output.normalize);
  EXPECT_EQ(s.output.progress_every, OutputSpec{}.progress_every);
  // h = 1.3 * 0.015 = 0.0195 m; dt_cfl = 0.3 h / 343 = 1.7055e-5 s < 1/44100 = 2.268e-5 s, so
  // 2 substeps; samples = round(0.05 * 44100) = 2205; steps = 4410; no non-rigid wall.
  EXPECT_DOUBLE_EQ(s.derived.h, 0.0195);
  EXPECT_DOUBLE_EQ(s.derived.dt_cfl, 0.3 * 0.0195 / 343.0);
  EXPECT_TRUE(std::isinf(s.derived.dt_wall));
  EXPECT_EQ(s.derived.substeps, 2);
  EXPECT_DOUBLE_EQ(s.derived.dt, 1.0 / 88200.0);
  EXPECT_EQ(s.derived.samples, 2205);
  EXPECT_EQ(s.derived.steps, 4410);
}

TEST(SceneParse, OverridesReplaceValuesAndAddReceivers) {
  const std::map<std::string, std::string> ov = {{"fluid.spacing", "0.02"},
                                                 {"receiver.left.position", "0.3 0.1 0.1"},
                                                 {"receiver.extra.position", "0.2 0.2 0.2"},
                                                 {"time.substeps", "12"},
                                                 {"output.dir", "elsewhere"}};
  const Scene s = parse_scene(kFull, kPath, ov);
  EXPECT_EQ(s.overrides, ov);
  EXPECT_DOUBLE_EQ(s.fluid.spacing, 0.02);
  EXPECT_DOUBLE_EQ(s.derived.h, 0.03);
  EXPECT_EQ(s.time.substeps, 12);
  EXPECT_EQ(s.derived.substeps, 12);
  EXPECT_EQ(s.derived.steps, 1200);
  EXPECT_EQ(s.output.dir, "elsewhere");
  ASSERT_EQ(s.receivers.size(), 3u);
  EXPECT_EQ(s.receivers[0].position, (Vec3{0.3, 0.1, 0.1}));
  EXPECT_EQ(s.receivers[2].name, "extra");
  EXPECT_EQ(s.receivers[2].position, (Vec3{0.2, 0.2, 0.2}));
}

TEST(SceneParse, OverrideValuesAreValidatedLikeFileValues) {
  const std::string message = error_of(kFull, {{"fluid.spacing", "-1"}});
  expect_mentions(message, {kPath, "(command line)", "spacing", "(0, 1] m"});
}

TEST(SceneParse, StiffAndDampedWallsLimitTheTimeStep) {
  // omega = sqrt(1.2e8 / 0.012) = 1e5/s: bound 5e-6 s, so substeps = 1e-4 / 5e-6 = 20.
  Scene s = parse_scene(replace(kFull, "stiffness = 1.2e4", "stiffness = 1.2e8"), kPath);
  EXPECT_DOUBLE_EQ(s.derived.dt_wall, 5e-6);
  EXPECT_EQ(s.derived.substeps, 20);
  // An added mass of 0.108 kg/m^2 makes the areal mass 0.12: omega = sqrt(1.2e8 / 0.12) = 3.16e4/s.
  s = parse_scene(replace(kFull, "stiffness = 1.2e4", "stiffness = 1.2e8\nmass = 0.108"), kPath);
  EXPECT_DOUBLE_EQ(s.materials[1].mass, 0.108);
  EXPECT_NEAR(s.derived.dt_wall, 0.5 / std::sqrt(1e9), 1e-15);
  // The damper is implicit (boundary.hpp): however strong, it sets no bound.
  s = parse_scene(replace(kFull, "damping = 0\n", "damping = 1e7\n"), kPath);
  EXPECT_DOUBLE_EQ(s.derived.dt_wall, 5e-4);
  EXPECT_EQ(s.derived.substeps, 5);  // the CFL bound's 2e-5 s
}

TEST(SceneParse, ExplicitFillBoxWithoutRoom) {
  // Closed by six plates; without them its air would face nothing (an error naming the face).
  const std::string open = replace(kMinimal, "[room]\nmin = 0 0 0\nmax = 1 1 1\n",
                                   "[fluid]\nfill_min = 0 0 0\nfill_max = 1 1 1\n");
  const Scene s = parse_scene(
      open +
          "[boundary.x0]\nshape = rectangle\ncenter = 0 0.5 0.5\nnormal = 1 0 0\nsize = 1 "
          "1\n[boundary.x1]\nshape = rectangle\ncenter = 1 0.5 0.5\nnormal = -1 0 0\nsize = 1 "
          "1\n[boundary.y0]\nshape = rectangle\ncenter = 0.5 0 0.5\nnormal = 0 1 0\nsize = 1 "
          "1\n[boundary.y1]\nshape = rectangle\ncenter = 0.5 1 0.5\nnormal = 0 -1 0\nsize = 1 "
          "1\n[boundary.z0]\nshape = rectangle\ncenter = 0.5 0.5 0\nnormal = 0 0 1\nsize = 1 "
          "1\n[boundary.z1]\nshape = rectangle\ncenter = 0.5 0.5 1\nnormal = 0 0 -1\nsize = 1 1\n",
      kPath);
  EXPECT_FALSE(s.room.present);
  EXPECT_EQ(s.fluid.fill_max, (Vec3{1, 1, 1}));
  EXPECT_NE(error_of(open).find("the fill box's face x_min (x = 0 m): 100 %"), std::string::npos)
      << error_of(open);
}

TEST(SceneParse, BooleanSpellings) {
  for (const char* yes : {"true", "yes", "1", "on", "True"}) {
    EXPECT_TRUE(
        parse_scene(kMinimal + "[output]\nnormalize = " + yes + "\n", kPath).output.normalize)
        << yes;
  }
  for (const char* no : {"false", "no", "0", "off"}) {
    EXPECT_FALSE(
        parse_scene(kMinimal + "[output]\nnormalize = " + no + "\n", kPath).output.normalize)
        << no;
  }
}

// Every name the schema lists for an enumerated key parses into its enumerator, and the name
// written back (summary.json, checkpoints, the reference) is the one read; the schema row lists
// exactly those names.
template <class E, class Get>
void expect_names_round_trip(const char* dotted, const Names<E>& names, Get get) {
  const std::string text(dotted);
  const std::string section = text.substr(0, text.find('.')), key = text.substr(text.find('.') + 1);
  const KeySpec* row = nullptr;
  for (const KeySpec& k : scene_schema())
    if (k.section == section && k.key == key) row = &k;
  ASSERT_NE(row, nullptr) << dotted;
  ASSERT_EQ(row->names.size(), names.size()) << dotted;
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(row->names[i], names[i].first) << dotted;
    const Scene s = parse_scene(kMinimal, kPath, {{dotted, names[i].first}});
    EXPECT_TRUE(get(s) == names[i].second) << dotted << " = " << names[i].first;
    EXPECT_STREQ(to_string(get(s)), names[i].first) << dotted;
  }
}

TEST(SceneParse, EnumNamesRoundTrip) {
  expect_names_round_trip("fluid.kernel", kernel_names(),
                          [](const Scene& s) { return s.fluid.kernel; });
  expect_names_round_trip("fluid.eos", eos_names(), [](const Scene& s) { return s.fluid.eos; });
  expect_names_round_trip("fluid.gradient_correction", gradient_names(),
                          [](const Scene& s) { return s.fluid.gradient_correction; });
  expect_names_round_trip("emitter.drive", drive_names(),
                          [](const Scene& s) { return s.emitter.drive; });
  expect_names_round_trip("room.walls", room_wall_names(),
                          [](const Scene& s) { return s.room.walls; });
}

TEST(SceneLoad, ReadsFileAndResolvesWavAgainstSceneDir) {
  TempDir tmp;
  tmp.write("music.wav", "not really a wav; the parser only checks it is readable");
  const std::string path =
      tmp.write("scene.ini", replace(kFull, "input = sweep", "input = music.wav"));
  const Scene s = load_scene(path);
  EXPECT_EQ(s.path, path);
  EXPECT_FALSE(s.emitter.builtin);
  EXPECT_EQ(fs::path(s.emitter.input), tmp.path() / "music.wav");
}

// ---- bad input: one test per class --------------------------------------------------------------

TEST(SceneErrors, UnknownKey) {
  const std::string text = replace(kFull, "cfl = 0.4", "cfl = 0.4\nclf = 0.5");
  expect_mentions(error_of(text),
                  {at_line(text, "clf = 0.5"), "[time] clf", "unknown key", "sample_rate"});
}

TEST(SceneErrors, UnknownSection) {
  const std::string text = kFull + "\n[foo]\nbar = 1\n";
  expect_mentions(error_of(text), {at_line(text, "[foo]"), "[foo]", "unknown section"});
}

TEST(SceneErrors, BadNumber) {
  expect_bad_line("spacing = 0.01", "spacing = abc", {"[fluid] spacing", "not a number"});
}

TEST(SceneErrors, NaN) {
  expect_bad_line("spacing = 0.01", "spacing = nan", {"[fluid] spacing", "finite"});
  expect_bad_line("sound_speed = 300", "sound_speed = inf", {"[fluid] sound_speed", "finite"});
}

TEST(SceneErrors, TrailingJunk) {
  expect_bad_line("cfl = 0.4", "cfl = 1.0abc", {"[time] cfl", "1.0abc", "not a number"});
  expect_bad_line("max_steps = 500", "max_steps = 5.5", {"[equilibrium] max_steps", "integer"});
}

TEST(SceneErrors, WrongVectorLength) {
  expect_bad_line("position = 0.4 0.1 0.15", "position = 0.4 0.1",
                  {"[receiver.left] position", "expected 3 numbers"});
  expect_bad_line("max = 0.5 0.4 0.3", "max = 0.5 0.4 0.3 1", {"[room] max", "expected 3 numbers"});
  expect_bad_line("size = 0.1 0.05", "size = 0.1", {"[boundary.panel] size", "expected 2 numbers"});
}

TEST(SceneErrors, OutOfRange) {
  expect_bad_line("spacing = 0.01", "spacing = -1", {"[fluid] spacing", "(0, 1] m"});
  expect_bad_line("sample_rate = 10000", "sample_rate = 10",
                  {"[time] sample_rate", "[1000, 384000] Hz"});
  expect_bad_line("h_over_dx = 1.5", "h_over_dx = 5", {"[fluid] h_over_dx", "[1, 3]"});
  // The fourth-order gradient needs the second axis neighbour inside the support.
  const std::string at_one = replace(kFull, "h_over_dx = 1.5", "h_over_dx = 1");
  expect_mentions(error_of(at_one), {"[fluid]", "gradient_correction", "h_over_dx > 1"});
  const std::string first = replace(at_one, "kernel = cubic_spline",
                                    "kernel = cubic_spline\ngradient_correction = first_moment");
  EXPECT_EQ(parse_scene(first, kPath).fluid.gradient_correction, GradientCorrection::FirstMoment);
  expect_bad_line("radius = 0.03", "radius = 11", {"[emitter] radius", "(0, 10] m"});
}

TEST(SceneErrors, MissingRequiredKey) {
  const std::string text = replace(kFull, "shape = cylinder\n", "");
  expect_mentions(error_of(text),
                  {at_line(text, "[boundary.pillar]"), "[boundary.pillar]", "shape", "missing"});
  const std::string no_center = replace(kFull, "center = 0.1 0.2 0.15\n", "");
  expect_mentions(error_of(no_center),
                  {at_line(no_center, "[emitter]"), "[emitter]", "center", "missing"});
  const std::string no_height = replace(kFull, "height = 0.3\n", "");
  expect_mentions(error_of(no_height), {at_line(no_height, "[boundary.pillar]"), "height"});
}

TEST(SceneErrors, MissingFile) {
  TempDir tmp;
  const std::string path = (tmp.path() / "nope.ini").string();
  try {
    load_scene(path);
    ADD_FAILURE() << "no error";
  } catch (const SceneError& e) {
    expect_mentions(e.what(), {path, "no such file"});
  }
}

TEST(SceneErrors, EmptyFile) {
  TempDir tmp;
  for (const std::string content : {"", "  \n\n", "# only a comment\n; and another\n"}) {
    const std::string path = tmp.write("empty.ini", content);
    try {
      load_scene(path);
      ADD_FAILURE() << "no error for '" << content << "'";
    } catch (const SceneError& e) {
      expect_mentions(e.what(), {path, "empty"});
    }
  }
}

TEST(SceneErrors, BrokenIniLine) {
  const std::string text = replace(kFull, "cfl = 0.4", "cfl 0.4");
  expect_mentions(error_of(text), {at_line(text, "cfl 0.4"), "cfl 0.4", "key = value"});
  const std::string unterminated = replace(kFull, "[fluid]", "[fluid");
  expect_mentions(error_of(unterminated),
                  {at_line(unterminated, "[fluid"), "[fluid", "unterminated"});
  const std::string before = "spacing = 0.01\n" + kFull;
  expect_mentions(error_of(before), {kPath + ":1:", "spacing", "before any [section]"});
  const std::string empty_value = replace(kFull, "cfl = 0.4", "cfl =");
  expect_mentions(error_of(empty_value),
                  {at_line(empty_value, "cfl ="), "[time] cfl", "empty value"});
}

TEST(SceneErrors, DuplicateKey) {
  const std::string text = replace(kFull, "cfl = 0.4", "cfl = 0.4\ncfl = 0.5");
  expect_mentions(error_of(text), {at_line(text, "cfl = 0.5"), "[time] cfl", "duplicate",
                                   "line " + std::to_string(line_of(text, "cfl = 0.4"))});
  const std::string twice = kFull + "[time]\ncfl = 0.5\n";
  const auto header_line = 1 + std::count(kFull.begin(), kFull.end(), '\n');
  expect_mentions(error_of(twice),
                  {kPath + ":" + std::to_string(header_line) + ":", "[time]", "twice"});
}

TEST(SceneErrors, UnknownEnumName) {
  expect_bad_line("kernel = cubic_spline", "kernel = gaussian",
                  {"[fluid] kernel", "wendland_c2", "cubic_spline"});
  expect_bad_line("shape = cylinder", "shape = sphere",
                  {"[boundary.pillar] shape", "rectangle, disc, cylinder"});
  expect_bad_line("drive = velocity", "drive = force",
                  {"[emitter] drive", "displacement, velocity, acceleration"});
  expect_bad_line("eos = ideal_gas", "eos = tait", {"[fluid] eos", "linear, ideal_gas"});
  expect_bad_line("kernel = cubic_spline", "gradient_correction = true",
                  {"[fluid] gradient_correction", "none, first_moment, fourth_order"});
  expect_bad_line("normalize = no", "normalize = maybe", {"[output] normalize", "true, false"});
}

TEST(SceneErrors, ReceiverOutsideAir) {
  expect_bad_line("position = 0.4 0.3 0.15", "position = 0.4 0.5 0.15",
                  {"[receiver.right] position", "fill box", "0.5 0.4 0.3"});
  // Inside the box but closer than dx/2 = 0.005 m to a face.
  expect_bad_line("position = 0.4 0.3 0.15", "position = 0.4 0.398 0.15",
                  {"[receiver.right] position", "dx/2"});
}

TEST(SceneErrors, EmitterOutsideAir) {
  expect_bad_line("center = 0.1 0.2 0.15", "center = -0.1 0.2 0.15",
                  {"[emitter] center", "fill box"});
}

TEST(SceneErrors, RoomThinnerThanHaloWidth) {
  // spacing 0.1: halo_width = 2 * 1.5 * 0.1 + 0.2 * 0.1 = 0.32 m; 2 * 0.32 > 0.3 m (room z side).
  // The receivers and emitter are checked after the box, so this is the first error.
  const std::string text = replace(kFull, "spacing = 0.01", "spacing = 0.1");
  expect_mentions(error_of(text), {at_line(text, "max = 0.5 0.4 0.3"), "[room] max", "thinner",
                                   "halo_width", "spacing"});
  const std::string fill = replace(kFull, "skin = 0.2", "skin = 0.2\nfill_max = 0.5 0.4 0.05");
  expect_mentions(error_of(fill), {at_line(fill, "fill_max"), "[fluid] fill_max", "thinner"});
}

TEST(SceneErrors, UnknownMaterialReference) {
  expect_bad_line("material = hard", "material = glass",
                  {"[boundary.panel] material", "unknown material", "glass"});
  expect_bad_line("material = soft", "material = felt", {"[room] material", "felt"});
}

TEST(SceneErrors, AbsorptionForms) {
  expect_bad_line("absorption = 0", "absorption = 1", {"[material.hard] absorption", "[0, 1)"});
  expect_bad_line("absorption = 0", "absorption = -0.1", {"[material.hard] absorption", "[0, 1)"});
  const std::string both = replace(kFull, "absorption = 0", "absorption = 0\nstiffness = 1e5");
  expect_mentions(error_of(both),
                  {at_line(both, "absorption = 0"), "[material.hard] absorption", "not both"});
  const std::string mass =
      replace(kFull, "absorption = 0", "absorption_bands = 0 0 0 0 0 0\nmass = 1");
  expect_mentions(error_of(mass), {"[material.hard] absorption_bands", "not both"});
  const std::string two =
      replace(kFull, "absorption = 0", "absorption = 0\nabsorption_bands = 0 0 0 0 0 0");
  expect_mentions(error_of(two),
                  {at_line(two, "absorption_bands"), "absorption_bands", "not both"});
  expect_bad_line("absorption = 0", "absorption_bands = 0.1 0.2 0.3",
                  {"[material.hard] absorption_bands", "expected 6 numbers", "got 3"});
  expect_bad_line("absorption = 0", "absorption_bands = 0.1 0.2 0.3 0.4 0.5 1.5",
                  {"[material.hard] absorption_bands", "[0, 1)"});
  expect_bad_line("absorption = 0", "absorption_bands = 0.1 0.2 x 0.4 0.5 0.6",
                  {"[material.hard] absorption_bands", "'x' is not a number"});
  const std::string rigid = kFull + "[material.rigid]\nabsorption = 0\n";
  expect_mentions(error_of(rigid),
                  {at_line(rigid, "[material.rigid]"), "[material.rigid]", "built in"});
}

// absorption = alpha maps to the hard resistive wall of material.hpp eq. (3), shared among the
// tethered layers (h = 1.5 dx: one layer); all-zero bands are rigid; bands are fitted.
TEST(SceneParse, AbsorptionMapsToAResistiveWall) {
  Scene s = parse_scene(replace(kFull, "absorption = 0", "absorption = 0.75"), kPath);
  const MaterialSpec& m = s.material("hard");
  EXPECT_FALSE(m.rigid);
  ASSERT_EQ(m.absorption.size(), 1u);
  // sqrt(1 - 0.75) = 0.5: zeta = 1.5 / 0.5 = 3, R = 3 rho0 c = 3 * 1.2 * 300.
  EXPECT_NEAR(m.damping, 3.0 * 1.2 * 300.0, 1e-9);
  EXPECT_NEAR(m.impedance.resistance, 1080.0, 1e-9);
  EXPECT_DOUBLE_EQ(m.impedance.mass, 1.2 * 0.01);  // the tethered layer only
  EXPECT_DOUBLE_EQ(m.mass, 0.0);
  EXPECT_GT(m.stiffness, 0.0);
  // Its spring does not limit the step (omega = sqrt(K / 0.012) << 0.5 / dt).
  EXPECT_GT(s.derived.dt_wall, s.derived.dt_cfl);

  s = parse_scene(replace(kFull, "absorption = 0", "absorption_bands = 0 0 0 0 0 0"), kPath);
  EXPECT_TRUE(s.material("hard").rigid);

  s = parse_scene(replace(kFull, "absorption = 0", "absorption_bands = 0.3 0.3 0.3 0.3 0.3 0.3"),
                  kPath);
  const MaterialSpec& b = s.material("hard");
  EXPECT_FALSE(b.rigid);
  EXPECT_LT(b.fit_rms, 0.01);
  EXPECT_NEAR(normal_absorption(b.impedance.at(2 * M_PI * 500.0) / (1.2 * 300.0)), 0.3, 0.01);
}

// h = 1.6 dx tethers two lattice layers: each gets half the wall's resistance.
TEST(SceneParse, AbsorptionIsSharedAmongTetheredLayers) {
  const Scene s = parse_scene(replace(replace(kFull, "absorption = 0", "absorption = 0.75"),
                                      "h_over_dx = 1.5", "h_over_dx = 1.6"),
                              kPath);
  EXPECT_NEAR(s.material("hard").damping, 540.0, 1e-9);
  EXPECT_DOUBLE_EQ(s.material("hard").impedance.mass, 2 * 1.2 * 0.01);
}

TEST(SceneErrors, SubstepsTooSmallForCfl) {
  // dt_cfl = 2e-5 s at 1e4 Hz needs 5 substeps; 4 gives dt = 2.5e-5 s.
  const std::string text = replace(kFull, "cfl = 0.4", "cfl = 0.4\nsubsteps = 4");
  expect_mentions(error_of(text), {at_line(text, "substeps = 4"), "[time] substeps", "at least 5"});
  EXPECT_EQ(
      parse_scene(replace(kFull, "cfl = 0.4", "cfl = 0.4\nsubsteps = 5"), kPath).derived.substeps,
      5);
}

TEST(SceneErrors, OverrideOfUnknownKey) {
  expect_mentions(error_of(kFull, {{"fluid.spcing", "0.1"}}),
                  {kPath, "(command line)", "fluid.spcing", "unknown key"});
  expect_mentions(error_of(kFull, {{"foo.bar", "1"}}), {"(command line)", "foo.bar"});
}

TEST(SceneErrors, KeyNotOfTheShape) {
  const std::string text = replace(kFull, "size = 0.1 0.05", "size = 0.1 0.05\nradius = 0.1");
  expect_mentions(error_of(text),
                  {at_line(text, "radius = 0.1"), "[boundary.panel] radius", "rectangle"});
}

TEST(SceneErrors, ZeroNormal) {
  expect_bad_line("normal = 3 0 4", "normal = 0 0 0", {"[boundary.panel] normal", "zero"});
}

TEST(SceneErrors, NoReceiverAndNoEmitter) {
  const std::string text = replace(replace(kFull, "[receiver.left]\nposition = 0.4 0.1 0.15\n", ""),
                                   "[receiver.right]\nposition = 0.4 0.3 0.15\n", "");
  expect_mentions(error_of(text), {kPath, "receiver"});
  const std::string no_emitter = replace(kFull,
                                         "[emitter]\ninput = sweep\ncenter = 0.1 0.2 0.15\n"
                                         "normal = 0 1 0\nradius = 0.03\ndeflection = 2e-5\n"
                                         "drive = velocity\n",
                                         "");
  expect_mentions(error_of(no_emitter), {kPath, "no [emitter] section"});
}

TEST(SceneErrors, CheckpointAndSnapshotKeys) {
  expect_bad_line("checkpoint_every = 0", "checkpoint_every = -1",
                  {"[output] checkpoint_every", "[0, 3600] s"});
  expect_bad_line("checkpoint_every = 0", "keep_checkpoints = 0",
                  {"[output] keep_checkpoints", "[1, "});
  expect_bad_line("checkpoint_every = 0", "keep_checkpoints = 1.5",
                  {"[output] keep_checkpoints", "not an integer"});
  expect_bad_line("checkpoint_every = 0", "snapshot_every = 1e5",
                  {"[output] snapshot_every", "[0, 3600] s"});
  expect_bad_line("checkpoint_every = 0", "snapshot_fields = density speed",
                  {"[output] snapshot_fields", "unknown field 'speed'", "pressure"});
  expect_bad_line("checkpoint_every = 0", "snapshot_fields = rank rank",
                  {"[output] snapshot_fields", "twice"});
}

TEST(Scene, CheckpointAndSnapshotKeys) {
  const Scene d = parse_scene(replace(kFull, "checkpoint_every = 0\n", ""), kPath);
  EXPECT_EQ(d.output.checkpoint_every, 0.01);
  EXPECT_EQ(d.output.keep_checkpoints, 2);
  EXPECT_EQ(d.output.snapshot_every, 0.0);
  EXPECT_EQ(d.output.snapshot_fields,
            (std::vector<std::string>{"density", "pressure", "velocity"}));
  const Scene s =
      parse_scene(replace(kFull, "checkpoint_every = 0\n",
                          "checkpoint_every = 0.5\nkeep_checkpoints = 7\nsnapshot_every = 0.001\n"
                          "snapshot_fields = rank velocity\n"),
                  kPath);
  EXPECT_EQ(s.output.checkpoint_every, 0.5);
  EXPECT_EQ(s.output.keep_checkpoints, 7);
  EXPECT_EQ(s.output.snapshot_every, 0.001);
  EXPECT_EQ(s.output.snapshot_fields, (std::vector<std::string>{"rank", "velocity"}));
}

TEST(SceneErrors, MissingWavInput) {
  TempDir tmp;
  const std::string path =
      tmp.write("scene.ini", replace(kFull, "input = sweep", "input = missing.wav"));
  try {
    load_scene(path);
    ADD_FAILURE() << "no error";
  } catch (const SceneError& e) {
    expect_mentions(e.what(), {path + ":", "[emitter] input", (tmp.path() / "missing.wav").string(),
                               "does not exist"});
  }
}

TEST(SceneErrors, FillBoxRequiredWithoutRoom) {
  const std::string text = replace(kMinimal, "[room]\nmin = 0 0 0\nmax = 1 1 1\n", "");
  expect_mentions(error_of(text), {kPath, "fill_min", "fill_max", "[room]"});
}

}  // namespace
}  // namespace sphreverb

namespace sphreverb {
namespace {

// [emitter.NAME] sources and keyframed paths: parsed in file order with their defaults; [emitter]
// and [emitter.NAME] share a prefix without clashing; each bad path names the section and the
// keyframe.
TEST(SceneParse, SourcesAndPaths) {
  const std::string text = kFull +
                           "\n[emitter.a]\nposition = 0.35 0.3 0.15\nlevel = 2\n"
                           "[emitter.b]\npath = 0 0.3 0.1 0.2; 0.01 0.45 0.1 0.2\n"
                           "interpolation = smooth\ngain = 0.5\n"
                           "[receiver.walk]\npath = 0 0.4 0.2 0.05; 0.02 0.4 0.35 0.05\n";
  const Scene s = parse_scene(text, kPath);
  ASSERT_EQ(s.sources.size(), 2u);
  EXPECT_EQ(s.sources[0].name, "a");
  EXPECT_EQ(s.sources[0].path.size(), 1u);
  EXPECT_DOUBLE_EQ(s.sources[0].level, 2.0);
  EXPECT_DOUBLE_EQ(s.sources[0].width, 1.5);
  EXPECT_EQ(s.sources[0].input, "impulse");
  EXPECT_EQ(s.sources[1].path.size(), 2u);
  EXPECT_EQ(s.sources[1].interpolation, PathInterpolation::Smooth);
  EXPECT_DOUBLE_EQ(s.sources[1].gain, 0.5);
  EXPECT_DOUBLE_EQ(s.emitter.gain, 1.0);
  const ReceiverSpec& walk = s.receivers.back();
  ASSERT_EQ(walk.path.size(), 2u);
  EXPECT_EQ(walk.position, (Vec3{0.4, 0.2, 0.05}));
}

TEST(SceneErrors, BadPaths) {
  const auto with = [&](const std::string& path) {
    return kFull + "\n[emitter.car]\npath = " + path + "\n";
  };
  std::string t = with("0 0.3 0.1 0.2; 0.01 0.4 0.1 0.2; 0.01 0.45 0.1 0.2");
  expect_mentions(error_of(t), {at_line(t, "path ="), "[emitter.car] path", "keyframe 3",
                                "times must increase"});
  t = with("0 0.3 0.1 0.2; 0.01 0.6 0.1 0.2");
  expect_mentions(error_of(t), {"[emitter.car] path", "keyframe 2", "leaves the air"});
  t = with("0 0.3 0.1 0.2; 0.001 0.45 0.1 0.2");  // 150 m/s, c = 300 m/s
  expect_mentions(error_of(t), {"[emitter.car] path", "keyframe 1", "above the limit 0.3 c"});
  t = with("0 0.15 0.2 0.1; 0.01 0.35 0.2 0.1");
  expect_mentions(error_of(t), {"the segment from keyframe 1", "crosses [boundary.pillar]"});
  t = with("0 0.3 0.5; 0.01 0.6 0.5 0.5");
  expect_mentions(error_of(t), {"keyframe 1", "needs 4 numbers"});
  t = kFull + "\n[emitter.car]\n";
  expect_mentions(error_of(t), {"[emitter.car]", "position", "or a path"});
  t = kFull + "\n[emitter.car]\nposition = 0.35 0.3 0.15\ntype = dipole\n";
  expect_mentions(error_of(t), {"[emitter.car] type", "monopole"});
}

// [boundary.NAME] path: a moving object's centre; center defaults to (and must equal) the first
// keyframe; its path is checked like a source's (fill box, speed), not against the surfaces.
TEST(SceneParse, MovingObject) {
  const std::string door =
      "\n[boundary.door]\nshape = rectangle\nnormal = 1 0 0\nsize = 0.1 0.1\n"
      "interpolation = smooth\npath = 0 0.3 0.2 0.15; 0.1 0.35 0.2 0.15\n";
  const Scene s = parse_scene(kFull + door, kPath);
  const BoundarySpec& b = s.boundaries.back();
  EXPECT_EQ(b.name, "door");
  ASSERT_EQ(b.path.size(), 2u);
  EXPECT_EQ(b.center, (Vec3{0.3, 0.2, 0.15}));
  EXPECT_EQ(b.interpolation, PathInterpolation::Smooth);
  const auto with = [&](const std::string& path) {
    return kFull +
           "\n[boundary.door]\nshape = disc\nnormal = 0 0 1\nradius = 0.05\npath = " + path + "\n";
  };
  std::string t = with("0 0.3 0.2 0.15; 0.1 0.3 0.2 0.15; 0.05 0.3 0.2 0.15");
  expect_mentions(error_of(t), {at_line(t, "path ="), "[boundary.door] path", "keyframe 3",
                                "times must increase"});
  t = with("0 0.3 0.2 0.15; 0.01 0.6 0.2 0.15");
  expect_mentions(error_of(t), {"[boundary.door] path", "keyframe 2", "leaves the air"});
  t = with("0 0.3 0.2 0.15; 0.001 0.45 0.2 0.15");  // 150 m/s, c = 300 m/s
  expect_mentions(error_of(t), {"[boundary.door] path", "keyframe 1", "above the limit 0.3 c"});
  t = with("0 0.3 0.2 0.15; 0.1 0.35 0.2 0.15") + "center = 0.1 0.2 0.15\n";
  expect_mentions(error_of(t), {"[boundary.door] center", "first keyframe"});
}

TEST(SceneParse, TurningObject) {
  // A door 0.1 m wide hinged along its edge y = 0.25 m, opening by 90 degrees in 0.1 s.
  const std::string door =
      "\n[boundary.door]\nshape = rectangle\ncenter = 0.3 0.2 0.15\nnormal = 1 0 0\n"
      "size = 0.1 0.1\n";
  const std::string hinge = "axis = 0 0 2\npivot = 0.3 0.25 0.15\n";
  const Scene s = parse_scene(kFull + door + hinge + "rotation = 0 0; 0.1 90\n", kPath);
  const BoundarySpec& b = s.boundaries.back();
  ASSERT_EQ(b.rotation.size(), 2u);
  EXPECT_DOUBLE_EQ(b.rotation[1].t, 0.1);
  EXPECT_DOUBLE_EQ(b.rotation[1].angle, 0.5 * M_PI);
  EXPECT_EQ(b.axis, (Vec3{0, 0, 1}));
  EXPECT_EQ(b.pivot, (Vec3{0.3, 0.25, 0.15}));
  EXPECT_EQ(b.center, (Vec3{0.3, 0.2, 0.15}));
  EXPECT_TRUE(b.path.empty());
  EXPECT_EQ(parse_scene(kFull + door + "axis = 0 0 1\nrotation = 0 0; 0.1 90\n", kPath)
                .boundaries.back()
                .pivot,
            b.center);  // the pivot defaults to the centre

  std::string t = kFull + door + "rotation = 0 0; 0.1 90\n";
  expect_mentions(error_of(t), {"[boundary.door]", "missing required key 'axis'"});
  t = kFull + door + hinge + "rotation = 0 0; 0.1\n";
  expect_mentions(error_of(t), {at_line(t, "rotation ="), "[boundary.door] rotation", "keyframe 2",
                                "needs 2 numbers"});
  t = kFull + door + hinge + "rotation = 0 0; 0.2 30; 0.1 90\n";
  expect_mentions(error_of(t), {"[boundary.door] rotation", "keyframe 3", "times must increase"});
  t = kFull + door + hinge;
  expect_mentions(error_of(t), {"[boundary.door] axis", "only with a rotation"});
  t = kFull + door + hinge + "rotation = 0 0; 0.1 90\nwall = ghost\n";
  expect_mentions(error_of(t), {"[boundary.door] wall", "wall = tethered"});
  // 90 degrees in 0.1 ms: the far edge, 0.1 m from the hinge, at 1571 m/s (c = 300 m/s).
  t = kFull + door + hinge + "rotation = 0 0; 0.0001 0; 0.0002 90\n";
  expect_mentions(error_of(t), {"[boundary.door] rotation", "the segment from keyframe 2",
                                "1570.8 m/s", "above the limit 0.3 c"});
  // A receiver 0.058 m from the hinge, in the quarter the door sweeps through.
  t = kFull + door + hinge +
      "rotation = 0 0; 0.1 90\n[receiver.swept]\nposition = 0.35 0.22 0.15\n";
  expect_mentions(error_of(t), {"[boundary.door] rotation", "the segment from keyframe 1",
                                "[receiver.swept]", "closer than dx/2"});
  // Turning the other way (away from it) is fine.
  EXPECT_NO_THROW(parse_scene(kFull + door + hinge +
                                  "rotation = 0 0; 0.1 -90\n[receiver.swept]\nposition = 0.35 "
                                  "0.22 0.15\n",
                              kPath));
}

}  // namespace
}  // namespace sphreverb

namespace sphreverb {
namespace {

// A band material whose one-resonator fit misses its table by more than kMaterialFitWarn is
// warned of, with the fitted values and a spacing that fits; a material that fits, or one no
// surface uses, is not.
TEST(SceneParse, BandMaterialFitWarning) {
  const std::string carpet =
      "\n[material.carpet]\nabsorption_bands = 0.010 0.032 0.078 0.235 0.431 0.481\n";
  auto fit_warnings = [](const Scene& s) {
    std::vector<std::string> out;
    for (const std::string& w : s.warnings)
      if (w.find("[material.carpet]") != std::string::npos) out.push_back(w);
    return out;
  };
  const std::string used = replace(kFull, "material = soft\n", "material = carpet\n") + carpet;
  const Scene coarse =
      parse_scene(used, kPath, {{"fluid.spacing", "0.1"}, {"room.max", "4.5 3.5 2.7"}});
  const MaterialSpec& m = coarse.material("carpet");
  EXPECT_GT(m.fit_rms, kMaterialFitWarn);
  ASSERT_EQ(fit_warnings(coarse).size(), 1u);
  expect_mentions(fit_warnings(coarse)[0], {"absorption_bands", "100 mm", "or finer fits"});
  ASSERT_GT(m.fitting_spacing, 0.0);
  EXPECT_LT(m.fitting_spacing, 0.1);
  // At the spacing it names the fit is within the limit: no warning.
  char finer[32];
  std::snprintf(finer, sizeof finer, "%.17g", m.fitting_spacing);
  const Scene fine =
      parse_scene(used, kPath, {{"fluid.spacing", finer}, {"room.max", "4.5 3.5 2.7"}});
  EXPECT_LE(fine.material("carpet").fit_rms, kMaterialFitWarn);
  EXPECT_TRUE(fit_warnings(fine).empty());
  // Unused: no warning.
  EXPECT_TRUE(fit_warnings(parse_scene(kFull + carpet, kPath,
                                       {{"fluid.spacing", "0.1"}, {"room.max", "4.5 3.5 2.7"}}))
                  .empty());
}

}  // namespace
}  // namespace sphreverb
