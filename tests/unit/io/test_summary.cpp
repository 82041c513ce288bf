// io::summary_json: keys in the documented order, doubles that read back bit for bit.
#include <gtest/gtest.h>

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
