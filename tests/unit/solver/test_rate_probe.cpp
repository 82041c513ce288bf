// check's measured rate (rate_probe.hpp): the probe box carries the scene's [fluid] physics and
// time step. (Timing it needs MPI: tests/checkpoint/cost.sh runs it through `check`.)
#include <gtest/gtest.h>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/solver/rate_probe.hpp"
#include "sphreverb/solver/simulation.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {
namespace {

const std::string kScene = R"(
[time]
sample_rate = 48000
duration = 1
[fluid]
spacing = 0.05
h_over_dx = 1.5
kernel = cubic_spline
hyperdiffusion = 0.003
hyperviscosity = 0.004
gradient_correction = first_moment
[room]
min = 0 0 0
max = 5 4 3
material = carpet
[material.carpet]
absorption = 0.3
[emitter]
input = impulse
center = 0.03 1 1
normal = 1 0 0
radius = 0.1
[receiver.a]
position = 3 2 1.5
)";

TEST(RateProbe, CarriesTheScenesPhysics) {
  const Scene s = parse_scene(kScene, "probe.ini");
  const Scene p = parse_scene(probe_scene_text(s), "probe");
  EXPECT_EQ(p.fluid.spacing, s.fluid.spacing);
  EXPECT_EQ(p.fluid.h_over_dx, s.fluid.h_over_dx);
  EXPECT_EQ(p.fluid.kernel, s.fluid.kernel);
  EXPECT_EQ(p.fluid.gradient_correction, s.fluid.gradient_correction);
  EXPECT_EQ(p.fluid.hyperdiffusion, s.fluid.hyperdiffusion);
  EXPECT_EQ(hyperviscosity_of(p), hyperviscosity_of(s));
  EXPECT_EQ(p.derived.dt, s.derived.dt);
  EXPECT_EQ(Decomposition::of(p).particles,
            static_cast<std::int64_t>(kProbeSites) * kProbeSites * kProbeSites);
}

}  // namespace
}  // namespace sphreverb
