// Scene inputs that used to hang, grow memory, crash or pass silently: substep counts beyond
// 2^53, non-regular or huge files, fractional sample rates, NUL bytes, and the checks across keys
// (receivers on plates, plates through the emitter, emitters larger than the room) with the two
// warnings (room faces off the lattice's dx/2 position, an emitter disc free in the air) and
// the warnings for a moving object (its wake in tension; the air it pushes without shifting).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <string>

#include "sphreverb/config/checks.hpp"
#include "sphreverb/config/derived.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/config/schema.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

const std::string kPath = "scenes/checks.ini";

// Room sides multiples of the 15 mm default spacing; the disc on the x_min wall (the default
// scene's arrangement): no warning.
const std::string kScene = R"([room]
min = 0 0 0
max = 0.6 0.45 0.3
[boundary.panel]
shape = rectangle
center = 0.3 0.3 0.15
normal = 0 1 0
size = 0.2 0.1
[emitter]
input = impulse
center = 0.008 0.2 0.15
radius = 0.03
[receiver.mic]
position = 0.4 0.2 0.15
)";

std::string error_of(const std::string& text, const std::map<std::string, std::string>& ov = {}) {
  try {
    parse_scene(text, kPath, ov);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "parse_scene did not throw";
  return "";
}

std::string load_error(const std::string& path) {
  try {
    load_scene(path);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "load_scene did not throw";
  return "";
}

void expect_mentions(const std::string& message, std::initializer_list<std::string> needles) {
  for (const auto& n : needles)
    EXPECT_NE(message.find(n), std::string::npos) << "'" << n << "' not in: " << message;
}

class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / (std::string("sphreverb_checks_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~TempDir() { fs::remove_all(dir_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return (dir_ / name).string();
  }
  fs::path path(const std::string& name) const { return dir_ / name; }

 private:
  fs::path dir_;
};

TEST(SceneChecks, TheFixtureIsCleanAndTheDefaultSceneHasNoWarning) {
  EXPECT_TRUE(parse_scene(kScene, kPath).warnings.empty());
  const Scene s = load_scene(std::string(SPHREVERB_SOURCE_DIR) + "/configs/small_room.ini");
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
}

// ---- substeps ----------------------------------------------------------------------------------

TEST(Substeps, SmallestCountMeetsTheBound) {
  EXPECT_EQ(smallest_substeps(44100.0, 1.0 / (44100.0 * 3.0), 1000000), 3);
  EXPECT_EQ(smallest_substeps(44100.0, 1.0 / (44100.0 * 3.0) * 0.999, 1000000), 4);
  EXPECT_EQ(smallest_substeps(44100.0, 1.0, 1000000), 1);
  EXPECT_EQ(smallest_substeps(1000.0, 1e-9, 1000000), 1000000);
  EXPECT_EQ(smallest_substeps(1000.0, 0.999e-9, 1000000), std::nullopt);
}

TEST(Substeps, CountsBeyondTwoToThe53EndWithAnError) {
  // needed - 1 == needed above 2^53: the search must stop before it.
  EXPECT_EQ(smallest_substeps(44100.0, 1e-23, 1000000), std::nullopt);
  EXPECT_EQ(smallest_substeps(44100.0, 1e-305, 1000000), std::nullopt);
  EXPECT_EQ(smallest_substeps(44100.0, 0.0, 1000000), std::nullopt);
  EXPECT_EQ(smallest_substeps(44100.0, std::nan(""), 1000000), std::nullopt);
  expect_mentions(error_of(kScene, {{"fluid.spacing", "1e-20"}}),
                  {"substeps", "[fluid] spacing = 1e-20 m", "more than 1000000"});
  expect_mentions(error_of(kScene, {{"time.cfl", "1e-300"}}),
                  {"substeps", "[time] cfl = 1e-300", "more than 1000000"});
}

// ---- integer sample rate -----------------------------------------------------------------------

TEST(SceneChecks, SampleRateIsAWholeNumberOfHertz) {
  expect_mentions(
      error_of(kScene, {{"time.sample_rate", "44100.5"}}),
      {"(command line)", "[time] sample_rate = 44100.5", "not an integer", "[1000, 384000] Hz"});
  const std::string text = "[time]\nsample_rate = 48000.25\n" + kScene;
  expect_mentions(error_of(text), {kPath + ":2:", "not an integer"});
  EXPECT_EQ(parse_scene(kScene, kPath, {{"time.sample_rate", "4.8e4"}}).time.sample_rate, 48000.0);
  EXPECT_EQ(parse_scene(kScene, kPath, {{"time.sample_rate", "22050"}}).time.sample_rate, 22050.0);
}

// ---- NUL bytes ---------------------------------------------------------------------------------

TEST(SceneChecks, NulByteIsRejectedAndTheMessageIsWhole) {
  std::string text = kScene + "[output]\ndir = out\n";
  text.insert(text.find("dir = out") + 7, std::string(1, '\0'));
  const std::string msg = error_of(text);
  EXPECT_EQ(std::strlen(msg.c_str()), msg.size()) << "the message holds a NUL byte";
  expect_mentions(msg, {kPath + ":16:", "NUL byte", "column 8"});
  const std::string ov = error_of(kScene, {{"output.dir", std::string("a\0b", 3)}});
  EXPECT_EQ(std::strlen(ov.c_str()), ov.size());
  expect_mentions(ov, {"--output.dir", "NUL byte"});
}

// ---- files that are not regular or too large ---------------------------------------------------

TEST(SceneFiles, DevicesAndFifosAreRejectedWithoutReading) {
  if (fs::exists("/dev/zero"))
    expect_mentions(load_error("/dev/zero"), {"/dev/zero", "not a regular file"});
  TempDir tmp;
  const fs::path fifo = tmp.path("scene.ini");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_mentions(load_error(fifo.string()), {fifo.string(), "not a regular file"});
}

TEST(SceneFiles, IncludeOfADeviceOrFifoIsRejected) {
  TempDir tmp;
  ASSERT_EQ(::mkfifo(tmp.path("lib.ini").c_str(), 0600), 0);
  const std::string scene = tmp.write("scene.ini", "include = lib.ini\n" + kScene);
  expect_mentions(load_error(scene), {scene + ":1:", "include = lib.ini", "not a regular file"});
  if (fs::exists("/dev/zero")) {
    const std::string dev = tmp.write("dev.ini", "include = /dev/zero\n" + kScene);
    expect_mentions(load_error(dev), {dev + ":1:", "not a regular file"});
  }
}

TEST(SceneFiles, FilesLargerThanTheLimitAreRejected) {
  TempDir tmp;
  const std::string big = tmp.write("big.ini", kScene + std::string(kMaxSceneFileBytes, '#'));
  expect_mentions(load_error(big), {big, "larger than 16 MiB"});
  const std::string fits = tmp.write("fits.ini", kScene + "#" + std::string(1000, 'x') + "\n");
  EXPECT_NO_THROW(load_scene(fits));
}

// ---- checks across keys ------------------------------------------------------------------------

TEST(SceneChecks, ReceiverOnABoundaryPlate) {
  const std::string msg = error_of(kScene, {{"receiver.mic.position", "0.35 0.302 0.16"}});
  expect_mentions(msg, {"[receiver.mic] position", "[boundary.panel]", "dx/2"});
  // Beside the plate, outside its extent, or dx/2 away: fine.
  EXPECT_NO_THROW(parse_scene(kScene, kPath, {{"receiver.mic.position", "0.35 0.31 0.16"}}));
  EXPECT_NO_THROW(parse_scene(kScene, kPath, {{"receiver.mic.position", "0.45 0.3 0.15"}}));
}

TEST(SceneChecks, PlateThroughTheEmitter) {
  const std::string text = kScene +
                           "[boundary.wall]\nshape = rectangle\ncenter = 0.008 0.2 "
                           "0.15\nnormal = 0 0 1\nsize = 0.1 0.1\n";
  expect_mentions(error_of(text), {"[emitter] center", "[boundary.wall]", "passes through"});
  // The same plate parallel to the disc, 1 cm behind it: the disc sits on it.
  const std::string behind = kScene +
                             "[boundary.wall]\nshape = disc\ncenter = 0.05 0.2 "
                             "0.15\nnormal = 1 0 0\nradius = 0.05\n";
  EXPECT_NO_THROW(parse_scene(behind, kPath, {{"emitter.center", "0.058 0.2 0.15"}}));
}

// wall = ghost: fixed shapes with a rigid, broadband or band material; a ghost wall has no tethers,
// so it may cross the emitter disc (a duct's wall beside a piston filling its section).
TEST(SceneChecks, GhostWalledBoundaries) {
  const Scene ok = parse_scene(kScene, kPath, {{"boundary.panel.wall", "ghost"}});
  EXPECT_EQ(ok.boundaries[0].wall, BoundaryWall::Ghost);
  EXPECT_TRUE(ok.derived.ghost_walls);
  EXPECT_GT(ok.derived.halo_depth, ok.derived.halo_width);
  EXPECT_FALSE(parse_scene(kScene, kPath).derived.ghost_walls);
  expect_mentions(error_of(kScene, {{"boundary.panel.wall", "ghost"},
                                    {"boundary.panel.path", "0 0.3 0.3 0.15; 1 0.3 0.35 0.15"}}),
                  {"[boundary.panel] wall", "wall = tethered"});
  const std::string bands =
      kScene + "[material.felt]\nabsorption_bands = 0.1 0.2 0.3 0.4 0.5 0.6\n";
  // A band material is a reacting ghost wall (ghost_walls.hpp); the spring form is refused.
  EXPECT_NO_THROW(parse_scene(
      bands, kPath, {{"boundary.panel.wall", "ghost"}, {"boundary.panel.material", "felt"}}));
  EXPECT_NO_THROW(parse_scene(bands, kPath, {{"boundary.panel.material", "felt"}}));
  const std::string spring = kScene + "[material.spring]\nstiffness = 1e5\ndamping = 100\n";
  expect_mentions(
      error_of(spring, {{"boundary.panel.wall", "ghost"}, {"boundary.panel.material", "spring"}}),
      {"[boundary.panel] material", "broadband", "absorption_bands", "wall = tethered"});
  const std::string through = kScene +
                              "[boundary.wall]\nshape = rectangle\nwall = ghost\ncenter = 0.008 "
                              "0.2 0.15\nnormal = 0 0 1\nsize = 0.1 0.1\n";
  EXPECT_NO_THROW(parse_scene(through, kPath));
  // The panel stands in the air (air behind it): a warning; the fixture's has none.
  bool warned = false;
  for (const std::string& w : ok.warnings)
    warned = warned || w.find("[boundary.panel] wall = ghost") != std::string::npos;
  EXPECT_TRUE(warned);
  // A ghost rectangle on the fill box's floor closes the air: no warning.
  const std::string floor = kScene +
                            "[boundary.floor]\nshape = rectangle\nwall = ghost\ncenter = 0.3 "
                            "0.225 0\nnormal = 0 0 1\nsize = 0.6 0.45\n";
  EXPECT_TRUE(parse_scene(floor, kPath).warnings.empty());
}

// wall = auto (the default): ghost for a fixed cylinder and for a fixed rectangle or disc that
// closes the air, with a ghost wall material; tethered for a plate in the air, a moving shape, a
// spring material, or a cylinder holding a receiver; the key given wins. Each shape records why.
TEST(SceneChecks, AutoWallResolution) {
  const std::string shapes = kScene + R"([material.spring]
stiffness = 1e5
damping = 100
[boundary.floor]
shape = rectangle
center = 0.3 0.225 0
normal = 0 0 1
size = 0.45 0.6
[boundary.column]
shape = cylinder
center = 0.5 0.1 0.15
normal = 0 0 1
radius = 0.03
height = 0.3
[boundary.hatch]
shape = disc
center = 0.3 0.225 0.3
normal = 0 0 -1
radius = 0.05
)";
  const auto wall_of = [](const Scene& s, const std::string& name) {
    for (const BoundarySpec& b : s.boundaries)
      if (b.name == name) return b;
    ADD_FAILURE() << "no boundary " << name;
    return BoundarySpec{};
  };
  const Scene s = parse_scene(shapes, kPath);
  EXPECT_EQ(wall_of(s, "floor").wall, BoundaryWall::Ghost);
  EXPECT_EQ(wall_of(s, "floor").wall_key, BoundaryWall::Auto);
  expect_mentions(wall_of(s, "floor").wall_reason, {"auto", "closing the air"});
  EXPECT_EQ(wall_of(s, "column").wall, BoundaryWall::Ghost);
  expect_mentions(wall_of(s, "column").wall_reason, {"auto", "cylinder"});
  EXPECT_EQ(wall_of(s, "hatch").wall, BoundaryWall::Ghost);  // a disc on the ceiling
  EXPECT_EQ(wall_of(s, "panel").wall, BoundaryWall::Tethered);
  expect_mentions(wall_of(s, "panel").wall_reason, {"auto", "air behind it", "in the air"});
  EXPECT_TRUE(s.derived.ghost_walls);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();  // auto never warns of air behind
  // The ceiling disc facing up (its front outside the air, the room behind it) is a plate in
  // the air.
  EXPECT_EQ(wall_of(parse_scene(shapes, kPath, {{"boundary.hatch.normal", "0 0 1"}}), "hatch").wall,
            BoundaryWall::Tethered);
  // Moving: a force wall.
  const Scene moving =
      parse_scene(shapes, kPath, {{"boundary.column.path", "0 0.5 0.1 0.15; 0.01 0.5 0.12 0.15"}});
  EXPECT_EQ(wall_of(moving, "column").wall, BoundaryWall::Tethered);
  expect_mentions(wall_of(moving, "column").wall_reason, {"auto", "moves"});
  // A spring material: a force wall.
  const Scene spring = parse_scene(shapes, kPath, {{"boundary.floor.material", "spring"}});
  EXPECT_EQ(wall_of(spring, "floor").wall, BoundaryWall::Tethered);
  expect_mentions(wall_of(spring, "floor").wall_reason, {"auto", "'spring'", "stiffness"});
  // A receiver inside the cylinder keeps its air: tethered.
  const Scene held = parse_scene(shapes, kPath, {{"receiver.mic.position", "0.5 0.1 0.15"}});
  EXPECT_EQ(wall_of(held, "column").wall, BoundaryWall::Tethered);
  expect_mentions(wall_of(held, "column").wall_reason, {"[receiver.mic]", "inside"});
  // The key given wins, both ways.
  const Scene given = parse_scene(
      shapes, kPath, {{"boundary.floor.wall", "tethered"}, {"boundary.panel.wall", "ghost"}});
  EXPECT_EQ(wall_of(given, "floor").wall, BoundaryWall::Tethered);
  EXPECT_EQ(wall_of(given, "floor").wall_reason, "wall = tethered given");
  EXPECT_EQ(wall_of(given, "panel").wall, BoundaryWall::Ghost);
  EXPECT_EQ(wall_of(given, "panel").wall_reason, "wall = ghost given");
  ASSERT_EQ(given.warnings.size(), 1u);  // the ghost panel has air behind it
  expect_mentions(given.warnings[0], {"[boundary.panel] wall = ghost", "air behind"});
  // Only force walls limit f_max: the floor and column as ghost walls leave the air's f_max
  // when the panel goes; with the floor tethered, the force walls' band again.
  const Scene no_panel = parse_scene(shapes, kPath,
                                     {{"boundary.panel.center", "0.3 0.225 0.3"},
                                      {"boundary.panel.normal", "0 0 -1"},
                                      {"boundary.panel.size", "0.45 0.6"},
                                      {"boundary.hatch.center", "0.3 0 0.15"},
                                      {"boundary.hatch.normal", "0 1 0"}});
  EXPECT_EQ(wall_of(no_panel, "panel").wall, BoundaryWall::Ghost);
  EXPECT_EQ(no_panel.derived.f_max, no_panel.derived.f_max_bulk);
  EXPECT_LT(parse_scene(shapes, kPath).derived.f_max, no_panel.derived.f_max_bulk);
}

TEST(SceneChecks, EmitterLargerThanTheRoom) {
  expect_mentions(error_of(kScene, {{"emitter.radius", "5"}}),
                  {"[emitter] radius = 5", "larger than the room"});
  // A piston spanning a duct's cross-section is allowed, with a warning.
  const Scene s = parse_scene(kScene, kPath, {{"emitter.radius", "0.3"}});
  ASSERT_EQ(s.warnings.size(), 1u);
  expect_mentions(s.warnings[0], {"[emitter] radius", "cross-section"});
}

TEST(SceneChecks, MovingObjectWakeInTension) {
  // A plate moving along its normal at 3.43 m/s: its wake's tension is rho0 c v = 1.204 x 343 x
  // 3.43 = 1416 Pa, not carried without a larger background pressure.
  const std::string text = kScene +
                           "[boundary.door]\nshape = rectangle\nnormal = 1 0 0\nsize = 0.1 "
                           "0.1\npath = 0 0.45 0.1 0.15; 0.01 0.4157 0.1 0.15\n";
  const auto wakes = [&](const std::vector<std::string>& warnings) {
    return std::count_if(warnings.begin(), warnings.end(), [](const std::string& w) {
      return w.find("the air behind it is in tension") != std::string::npos;
    });
  };
  const Scene s = parse_scene(text, kPath);
  ASSERT_EQ(wakes(s.warnings), 1);
  for (const auto& w : s.warnings)
    if (w.find("behind it") != std::string::npos)
      expect_mentions(w, {"[boundary.door]", "3.43 m/s", "tension", "1416", "pair up"});
  EXPECT_EQ(wakes(parse_scene(text, kPath, {{"fluid.background_pressure", "1500"}}).warnings), 0);
  EXPECT_EQ(wakes(parse_scene(text, kPath, {{"fluid.background_pressure", "1400"}}).warnings), 1);
}

TEST(SceneChecks, MovingObjectWithoutShiftingIsNamed) {
  // The air a moving object pushes piles up ahead of it unless [fluid] shifting is on: one
  // warning per scene naming the object and the key; none with the shifting or without motion.
  const std::string text = kScene +
                           "[boundary.door]\nshape = rectangle\nnormal = 1 0 0\nsize = 0.1 "
                           "0.1\npath = 0 0.45 0.1 0.15; 0.01 0.4157 0.1 0.15\n";
  const auto piles = [](const Scene& s) {
    std::vector<std::string> out;
    for (const auto& w : s.warnings)
      if (w.find("piles up ahead") != std::string::npos) out.push_back(w);
    return out;
  };
  const auto w = piles(parse_scene(text, kPath));
  ASSERT_EQ(w.size(), 1u);
  expect_mentions(w[0], {"[boundary.door]", "shifting = 2"});
  EXPECT_TRUE(piles(parse_scene(text, kPath, {{"fluid.shifting", "2"}})).empty());
  EXPECT_TRUE(piles(parse_scene(kScene, kPath)).empty());
}

TEST(SceneChecks, LatticeGrowthUnderSustainedPressure) {
  // 3 kPa of background pressure at 1 cm: the compressed lattice's fastest mode e-folds in
  // dx / (0.125 c0) = 0.23 ms; over 0.1 s that is e^431, over 1 ms e^4 (no warning).
  const auto growth_warnings = [](const Scene& s) {
    std::vector<std::string> out;
    for (const auto& w : s.warnings)
      if (w.find("modes of the resting lattice grow") != std::string::npos) out.push_back(w);
    return out;
  };
  EXPECT_TRUE(growth_warnings(parse_scene(kScene, kPath)).empty());
  const Scene loud = parse_scene(
      kScene, kPath,
      {{"fluid.background_pressure", "3000"}, {"fluid.spacing", "0.01"}, {"time.duration", "0.1"}});
  const auto w = growth_warnings(loud);
  ASSERT_EQ(w.size(), 1u);
  expect_mentions(w[0], {"3000 Pa", "background_pressure", "0.23 ms", "e^431"});
  EXPECT_TRUE(growth_warnings(parse_scene(kScene, kPath,
                                          {{"fluid.background_pressure", "3000"},
                                           {"fluid.spacing", "0.01"},
                                           {"time.duration", "0.001"}}))
                  .empty());
}

TEST(SceneChecks, GeometryHelpers) {
  BoundarySpec plate;
  plate.shape = ShapeKind::Rectangle;
  plate.center = {0, 0, 0};
  plate.normal = {0, 0, 1};
  plate.width = 2.0;  // along u = normalised(z x x) = y... (ref = x since normal is along z)
  plate.height = 2.0;
  EXPECT_DOUBLE_EQ(distance_to_surface(plate, {0.5, 0.5, 0.25}), 0.25);
  EXPECT_DOUBLE_EQ(distance_to_surface(plate, {0, 4, 0}), 3.0);
  EXPECT_DOUBLE_EQ(distance_to_surface(plate, {2, 2, 0}), std::sqrt(2.0));
  BoundarySpec pipe;
  pipe.shape = ShapeKind::Cylinder;
  pipe.normal = {1, 0, 0};
  pipe.radius = 1.0;
  pipe.height = 2.0;
  EXPECT_DOUBLE_EQ(distance_to_surface(pipe, {0, 0.25, 0}), 0.75);
  EXPECT_DOUBLE_EQ(distance_to_surface(pipe, {4, 1, 0}), 3.0);
  EXPECT_TRUE(cuts_disc(plate, {0, 0, 0}, {1, 0, 0}, 0.5));
  EXPECT_FALSE(cuts_disc(plate, {0, 0, 0.1}, {0, 0, 1}, 0.5));  // parallel, 0.1 above
  EXPECT_FALSE(cuts_disc(plate, {0, 5, 0}, {1, 0, 0}, 0.5));    // beside the plate
  EXPECT_TRUE(cuts_disc(pipe, {0, 1, 0}, {1, 0, 0}, 0.5));      // across the pipe's wall
}

// ---- warnings ----------------------------------------------------------------------------------

TEST(SceneWarnings, RoomFaceOffTheLatticesHalfSpacing) {
  // 0.8 x 0.6 x 0.5 m at 15 mm: 53.3 and 33.3 spacings; the lattice is centred, so the x and z
  // faces sit 10 mm from the last layer instead of 7.5 mm (y: 40 spacings, exact).
  const Scene s = parse_scene(kScene, kPath, {{"room.max", "0.8 0.6 0.5"}});
  const std::array<double, 6> gaps = room_face_gaps(s);
  EXPECT_NEAR(gaps[0], 0.01, 1e-12);
  EXPECT_NEAR(gaps[1], 0.01, 1e-12);
  EXPECT_NEAR(gaps[2], 0.0075, 1e-12);
  EXPECT_NEAR(gaps[3], 0.0075, 1e-12);
  EXPECT_NEAR(gaps[4], 0.01, 1e-12);
  // `walls = auto` builds the box's ghost walls there, which sit where the faces are: no warning.
  EXPECT_TRUE(s.derived.ghost_room);
  EXPECT_TRUE(s.warnings.empty());
  // Mirror walls, given, act across the wrong gap: warned of, face by face.
  const Scene m =
      parse_scene(kScene, kPath, {{"room.max", "0.8 0.6 0.5"}, {"room.walls", "mirror"}});
  ASSERT_EQ(m.warnings.size(), 1u);
  expect_mentions(m.warnings[0],
                  {"[room]", "x_min 10 mm", "z_max 10 mm", "absorb", "walls = auto"});
  EXPECT_EQ(m.warnings[0].find("y_min"), std::string::npos);
  // A fill box stopping short of the faces leaves its air facing nothing there: an error.
  expect_mentions(error_of(kScene, {{"fluid.fill_max", "0.54 0.45 0.3"}}),
                  {"fill_max", "the fill box's face x_max (x = 0.54 m)"});
}

TEST(SceneWarnings, EmitterFreeInTheAir) {
  const Scene s = parse_scene(kScene, kPath, {{"emitter.center", "0.1 0.2 0.15"}});
  ASSERT_EQ(s.warnings.size(), 1u);
  expect_mentions(s.warnings[0], {"[emitter]", "free in the air", "short-wave"});
  // On the x_max face, and on a plate parallel to it: no warning.
  EXPECT_TRUE(parse_scene(kScene, kPath, {{"emitter.center", "0.592 0.2 0.15"}}).warnings.empty());
  EXPECT_TRUE(parse_scene(kScene, kPath,
                          {{"emitter.center", "0.3 0.292 0.15"}, {"emitter.normal", "0 1 0"}})
                  .warnings.empty());
  // Near the x_min wall but facing along y: free.
  EXPECT_EQ(parse_scene(kScene, kPath,
                        {{"emitter.center", "0.035 0.2 0.15"}, {"emitter.normal", "0 1 0"}})
                .warnings.size(),
            1u);
}

}  // namespace
}  // namespace sphreverb
