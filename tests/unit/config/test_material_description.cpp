// One description of a material for both parts: random-incidence absorption_octaves alone give
// the SPH's normal-incidence bands (Paris, the real impedance of each octave's alpha_st), and
// the two descriptions given together are each kept as written.
#include <gtest/gtest.h>

#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/physics/material.hpp"
#include "sphreverb/physics/reverberation.hpp"

namespace sphreverb {
namespace {

std::string scene_with(const std::string& material) {
  return R"(
[time]
sample_rate = 44100
duration = 0.01
[fluid]
spacing = 0.02
[room]
min = 0 0 0
max = 0.4 0.3 0.3
material = m
[material.m]
)" + material +
         R"(
[emitter]
input = impulse
center = 0.011 0.15 0.15
radius = 0.03
[receiver.a]
position = 0.3 0.15 0.15
)";
}

TEST(MaterialDescription, OctavesAloneGiveTheBands) {
  // A mineral-fibre ceiling's table values (random incidence, 125 Hz ... 8 kHz).
  const std::vector<double> table = {0.40, 0.55, 0.70, 0.85, 0.90, 0.85, 0.85};
  const Scene s = parse_scene(scene_with("absorption_octaves = 0.40 0.55 0.70 0.85 0.90 0.85 0.85"),
                              "material.ini");
  const MaterialSpec& m = s.material("m");
  EXPECT_FALSE(m.rigid);
  EXPECT_EQ(m.absorption_octaves, table);
  ASSERT_EQ(m.absorption.size(), 6u);
  for (std::size_t b = 0; b < 6; ++b) {
    // Normal incidence of the real impedance zeta >= 1.6 whose Paris integral is the table's.
    const double zeta = resistance_ratio_for_statistical(table[b]);
    EXPECT_GE(zeta, 1.6);
    EXPECT_DOUBLE_EQ(m.absorption[b], normal_absorption(zeta)) << b;
    EXPECT_NEAR(random_incidence_absorption(m.absorption[b]), table[b], 1e-9) << b;
  }
  // The values a hand conversion gives (the office scene's ceiling_tile bands, 3 decimals).
  const std::vector<double> hand = {0.258, 0.384, 0.533, 0.721, 0.803, 0.721};
  for (std::size_t b = 0; b < 6; ++b) EXPECT_NEAR(m.absorption[b], hand[b], 6e-4) << b;
  // The wall model is fitted to them as to hand-given bands: the same wall.
  const Scene given =
      parse_scene(scene_with("absorption_bands = " +
                             [&] {
                               std::string t;
                               for (double a : m.absorption) t += std::to_string(a) + " ";
                               return t;
                             }() +
                             "\nabsorption_octaves = 0.40 0.55 0.70 0.85 0.90 0.85 0.85"),
                  "material.ini");
  EXPECT_NEAR(given.material("m").impedance.resistance, m.impedance.resistance,
              1e-5 * m.impedance.resistance);
}

TEST(MaterialDescription, SmallAndLargeOctaves) {
  // Zero everywhere: rigid. Above the largest alpha_st a real impedance reaches (0.951): that
  // maximum's alpha_n.
  const Scene rigid = parse_scene(scene_with("absorption_octaves = 0 0 0 0 0 0 0"), "m.ini");
  EXPECT_TRUE(rigid.material("m").rigid);
  EXPECT_TRUE(rigid.material("m").absorption.empty());
  const Scene big =
      parse_scene(scene_with("absorption_octaves = 0.01 0.2 0.99 1 0.5 0.5 0.5"), "m.ini");
  const MaterialSpec& m = big.material("m");
  ASSERT_EQ(m.absorption.size(), 6u);
  EXPECT_NEAR(m.absorption[0], 0.01 / 2.0, 2e-4);  // small: alpha_st ~ 8 / zeta, alpha_n ~ 4 / zeta
  EXPECT_NEAR(m.absorption[2], m.absorption[3], 1e-12);
  // The largest alpha_st a real impedance reaches: its alpha_n, about 0.95.
  EXPECT_DOUBLE_EQ(m.absorption[2], normal_absorption(resistance_ratio_for_statistical(1.0)));
  EXPECT_NEAR(m.absorption[2], 0.951, 1e-3);
}

TEST(MaterialDescription, BothGivenAreKeptAndBandsAloneLeaveTheOctavesToTheWall) {
  const Scene both = parse_scene(scene_with("absorption_bands = 0.1 0.1 0.1 0.1 0.1 0.1\n"
                                            "absorption_octaves = 0.3 0.3 0.3 0.3 0.3 0.3 0.3"),
                                 "m.ini");
  EXPECT_EQ(both.material("m").absorption, std::vector<double>(6, 0.1));
  EXPECT_EQ(both.material("m").absorption_octaves, std::vector<double>(7, 0.3));
  // Bands alone: the geometric part reflects off the same wall (its real impedance per band,
  // solver/hybrid_assembly.hpp), so no table is made up here.
  const Scene bands =
      parse_scene(scene_with("absorption_bands = 0.1 0.1 0.1 0.1 0.1 0.1"), "m.ini");
  EXPECT_TRUE(bands.material("m").absorption_octaves.empty());
}

}  // namespace
}  // namespace sphreverb
