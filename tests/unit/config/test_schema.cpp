// The key schema: one row per key drives the unknown-key check, the ranges, the defaults the
// parser applies and the reference page. The struct defaults must equal the schema's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/config/schema.hpp"

namespace sphreverb {
namespace {

const std::string kPath = "scenes/schema.ini";

// The smallest valid scene; its room is a multiple of the default spacing and the disc sits on
// the x_min wall, so it draws no warning.
const std::string kMinimal = R"([room]
min = 0 0 0
max = 0.6 0.45 0.3
[emitter]
input = impulse
center = 0.008 0.2 0.15
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

TEST(SceneSchema, RowsAreUniqueAndBelongToASection) {
  std::set<std::string> seen;
  for (const KeySpec& k : scene_schema()) {
    EXPECT_TRUE(seen.insert(k.section + "." + k.key).second) << k.section << "." << k.key;
    const std::string name = k.section.substr(0, k.section.find('.'));
    const auto dot = k.section.find(".NAME");
    const std::string example = dot == std::string::npos ? k.section : name + ".x";
    const SectionSpec* type = classify_section(example);
    ASSERT_NE(type, nullptr) << k.section;
    EXPECT_EQ(type->name, name);
    EXPECT_EQ(find_key(*type, k.key), &k);
    EXPECT_FALSE(k.doc.empty()) << k.key;
    EXPECT_TRUE(k.default_value.empty() || k.default_note.empty()) << k.key;
  }
  EXPECT_EQ(seen.size(), scene_schema().size());
}

TEST(SceneSchema, LiteralDefaultsAreValidValues) {
  // Each literal default, given explicitly, parses (type and range) to what the parser applies.
  for (const KeySpec& k : scene_schema()) {
    if (k.default_value.empty() || k.section.find('.') != std::string::npos) continue;
    const std::string dotted = k.section + "." + k.key;
    EXPECT_NO_THROW(parse_scene(kMinimal, kPath, {{dotted, k.default_value}})) << dotted;
  }
}

TEST(SceneSchema, StructDefaultsEqualSchemaDefaults) {
  const Scene s = parse_scene(kMinimal, kPath);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
  const TimeSpec t;
  EXPECT_EQ(s.time.sample_rate, t.sample_rate);
  EXPECT_EQ(s.time.substeps, t.substeps);
  EXPECT_EQ(s.time.duration, t.duration);
  EXPECT_EQ(s.time.cfl, t.cfl);
  const EquilibriumSpec e;
  EXPECT_EQ(s.equilibrium.energy, e.energy);
  EXPECT_EQ(s.equilibrium.max_steps, e.max_steps);
  EXPECT_EQ(s.equilibrium.damping, e.damping);
  const FluidSpec f;
  EXPECT_EQ(s.fluid.spacing, f.spacing);
  EXPECT_EQ(s.fluid.h_over_dx, f.h_over_dx);
  EXPECT_EQ(s.fluid.rest_density, f.rest_density);
  EXPECT_EQ(s.fluid.sound_speed, f.sound_speed);
  EXPECT_EQ(s.fluid.kernel, f.kernel);
  EXPECT_EQ(s.fluid.eos, f.eos);
  EXPECT_EQ(s.fluid.gamma, f.gamma);
  EXPECT_EQ(s.fluid.viscosity, f.viscosity);
  EXPECT_EQ(s.fluid.density_diffusion, f.density_diffusion);
  EXPECT_EQ(s.fluid.hyperdiffusion, f.hyperdiffusion);
  EXPECT_EQ(s.fluid.background_pressure, f.background_pressure);
  EXPECT_EQ(s.fluid.skin, f.skin);
  EXPECT_EQ(s.fluid.gradient_correction, f.gradient_correction);
  EXPECT_EQ(s.room.walls, RoomSpec{}.walls);
  const EmitterSpec em;
  EXPECT_EQ(s.emitter.normal, em.normal);
  EXPECT_EQ(s.emitter.radius, em.radius);
  EXPECT_EQ(s.emitter.drive, em.drive);
  EXPECT_EQ(s.emitter.highpass, em.highpass);
  EXPECT_EQ(s.emitter.material, em.material);
  const OutputSpec o;
  EXPECT_EQ(s.output.dir, o.dir);
  EXPECT_EQ(s.output.checkpoint_every, o.checkpoint_every);
  EXPECT_EQ(s.output.keep_checkpoints, o.keep_checkpoints);
  EXPECT_EQ(s.output.snapshot_every, o.snapshot_every);
  EXPECT_EQ(s.output.snapshot_fields, o.snapshot_fields);
  EXPECT_EQ(s.output.normalize, o.normalize);
  EXPECT_EQ(s.output.progress_every, o.progress_every);
  EXPECT_EQ(s.output.lowpass, o.lowpass);
  EXPECT_EQ(s.output.energy, o.energy);
}

TEST(SceneSchema, RangeMessagesComeFromTheRow) {
  // Every bounded number row: a value just past its lower end is rejected with the row's range.
  for (const KeySpec& k : scene_schema()) {
    if (k.type != KeyType::Number || k.section.find('.') != std::string::npos) continue;
    const double below = k.range.lo - (k.range.lo_open ? 0.0 : 1e-3 * (1.0 + std::abs(k.range.lo)));
    const std::string dotted = k.section + "." + k.key;
    char value[32];
    std::snprintf(value, sizeof value, "%.17g", below);
    const std::string msg = error_of(kMinimal, {{dotted, value}});
    EXPECT_NE(msg.find("[" + k.section + "] " + k.key), std::string::npos) << msg;
    EXPECT_NE(msg.find("must be in " + k.range.str()), std::string::npos) << msg;
  }
}

TEST(SceneSchema, UnknownKeyListsTheSchemasKeys) {
  const std::string msg = error_of(kMinimal + "[output]\ncolour = blue\n");
  const SectionSpec* output = classify_section("output");
  ASSERT_NE(output, nullptr);
  for (const auto& key : output->keys) EXPECT_NE(msg.find(key), std::string::npos) << msg;
  EXPECT_NE(msg.find("scenes/schema.ini:10:"), std::string::npos) << msg;
}

TEST(SceneSchema, ReferenceHasEveryKeyAndSection) {
  const std::string md = scene_reference_markdown();
  for (const SectionSpec& s : scene_sections())
    EXPECT_NE(md.find("## `[" + s.name + (s.named ? ".NAME" : "") + "]`"), std::string::npos);
  for (const KeySpec& k : scene_schema())
    EXPECT_NE(md.find("| `" + k.key + "` | " + to_string(k.type) + " |"), std::string::npos)
        << k.key;
  EXPECT_NE(md.find("`wendland_c2`, `cubic_spline`"), std::string::npos);
  EXPECT_NE(md.find("| `spacing` | number | m | `0.015` | (0, 1] |"), std::string::npos);
}

}  // namespace
}  // namespace sphreverb
