// `include = PATH` in a scene (a library of [material.NAME] sections, docs/scenes.md) and
// the shipped library configs/materials.ini: every material parses, and every band value is the
// documented conversion of its cited random-incidence value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sphreverb/physics/material.hpp"
#include "sphreverb/config/scene.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

const std::string kScene = R"(include = lib.ini
[room]
min = 0 0 0
max = 1 1 1
material = felt
[emitter]
input = impulse
center = 0.2 0.5 0.5
[receiver.mic]
position = 0.8 0.5 0.5
)";

class SceneInclude : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("sphreverb_include_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::string error_of(const std::string& scene_path) {
    try {
      load_scene(scene_path);
    } catch (const SceneError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no SceneError";
    return {};
  }
  fs::path dir_;
};

TEST_F(SceneInclude, MaterialsComeFromTheLibrary) {
  write("lib.ini",
        "# a library\n[material.felt]\nabsorption = 0.4\n[material.unused]\nstiffness = 1e5\n");
  const Scene s = load_scene(write("scene.ini", kScene));
  EXPECT_FALSE(s.material("felt").rigid);
  EXPECT_DOUBLE_EQ(s.material("felt").absorption.at(0), 0.4);
  EXPECT_EQ(s.material("unused").stiffness, 1e5);
}

TEST_F(SceneInclude, ErrorsNameTheIncludedFile) {
  const std::string lib = write("lib.ini", "[material.felt]\nabsorption = 1.4\n");
  const std::string msg = error_of(write("scene.ini", kScene));
  EXPECT_NE(msg.find(lib + ":2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[material.felt] absorption"), std::string::npos) << msg;
}

TEST_F(SceneInclude, MissingFileAndBadPlacement) {
  const std::string scene = write("scene.ini", kScene);
  std::string msg = error_of(scene);
  EXPECT_NE(msg.find(scene + ":1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("lib.ini"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;
  // After a section header, include is an unknown key of that section.
  write("lib.ini", "[material.felt]\nabsorption = 0.4\n");
  msg = error_of(write("late.ini", "[time]\ninclude = lib.ini\n" + kScene.substr(18)));
  EXPECT_NE(msg.find("include"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown key"), std::string::npos) << msg;
}

TEST_F(SceneInclude, LibraryHoldsMaterialsOnlyAndNoRedefinition) {
  const std::string lib =
      write("lib.ini", "[material.felt]\nabsorption = 0.4\n[time]\nduration = 1\n");
  std::string msg = error_of(write("scene.ini", kScene));
  EXPECT_NE(msg.find(lib + ":3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[material.NAME] sections only"), std::string::npos) << msg;

  write("lib.ini", "[material.felt]\nabsorption = 0.4\n");
  msg = error_of(write("twice.ini", kScene + "[material.felt]\nabsorption = 0.1\n"));
  EXPECT_NE(msg.find("section given twice"), std::string::npos) << msg;
  EXPECT_NE(msg.find(lib + ":1"), std::string::npos) << msg;

  write("nested.ini", "include = lib.ini\n[material.x]\nabsorption = 0.1\n");
  msg = error_of(write("scene2.ini", "include = nested.ini\n" + kScene.substr(18)));
  EXPECT_NE(msg.find("may not include others"), std::string::npos) << msg;
}

// configs/materials.ini: each section's `# alpha_st = ...` comment is the cited random-incidence
// value; its absorption_bands must be the hard-branch Paris conversion (rounded to 0.001).
TEST(MaterialsLibrary, BandsAreTheConvertedTableValues) {
  const std::string path = std::string(SPHREVERB_SOURCE_DIR) + "/configs/materials.ini";
  const std::string scene_path =
      (fs::temp_directory_path() / "sphreverb_materials_library_scene.ini").string();
  std::ofstream(scene_path) << "include = " << path << "\n" << kScene.substr(18);
  const Scene s = load_scene(scene_path, {{"room.material", "carpet"}});
  fs::remove(scene_path);

  std::ifstream in(path);
  std::string line, current;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.rfind("[material.", 0) == 0) current = line.substr(10, line.find(']') - 10);
    if (line.rfind("# alpha_st =", 0) != 0) continue;
    std::istringstream values(line.substr(12));
    const MaterialSpec& m = s.material(current);
    ASSERT_EQ(m.absorption.size(), 6u) << current;
    for (int b = 0; b < 6; ++b) {
      double a_st = 0.0;
      ASSERT_TRUE(values >> a_st) << current;
      const double a_n = normal_absorption(resistance_ratio_for_statistical(a_st));
      EXPECT_NEAR(m.absorption[b], a_n, 0.0006) << current << " band " << b;
    }
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

// A fitted library wall never needs more substeps than the CFL bound (fit_bands' f0_max).
TEST(MaterialsLibrary, FittedWallsKeepTheCflStep) {
  const std::string path = std::string(SPHREVERB_SOURCE_DIR) + "/configs/materials.ini";
  const std::string scene_path =
      (fs::temp_directory_path() / "sphreverb_materials_step_scene.ini").string();
  std::ofstream(scene_path) << "include = " << path << "\n" << kScene.substr(18);
  for (const char* name : {"concrete", "brick", "plaster", "plasterboard", "wood_panel", "glass",
                           "carpet", "curtain", "foam_50mm"}) {
    const Scene s = load_scene(scene_path, {{"room.material", name}, {"fluid.spacing", "0.01"}});
    EXPECT_GE(s.derived.dt_wall, s.derived.dt_cfl * (1.0 - 1e-9)) << name;
    EXPECT_LT(s.material(name).fit_rms, 0.05) << name;
  }
  fs::remove(scene_path);
}

}  // namespace
}  // namespace sphreverb
