// io::summary_json: keys in the documented order, doubles that read back bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "sphreverb/io/summary.hpp"

using sphreverb::io::RunFacts;

namespace {
const char* kScene = R"([time]
sample_rate = 8000
duration = 0.001
[fluid]
spacing = 0.02
fill_min = 0 0 0
fill_max = 0.2 0.2 0.2
[room]
min = 0 0 0
max = 0.2 0.2 0.2
[emitter]
input = impulse
center = 0.1 0.1 0.02
normal = 0 0 1
radius = 0.03
[receiver.mid]
position = 0.1 0.1 0.1
)";
}  // namespace

TEST(Summary, KeysAndFullPrecision) {
  const sphreverb::Scene scene = sphreverb::parse_scene(kScene, "s.ini");
  RunFacts f;
  f.particles = 1000, f.steps = 10, f.steps_run = 10, f.wall_seconds = 0.1;
  f.neighbours_per_particle = 79.987962962962968;  // not a short decimal
  f.particles_per_rank = {500, 500};
  f.receivers.push_back({"mid", "mid.wav", "mid.raw.wav", 8, 0.1 + 0.2, 1.2041, {}});
  const auto j = nlohmann::ordered_json::parse(sphreverb::io::summary_json(scene, f));
  const std::vector<std::string> first = {"particles",
                                          "steps",
                                          "wall_seconds",
                                          "particle_steps_per_second",
                                          "neighbours_per_particle",
                                          "ranks",
                                          "particles_per_rank"};
  auto it = j.begin();
  for (const std::string& k : first) EXPECT_EQ((it++).key(), k);
  EXPECT_EQ(j["neighbours_per_particle"].get<double>(), 79.987962962962968);
  EXPECT_EQ(j["receivers"][0]["peak_Pa"].get<double>(), 0.1 + 0.2);  // 0.30000000000000004
  EXPECT_EQ(j["particle_steps_per_second"].get<double>(), 1000.0 * 10 / 0.1);
  EXPECT_EQ(j["ranks"], 2);
  EXPECT_EQ(j["scene"], scene.text);
  EXPECT_TRUE(j.contains("derived") && j["derived"].contains("dt_s"));
  // The output high-pass applied to the records (the run report states it).
  EXPECT_EQ(j["derived"]["highpass_Hz"].get<double>(), scene.output.highpass);
}

// Each [boundary] shape's wall treatment, the key as given and why (wall = auto resolved).
TEST(Summary, BoundaryWalls) {
  const std::string text = std::string(kScene) + R"([boundary.floor]
shape = rectangle
center = 0.1 0.1 0
normal = 0 0 1
size = 0.2 0.2
[boundary.plate]
shape = disc
center = 0.1 0.1 0.15
normal = 0 0 1
radius = 0.03
wall = tethered
)";
  const sphreverb::Scene scene = sphreverb::parse_scene(text, "s.ini");
  const auto j = nlohmann::ordered_json::parse(sphreverb::io::summary_json(scene, RunFacts{}));
  ASSERT_EQ(j["boundaries"].size(), 2u);
  EXPECT_EQ(j["boundaries"][0]["name"], "floor");
  EXPECT_EQ(j["boundaries"][0]["shape"], "rectangle");
  EXPECT_EQ(j["boundaries"][0]["wall"], "ghost");
  EXPECT_EQ(j["boundaries"][0]["wall_given"], "auto");
  EXPECT_EQ(j["boundaries"][0]["reason"], "auto: fixed rectangle closing the air");
  EXPECT_EQ(j["boundaries"][1]["wall"], "tethered");
  EXPECT_EQ(j["boundaries"][1]["wall_given"], "tethered");
  EXPECT_EQ(j["boundaries"][1]["reason"], "wall = tethered given");
}

// The air volume and the surfaces it sees, and check's diffuse-field estimate over them: the
// 0.2 m rigid cube has six 0.04 m^2 faces, 0.008 m^3 and no absorption (infinite T60, written as
// null); a carpet floor gives Sabine's 24 ln10 V / (c S a) with a over the six faces.
TEST(Summary, DiffuseField) {
  const sphreverb::Scene rigid = sphreverb::parse_scene(kScene, "s.ini");
  auto j = nlohmann::ordered_json::parse(sphreverb::io::summary_json(rigid, RunFacts{}));
  const auto& d = j["diffuse_field"];
  EXPECT_NEAR(d["volume_m3"].get<double>(), 0.008, 1e-15);
  EXPECT_EQ(d["sound_speed_m_per_s"].get<double>(), 343.0);
  ASSERT_EQ(d["surfaces"].size(), 6u);
  for (const auto& f : d["surfaces"]) {
    EXPECT_NEAR(f["area_m2"].get<double>(), 0.04, 1e-15);
    EXPECT_EQ(f["material"], "rigid");
    EXPECT_EQ(f["sides"], 1);
  }
  EXPECT_EQ(d["surfaces"][0]["name"], "room.x_min");
  ASSERT_TRUE(d.contains("sph"));
  EXPECT_TRUE(d["sph"]["sabine_s"][0].is_null());  // +inf
  // A carpet floor: material_z_min goes in [room].
  std::string text = kScene;
  text.insert(text.find("[emitter]"), "material_z_min = carpet\n");
  text += "[material.carpet]\nabsorption = 0.3\n";
  const sphreverb::Scene s = sphreverb::parse_scene(text, "s.ini");
  j = nlohmann::ordered_json::parse(sphreverb::io::summary_json(s, RunFacts{}));
  const auto& e = j["diffuse_field"]["sph"];
  const double a = e["mean_alpha_random"][2].get<double>();
  EXPECT_GT(a, 0.0);
  EXPECT_LT(a, 1.0 / 6.0);  // one face of six absorbs, with alpha_st <= 1
  EXPECT_NEAR(e["sabine_s"][2].get<double>(), 24.0 * std::log(10.0) * 0.008 / (343.0 * 0.24 * a),
              1e-12);
  ASSERT_TRUE(j["diffuse_field"].contains("tables"));
}
