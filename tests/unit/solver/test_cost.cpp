// The cost estimate of `check`: wall time and core-hours from the documented per-core rate,
// the checkpoint count and volume at the cadence, and the warning when that volume is out of
// proportion (a 5 x 4 x 3 m room at 1.7 cm for 1 s writes ~100 checkpoints of ~1.6 GB; the
// default small room a few of ~0.2 MB).
#include <gtest/gtest.h>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/solver/cost.hpp"
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb {
namespace {

const std::string kScene = R"(
[time]
sample_rate = 2000
duration = 1
[fluid]
spacing = 0.017
[room]
min = 0 0 0
max = 5 4 3
[emitter]
input = impulse
center = 0.03 1 1
normal = 1 0 0
radius = 0.05
[receiver.a]
position = 3 2 1.5
)";

TEST(Cost, LargeRoomWarnsOfItsCheckpointVolume) {
  const Scene s = parse_scene(kScene, "cost.ini");
  const Decomposition dec = Decomposition::of(s);
  const CostEstimate c = estimate_cost(s, dec, 32);
  EXPECT_EQ(c.particles, dec.particles);
  EXPECT_DOUBLE_EQ(c.particle_steps,
                   static_cast<double>(dec.particles) * static_cast<double>(s.derived.steps));
  EXPECT_FALSE(c.rate_measured);
  EXPECT_DOUBLE_EQ(c.rate_per_core, kParticleStepsPerCoreSecond * kParallelEfficiency);
  // The box's faces are off the lattice: ghost walls, whose sites were classified.
  EXPECT_DOUBLE_EQ(c.wall_seconds,
                   c.particle_steps / (c.rate_per_core * 32) + dec.classify_seconds);
  EXPECT_DOUBLE_EQ(c.core_hours * 3600.0, c.wall_seconds * 32);
  // Every 0.01 s (the default cadence) for 1 s, plus the ends of stage 1 and of the run.
  EXPECT_EQ(c.checkpoints, 102);
  EXPECT_DOUBLE_EQ(c.checkpoint_bytes, static_cast<double>(dec.particles) * 132.0);
  EXPECT_GT(c.checkpoint_total_bytes, 100e9);
  EXPECT_TRUE(c.checkpoint_volume_warning);
  EXPECT_NE(cost_report(s, c).find("warning"), std::string::npos);
  // Only the two ends: no warning.
  const Scene quiet = parse_scene(kScene, "cost.ini", {{"output.checkpoint_every", "0"}});
  const CostEstimate q = estimate_cost(quiet, dec, 32);
  EXPECT_EQ(q.checkpoints, 2);
  EXPECT_FALSE(q.checkpoint_volume_warning);
  EXPECT_EQ(cost_report(quiet, q).find("warning"), std::string::npos);
}

// A measured one-rank rate replaces the fixed one: one rank runs at it, several at
// kParallelEfficiency of it per core; the report says which.
TEST(Cost, MeasuredRate) {
  const Scene s = parse_scene(kScene, "cost.ini", {{"fluid.spacing", "0.05"}});
  const Decomposition dec = Decomposition::of(s);
  EXPECT_DOUBLE_EQ(rate_per_core(0.0, 1), kParticleStepsPerCoreSecond);
  EXPECT_DOUBLE_EQ(rate_per_core(1e6, 1), 1e6);
  EXPECT_DOUBLE_EQ(rate_per_core(1e6, 2), 1e6 * kParallelEfficiency);
  const CostEstimate one = estimate_cost(s, dec, 1, 2e6);
  EXPECT_TRUE(one.rate_measured);
  EXPECT_DOUBLE_EQ(one.wall_seconds, one.particle_steps / 2e6 + dec.classify_seconds);
  EXPECT_DOUBLE_EQ(one.core_hours, (one.particle_steps / 2e6 + dec.classify_seconds) / 3600.0);
  EXPECT_NE(
      cost_report(s, one).find("at 2e+06 particle-steps/s per core, measured on an idle core"),
      std::string::npos);
  const CostEstimate four = estimate_cost(s, dec, 4, 2e6);
  EXPECT_DOUBLE_EQ(four.wall_seconds,
                   four.particle_steps / (2e6 * kParallelEfficiency * 4) + dec.classify_seconds);
  EXPECT_NE(cost_report(s, estimate_cost(s, dec, 1)).find("not measured"), std::string::npos);
}

// The core-hours hold every part of the wall time, each on every rank: the set-up of meshes and
// ghost walls (read, checked, lattice sites classified) as well as stage 2 of the SPH.
TEST(Cost, CoreHoursCountTheMeshSetUp) {
  const Scene s = parse_scene(kScene, "cost.ini", {{"fluid.spacing", "0.05"}});
  Decomposition dec = Decomposition::of(s);
  dec.classify_seconds = 30.0;
  const CostEstimate c = estimate_cost(s, dec, 4);
  const double sph = c.particle_steps / c.rate_per_core;  // core-seconds
  EXPECT_DOUBLE_EQ(c.wall_seconds, sph / 4 + 30.0);
  EXPECT_DOUBLE_EQ(c.core_hours * 3600.0, sph + 4 * 30.0);
  EXPECT_NE(cost_report(s, c).find("the set-up of the meshes and ghost walls 30 s"),
            std::string::npos)
      << cost_report(s, c);
}

// Check, run and restart cut slabs by one rule: the halo depth (with the ghost walls' reach).
TEST(Cost, OneSlabRule) {
  const Scene s = parse_scene(kScene, "cost.ini", {{"fluid.spacing", "0.05"}});
  EXPECT_DOUBLE_EQ(min_slab_thickness(s), s.derived.halo_depth);
  EXPECT_DOUBLE_EQ(Decomposition::of(s).min_slab, s.derived.halo_depth);
  const std::string panel = kScene +
                            "[boundary.panel]\nshape = rectangle\nwall = ghost\ncenter = 2.5 2 0\n"
                            "normal = 0 0 1\nsize = 5 4\n";
  const Scene g = parse_scene(panel, "cost.ini", {{"fluid.spacing", "0.05"}});
  ASSERT_TRUE(g.derived.ghost_walls);
  EXPECT_DOUBLE_EQ(min_slab_thickness(g), g.derived.halo_width + 3 * 0.05);
  EXPECT_NE(min_slab_rule(g).find("at least 0.29 m thick"), std::string::npos) << min_slab_rule(g);
}

TEST(Cost, MemoryPerRankShrinksWithRanks) {
  const Scene s = parse_scene(kScene, "cost.ini", {{"fluid.spacing", "0.05"}});
  const Decomposition dec = Decomposition::of(s);
  const double one = estimate_cost(s, dec, 1).bytes_per_rank;
  EXPECT_DOUBLE_EQ(one, static_cast<double>(dec.particles) * solver_bytes_per_particle(s, 0.0));
  EXPECT_LT(estimate_cost(s, dec, 8).bytes_per_rank, one / 4);
  EXPECT_GT(available_memory_bytes(), 0.0);  // this machine has /proc/meminfo
}

}  // namespace
}  // namespace sphreverb
