// Tests of estimate_decomposition (decomposition_estimate.hpp): within its budget it is
// Decomposition::of; beyond, the sampled particle count of the L room (configs/l_room.ini, a
// mesh room) and of the furnished room (a [room] box with two mesh objects) lies within a few
// of its stated standard deviations of the exact count, every plane keeps its place, and a stop
// request ends the sampling.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/solver/decomposition_estimate.hpp"

namespace sphreverb {
namespace {

Scene example(const std::string& name, const std::string& spacing) {
  return load_scene(std::string(SPHREVERB_SOURCE_DIR) + "/configs/" + name,
                    {{"fluid.spacing", spacing}});
}

TEST(DecompositionEstimate, WithinTheBudgetItIsExact) {
  const Scene s = example("l_room.ini", "0.05");
  const Decomposition exact = Decomposition::of(s);
  const Decomposition d = estimate_decomposition(s, 1'000'000);
  EXPECT_EQ(d.sampled_sites, 0);
  EXPECT_EQ(d.particles_sigma, 0.0);
  EXPECT_EQ(d.particles, exact.particles);
  EXPECT_EQ(d.plane_count, exact.plane_count);
  EXPECT_EQ(d.max_ranks, exact.max_ranks);
}

void expect_close_to_exact(const Scene& s, std::int64_t budget) {
  const Decomposition exact = Decomposition::of(s);
  const Decomposition d = estimate_decomposition(s, budget);
  ASSERT_GT(d.sampled_sites, 0);
  EXPECT_LE(d.sampled_sites, 2 * budget);
  EXPECT_GT(d.sample_block, 1);
  EXPECT_GT(d.particles_sigma, 0.0);
  // The bound is a standard deviation: 4 of them (and not more than 3 % of the count).
  EXPECT_LT(std::abs(static_cast<double>(d.particles - exact.particles)), 4.0 * d.particles_sigma)
      << "exact " << exact.particles << ", sampled " << d.particles << " +- " << d.particles_sigma;
  EXPECT_LT(d.particles_sigma, 0.03 * static_cast<double>(exact.particles));
  EXPECT_EQ(d.axis, exact.axis);
  EXPECT_EQ(d.plane_pos, exact.plane_pos);
  ASSERT_EQ(d.plane_count.size(), exact.plane_count.size());
  EXPECT_GE(d.max_ranks, 1);
}

TEST(DecompositionEstimate, SampledMeshRoomIsWithinItsStandardDeviation) {
  // 1.4 x 1.1 x 0.9 m at 2 cm: 1.7e5 sites, sampled with a budget of 5000 (blocks of 4^3).
  expect_close_to_exact(example("l_room.ini", "0.02"), 5000);
}

TEST(DecompositionEstimate, SampledObjectsInABoxRoomAreWithinTheStandardDeviation) {
  expect_close_to_exact(example("furnished_room.ini", "0.03"), 3000);
}

TEST(DecompositionEstimate, AStopRequestEndsTheSampling) {
  const Scene s = example("l_room.ini", "0.02");
  int polls = 0;
  EXPECT_THROW(estimate_decomposition(s, 5000, [&] { return ++polls > 3; }), EstimateStopped);
  EXPECT_EQ(polls, 4);
}

}  // namespace
}  // namespace sphreverb
