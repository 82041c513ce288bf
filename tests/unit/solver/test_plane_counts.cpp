// count_air_per_plane must equal the site-by-site count of air_sites_per_plane exactly, for the
// room's force-wall faces, axis-aligned and tilted panels, discs, cylinders, and the emitter
// (whose sites are kept), along every axis.
#include <gtest/gtest.h>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/solver/assembly.hpp"
#include "sphreverb/solver/plane_counts.hpp"

namespace sphreverb {
namespace {

const std::string kScene = R"(
[time]
sample_rate = 10000
duration = 0.001
[fluid]
spacing = 0.01
[room]
min = 0 0 0
max = 0.5 0.4 0.3
material = soft
[material.soft]
stiffness = 1.2e4
damping = 0
[boundary.pillar]
shape = cylinder
center = 0.25 0.2 0.15
normal = 0 0 1
radius = 0.05
height = 0.2
[boundary.panel]
shape = rectangle
center = 0.1 0.2 0.15
normal = 1 0 0
size = 0.2 0.1
[boundary.shelf]
shape = rectangle
center = 0.3 0.1 0.1
normal = 0 0 1
size = 0.3 0.1
[boundary.tilted]
shape = rectangle
center = 0.4 0.3 0.2
normal = 1 1 0
size = 0.1 0.1
[boundary.plate]
shape = disc
center = 0.35 0.3 0.1
normal = 0 1 1
radius = 0.04
[emitter]
input = impulse
center = 0.05 0.1 0.1
normal = 1 0 0
radius = 0.03
[receiver.a]
position = 0.42 0.15 0.25
)";

TEST(PlaneCounts, EqualSiteBySiteCountsOnEveryAxis) {
  for (const char* spacing : {"0.01", "0.0137"}) {
    const Scene s = parse_scene(kScene, "plane_counts.ini", {{"fluid.spacing", spacing}});
    const Lattice l = make_lattice(s);
    const std::vector<Wall> walls = make_walls(s);
    ASSERT_GE(walls.size(), 10u);  // six faces, four boundaries, the emitter
    for (int axis = 0; axis < 3; ++axis) {
      const auto slow = air_sites_per_plane(l, walls, axis);
      const auto fast = count_air_per_plane(l, walls, axis);
      EXPECT_EQ(fast, slow) << "spacing " << spacing << ", axis " << axis;
      std::int64_t removed = 0;
      for (std::size_t q = 0; q < slow.size(); ++q)
        removed += std::int64_t{l.n[(axis + 1) % 3]} * l.n[(axis + 2) % 3] - slow[q];
      EXPECT_GT(removed, 0);  // the walls do remove sites: the test compares something
    }
  }
}

}  // namespace
}  // namespace sphreverb
