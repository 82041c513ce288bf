// Invariants of the parallel code that must not depend on the rank count. Each test runs on
// MPI_COMM_WORLD (1, 2, 3 or 4 ranks, see CMakeLists.txt) and, where it compares, against the
// same computation on rank 0 alone.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "../common/world.hpp"
#include "sphreverb/audio/test_signals.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/parallel/energy.hpp"
#include "sphreverb/parallel/halo.hpp"
#include "sphreverb/solver/simulation.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {
namespace {

using test_support::world_rank;
using test_support::world_size;

// Concatenates every rank's `mine` in rank order: on rank 0 only, or (everywhere) on every rank.
std::vector<double> gather_doubles(const std::vector<double>& mine, bool everywhere) {
  const int n = static_cast<int>(mine.size());
  std::vector<int> counts(world_size()), displs(world_size());
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 1; r < world_size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  const int total = displs.back() + counts.back();
  std::vector<double> all(everywhere || world_rank() == 0 ? total : 0);
  if (everywhere)
    MPI_Allgatherv(mine.data(), n, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
                   MPI_COMM_WORLD);
  else
    MPI_Gatherv(mine.data(), n, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
  return all;
}

// A 0.3 x 0.18 x 0.15 m rigid box at 1.5 cm (2160 particles), two receivers, one next to the
// middle (the 2-rank cut), 2 ms of an impulse.
std::string box_scene(const std::string& extra = "") {
  return R"(
[time]
sample_rate = 44100
duration = 0.002
[fluid]
spacing = 0.015
[room]
min = 0 0 0
max = 0.3 0.18 0.15
[emitter]
input = impulse
center = 0.0675 0.09 0.075
radius = 0.03
deflection = 1e-5
drive = displacement
[receiver.mid]
position = 0.151 0.1 0.07
[receiver.far]
position = 0.27 0.05 0.12
)" + extra;
}

struct Record {
  std::vector<std::vector<double>> density;   // rank 0: per receiver
  std::vector<std::vector<double>> velocity;  // rank 0: x y z per receiver (omni: empty)
  std::int64_t particles = 0, owned_sum = 0, rebuilds = 0;
};

// Runs stage 1 and stage 2 of `scene` on comm (collective) and returns rank 0's records.
Record run(const Scene& scene, MPI_Comm comm) {
  Simulation sim(scene, comm);
  sim.equilibrate();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Signal input = make_impulse(scene.time.sample_rate, scene.time.duration);
  sim.set_source_inputs(std::vector<Signal>(scene.sources.size(), input));
  sim.record(input);
  Record r;
  for (std::size_t k = 0; k < sim.receivers().size(); ++k)
    r.density.push_back(sim.receivers().density(k));
  r.velocity = sim.receivers().velocity_series();
  r.particles = sim.global_particles();
  for (std::int64_t n : sim.particles_per_rank()) r.owned_sum += n;
  r.rebuilds = sim.rebuilds();
  return r;
}

// Runs the scene on all ranks, then on rank 0 alone, and compares the receivers byte for byte.
void expect_same_as_one_rank(const Scene& scene) {
  const Record all = run(scene, MPI_COMM_WORLD);
  MPI_Comm solo;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() == 0 ? 0 : MPI_UNDEFINED, 0, &solo);
  if (world_rank() != 0) return;
  const Record one = run(scene, solo);
  MPI_Comm_free(&solo);
  ASSERT_EQ(all.density.size(), one.density.size());
  for (std::size_t k = 0; k < all.density.size(); ++k) {
    ASSERT_EQ(all.density[k].size(), one.density[k].size());
    ASSERT_EQ(all.density[k].size(), static_cast<std::size_t>(scene.derived.steps + 1));
    EXPECT_EQ(0, std::memcmp(all.density[k].data(), one.density[k].data(),
                             all.density[k].size() * sizeof(double)))
        << "receiver " << scene.receivers[k].name << " differs between " << world_size()
        << " ranks and 1 rank";
    // The signal is not trivially constant: sound arrived.
    const auto [lo, hi] = std::minmax_element(all.density[k].begin(), all.density[k].end());
    EXPECT_GT(*hi - *lo, 1e-9) << scene.receivers[k].name;
  }
  ASSERT_EQ(all.velocity.size(), one.velocity.size());
  for (std::size_t c = 0; c < all.velocity.size(); ++c) {
    if (scene.receivers[c / 3].type != ReceiverType::Ambisonic) {
      EXPECT_TRUE(all.velocity[c].empty());
      continue;
    }
    ASSERT_EQ(all.velocity[c].size(), static_cast<std::size_t>(scene.derived.steps + 1));
    ASSERT_EQ(all.velocity[c].size(), one.velocity[c].size());
    EXPECT_EQ(0, std::memcmp(all.velocity[c].data(), one.velocity[c].data(),
                             all.velocity[c].size() * sizeof(double)))
        << "velocity channel " << c << " differs between " << world_size() << " ranks and 1 rank";
    const auto [lo, hi] = std::minmax_element(all.velocity[c].begin(), all.velocity[c].end());
    EXPECT_GT(*hi - *lo, 1e-9) << "velocity channel " << c;
  }
  EXPECT_EQ(all.rebuilds, one.rebuilds);
  // The per-rank counts add up to the scene's particles, on any rank count.
  EXPECT_EQ(all.owned_sum, all.particles);
  EXPECT_EQ(all.particles, one.particles);
}

TEST(Parallel, ReceiverSamplesMatchOneRankBitForBit) {
  expect_same_as_one_rank(parse_scene(box_scene(), "box.ini"));
}

TEST(Parallel, AmbisonicVelocityMatchesOneRankBitForBit) {
  // Both receivers record velocity; "mid" sits next to the 2-rank cut.
  const Scene s =
      parse_scene(box_scene(), "box.ini",
                  {{"receiver.mid.type", "ambisonic"}, {"receiver.far.type", "ambisonic"}});
  ASSERT_EQ(s.receivers[0].type, ReceiverType::Ambisonic);
  expect_same_as_one_rank(s);
}

TEST(Parallel, BitForBitWithFrequentRebuildsViscosityAndDiffusion) {
  // A tiny skin and a large deflection force neighbour rebuilds during the run.
  const Scene s = parse_scene(box_scene(), "box.ini",
                              {{"fluid.skin", "0.01"},
                               {"emitter.deflection", "2e-4"},
                               {"fluid.viscosity", "0.02"},
                               {"fluid.density_diffusion", "0.1"},
                               {"fluid.kernel", "cubic_spline"},
                               {"fluid.eos", "ideal_gas"}});
  const Record r = run(s, MPI_COMM_WORLD);
  EXPECT_GT(r.rebuilds, 2) << "the scene should exercise rebuilds";
  expect_same_as_one_rank(s);
}

TEST(Parallel, BitForBitWithForceWallsAndABoundaryObject) {
  // The room as six spring-damper walls plus a rigid plate inside: tethers on every rank.
  const Scene s = parse_scene(box_scene(R"(
[material.soft]
stiffness = 2e9
damping = 100
[boundary.plate]
shape = rectangle
center = 0.2 0.09 0.075
normal = 1 0 0
size = 0.1 0.06
)"),
                              "box.ini", {{"room.material", "soft"}});
  expect_same_as_one_rank(s);
}

// The V10 box mesh scaled to 0.42 x 0.34 x 0.29 m and rotated 17 degrees about z (ghost walls
// with Lagrange and Shepard stencils across the slab cuts), a rigid block (the same mesh at 0.2
// scale) inside it; 1.5 ms; `fluid` adds [fluid] keys. On 3 ranks a ghost at x = 0.21 m lies
// exactly on a cell face of the ghosts' activation grid (side 0.042 m) and is needed across the
// cut at 0.2325 m.
Scene mesh_room_with_block(const std::string& fluid = "") {
  const std::string geometry = R"(
[time]
sample_rate = 44100
duration = 0.0015
[fluid]
spacing = 0.015
)" + fluid + R"(
[geometry.room]
mesh = meshes/box_v10.obj
role = room
material = rigid
scale = 1.4
rotation = 0 0 17
translation = 0.3 0.3 0.25
[geometry.block]
mesh = meshes/box_v10.obj
role = object
material = rigid
scale = 0.2
translation = 0.38 0.3 0.25
[emitter]
input = impulse
center = 0.25 0.3 0.25
radius = 0.03
deflection = 1e-5
drive = displacement
[receiver.near_block]
position = 0.34 0.27 0.25
[receiver.far]
position = 0.2 0.35 0.3
)";
  return parse_scene(geometry, std::string(SPHREVERB_SOURCE_DIR) + "/tests/validation/mesh.ini");
}

TEST(Parallel, MeshRoomWithAnObjectMatchesOneRankBitForBit) {
  expect_same_as_one_rank(mesh_room_with_block());
}

// The velocity hyperviscosity, which `auto` turns on for such rigid oblique walls in longer
// records (its two vector Laplacian loops, the ghosts' and the halo's reflected L(v)), applied
// 11 times in the 1.5 ms.
TEST(Parallel, MeshRoomWithTheVelocityFilterMatchesOneRankBitForBit) {
  const Scene s = mesh_room_with_block("hyperviscosity = 0.005\n");
  ASSERT_EQ(hyperviscosity_of(s), 0.005);
  expect_same_as_one_rank(s);
}

TEST(Parallel, GhostWalledBoundariesMatchOneRankBitForBit) {
  // Boundaries walled by ghost particles (wall = ghost) across the slab cuts: two plates meeting
  // at an edge (an inner corner at x = 0.19, y = 0.12 m, their solid reaching x = 0.25 m; one
  // resistive) and a rigid column at x = 0.08 .. 0.12 m, in the box lengthened to 0.45 m (the
  // ghost walls' deeper halo needs slabs of 0.087 m on 4 ranks).
  const Scene s = parse_scene(box_scene(R"(
[material.half]
absorption = 0.5
[boundary.back]
shape = rectangle
wall = ghost
center = 0.19 0.09 0.075
normal = -1 0 0
size = 0.06 0.06
[boundary.side]
shape = rectangle
wall = ghost
center = 0.16 0.12 0.075
normal = 0 -1 0
size = 0.06 0.06
material = half
[boundary.column]
shape = cylinder
wall = ghost
center = 0.1 0.04 0.075
normal = 0 0 1
radius = 0.02
height = 0.06
)"),
                              "box.ini", {{"room.max", "0.45 0.18 0.15"}});
  ASSERT_TRUE(s.derived.ghost_walls);
  expect_same_as_one_rank(s);
}

// The V10 box mesh scaled 1.4 and rotated 17 degrees about z as a room of `room_material`, with a
// ghost-walled 8 cm plate of `plate_material` facing -x at x = plate_x, a 3 cm disc in the air and
// receivers at `near` and `far` (m); `materials` defines the materials used.
std::string ghost_box_scene(const std::string& materials, const std::string& room_material,
                            const std::string& plate_x, const std::string& plate_material,
                            const std::string& near, const std::string& far) {
  return R"(
[time]
sample_rate = 44100
duration = 0.0015
[fluid]
spacing = 0.015
)" + materials +
         R"(
[geometry.room]
mesh = meshes/box_v10.obj
role = room
material = )" +
         room_material + R"(
scale = 1.4
rotation = 0 0 17
translation = 0.3 0.3 0.25
[boundary.plate]
shape = rectangle
wall = ghost
center = )" +
         plate_x + R"( 0.3 0.25
normal = -1 0 0
size = 0.08 0.08
material = )" +
         plate_material + R"(
[emitter]
input = impulse
center = 0.25 0.3 0.25
radius = 0.03
deflection = 1e-5
drive = displacement
[receiver.near_plate]
position = )" +
         near + R"(
[receiver.far]
position = )" +
         far + "\n";
}

void expect_ghost_box_same_as_one_rank(const std::string& scene_text) {
  const Scene s =
      parse_scene(scene_text, std::string(SPHREVERB_SOURCE_DIR) + "/tests/validation/mesh.ini");
  ASSERT_TRUE(s.derived.ghost_walls);
  expect_same_as_one_rank(s);
}

TEST(Parallel, ReactingGhostWallsMatchOneRankBitForBit) {
  // Band materials on ghost walls (reacting faces: a face element per ghost site, advanced on
  // every rank where the ghost is active, ghost_walls.hpp): a curtain on every surface of the
  // rotated box, and a ghost-walled plate of foam across a slab cut.
  expect_ghost_box_same_as_one_rank(
      ghost_box_scene("[material.curtain]\nabsorption_bands = 0.037 0.190 0.331 0.590 0.533 0.431\n"
                      "[material.foam]\nabsorption_bands = 0.043 0.149 0.431 0.803 0.934 0.803",
                      "curtain", "0.33", "foam", "0.3 0.27 0.25", "0.2 0.35 0.3"));
}

TEST(Parallel, GhostWallsWithAResistiveFaceOnOneSlabMatchOneRankBitForBit) {
  // A rigid rotated box with one absorbing ghost-walled plate near its low-x end: on 2-4 ranks
  // only the low slabs hold resistive ghost sites, whose W follows the pressure. Every rank must
  // rewrite its ghosts' velocities at the same refreshes as one rank does (ghost_walls.hpp,
  // set_velocity_follows_density).
  expect_ghost_box_same_as_one_rank(ghost_box_scene("[material.absorber]\nabsorption = 0.5",
                                                    "rigid", "0.15", "absorber", "0.12 0.27 0.25",
                                                    "0.45 0.35 0.3"));
}

TEST(Parallel, SlabsCutByWorkAgreeOnEveryRank) {
  // Force walls and a plate in the x > 0.2 m part: with several ranks the cuts are balanced by
  // the work per plane (slab_cost.hpp); every rank must hold the same cuts, and every particle
  // one owner.
  const Scene s = parse_scene(box_scene(R"(
[material.soft]
stiffness = 2e9
damping = 100
[boundary.plate]
shape = rectangle
center = 0.2 0.09 0.075
normal = 1 0 0
size = 0.1 0.06
)"),
                              "box.ini", {{"room.material", "soft"}});
  Simulation sim(s, MPI_COMM_WORLD);
  const int size = world_size();
  std::vector<double> mine(static_cast<std::size_t>(size)), first(mine.size());
  for (int r = 0; r < size; ++r) mine[static_cast<std::size_t>(r)] = sim.slabs().hi(r);
  first = mine;
  MPI_Bcast(first.data(), size, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  EXPECT_EQ(mine, first) << "the ranks disagree on the cuts";
  std::int64_t owned = 0;
  for (std::int64_t n : sim.particles_per_rank()) owned += n;
  EXPECT_EQ(owned, sim.global_particles());
}

// [emitter.NAME] monopoles, one fixed and one moving across the slab cuts at Mach 0.26, and a
// receiver moving the other way: the records do not depend on the rank count.
TEST(Parallel, MovingMonopoleAndMovingReceiverMatchOneRankBitForBit) {
  SCOPED_TRACE(world_size());
  const Scene s = parse_scene(box_scene(R"(
[emitter.still]
position = 0.2 0.09 0.06
level = 20
[emitter.car]
path = 0 0.06 0.08 0.08; 0.002 0.24 0.1 0.08
level = 20
[receiver.walker]
path = 0 0.24 0.06 0.09; 0.0015 0.15 0.07 0.09; 0.003 0.06 0.06 0.09
interpolation = smooth
)"),
                              "box.ini", {{"emitter.gain", "0"}});
  expect_same_as_one_rank(s);
}

// A 6 cm rigid plate sweeping across the slab cuts in 1 ms (Mach 0.18), sliding in its plane.
constexpr const char* kSweepingPlate = R"(
[boundary.plate]
shape = rectangle
normal = 1 0 0
size = 0.06 0.06
path = 0 0.135 0.09 0.075; 0.001 0.195 0.1 0.075
)";
// The box scene's receiver `mid` moved out of the plate's sweep (it would pass through it).
const std::pair<const std::string, std::string> kOffTheSweep{"receiver.mid.position",
                                                             "0.151 0.16 0.07"};

// Runs `s` (a moving object crossing the slab cuts) on all ranks and on rank 0 alone: the records
// and the rebuild count do not depend on the rank count; then on all ranks again: the object
// pushed some particle more than `min_moved` (m) along +x off its lattice site (the box scene's
// sites, 20 along x), the run rebuilt more than `min_rebuilds` times, and every particle is
// owned exactly once.
void expect_moving_object_across_cuts(const Scene& s, double min_moved, int min_rebuilds) {
  expect_same_as_one_rank(s);
  Simulation sim(s, MPI_COMM_WORLD);
  sim.equilibrate();
  sim.record(make_impulse(s.time.sample_rate, s.time.duration));
  const Particles& p = sim.particles();
  std::vector<double> ids;
  double moved = 0.0;  // the largest distance of a particle from its lattice site along x, m
  for (std::size_t i = 0; i < p.n_owned; ++i) ids.push_back(static_cast<double>(p.id(i)));
  for (std::size_t i = 0; i < p.n_owned; ++i)
    moved = std::max(moved, p.x[i] - (0.0075 + 0.015 * static_cast<double>(p.id(i) % 20)));
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  std::vector<double> all = gather_doubles(ids, false);
  if (world_rank() != 0) return;
  EXPECT_GT(moved, min_moved) << "the object should push particles off their sites";
  EXPECT_GT(sim.rebuilds(), min_rebuilds) << "the moving object should rebuild the tethers";
  ASSERT_EQ(static_cast<std::int64_t>(all.size()), sim.global_particles());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a particle is duplicated";
}

// A rigid plate (a moving object, [boundary.NAME] path) sweeping across the slab cuts at
// Mach 0.18 for 1 ms while sliding in its plane: the particles it pushes migrate, its tethers
// change with its pose (spring and rigid-condition tethers); the records and the rebuild count do
// not depend on the rank count, and every particle stays owned exactly once (mass = count x
// particle mass).
TEST(Parallel, MovingObjectAcrossSlabCutsMatchesOneRankBitForBit) {
  SCOPED_TRACE(world_size());
  const Scene s =
      parse_scene(box_scene(kSweepingPlate), "box.ini", {{"time.duration", "0.001"}, kOffTheSweep});
  expect_moving_object_across_cuts(s, 0.02, 0);
}

// The same sweeping plate with the particle shifting on (physics/shifting.hpp): the air it pushes
// is shifted every step from sums over key-ordered lists; the records, the rebuilds and the
// particle count still do not depend on the rank count.
TEST(Parallel, MovingObjectWithShiftingAcrossSlabCutsMatchesOneRankBitForBit) {
  SCOPED_TRACE(world_size());
  const Scene s = parse_scene(box_scene(kSweepingPlate), "box.ini",
                              {{"time.duration", "0.001"}, {"fluid.shifting", "2"}, kOffTheSweep});
  expect_moving_object_across_cuts(s, 0.02, 0);
  // And the shifting did move the air: the particles end elsewhere than without it.
  const Scene plain =
      parse_scene(box_scene(kSweepingPlate), "box.ini", {{"time.duration", "0.001"}, kOffTheSweep});
  double sum[2] = {0.0, 0.0};
  for (int k = 0; k < 2; ++k) {
    Simulation sim(k == 0 ? s : plain, MPI_COMM_WORLD);
    sim.equilibrate();
    sim.record(make_impulse(s.time.sample_rate, s.time.duration));
    const Particles& p = sim.particles();
    for (std::size_t i = 0; i < p.n_owned; ++i)
      sum[k] += std::abs(p.y[i] - 0.09) + std::abs(p.x[i]);
  }
  MPI_Allreduce(MPI_IN_PLACE, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_NE(sum[0], sum[1]) << "the shifting should move the pushed air";
}

// A rigid plate hinged along its edge (a door, [boundary.NAME] rotation) turning by 60 degrees in
// 1 ms across the slab cuts near x = 0.2 and 0.225 m: its far edge, 0.06 m from the hinge, moves
// at 63 m/s (Mach 0.18) and its tethers change with its pose; the records and the rebuild count
// do not depend on the rank count, and every particle stays owned exactly once.
TEST(Parallel, RotatingObjectAcrossSlabCutsMatchesOneRankBitForBit) {
  SCOPED_TRACE(world_size());
  const Scene s = parse_scene(box_scene(R"(
[boundary.door]
shape = rectangle
center = 0.2 0.09 0.075
normal = 1 0 0
size = 0.06 0.06
rotation = 0 0; 0.001 60
axis = 0 0 1
pivot = 0.2 0.12 0.075
)"),
                              "box.ini", {{"time.duration", "0.001"}});
  expect_moving_object_across_cuts(s, 0.01, 2);
}

// A moving mesh object ([geometry.NAME] path and turn, a tethered force wall probed against the
// mesh): the V10 box at 0.2 scale (0.06 x 0.048 x 0.042 m) crossing the slab cuts along x at
// 60 m/s while turning by 20 degrees about z in 1 ms; the same invariants.
TEST(Parallel, MovingMeshObjectAcrossSlabCutsMatchesOneRankBitForBit) {
  SCOPED_TRACE(world_size());
  const Scene s = parse_scene(box_scene(R"(
[geometry.block]
mesh = meshes/box_v10.obj
role = object
material = rigid
scale = 0.2
translation = 0.12 0.05 0.075
path = 0 0.12 0.05 0.075; 0.001 0.18 0.05 0.075
turn = 0 0; 0.001 20
turn_axis = 0 0 1
)"),
                              std::string(SPHREVERB_SOURCE_DIR) + "/tests/validation/box.ini",
                              {{"time.duration", "0.001"}});
  expect_moving_object_across_cuts(s, 0.01, 2);
}

// The same plate with a background pressure, the emitter's disc on the face x = 0 (its particles
// have no mirror image: a hole in their neighbours' kernel support). The background pressure's
// acceleration at rest is recorded per particle and subtracted (physics/background_balance.hpp),
// so the lattice at rest is an exact equilibrium again: stage 1 ends at its first check with no
// kinetic energy; and the records do not depend on the rank count.
TEST(Parallel, MovingObjectWithBalancedBackgroundPressureMatchesOneRankBitForBit) {
  SCOPED_TRACE(world_size());
  const Scene s = parse_scene(box_scene(kSweepingPlate), "box.ini",
                              {{"time.duration", "0.001"},
                               kOffTheSweep,
                               {"fluid.background_pressure", "20000"},
                               {"emitter.center", "0.0075 0.09 0.075"}});
  expect_same_as_one_rank(s);
  Simulation sim(s, MPI_COMM_WORLD);
  const StageStats st = sim.equilibrate();
  EXPECT_EQ(st.steps, 10) << "the lattice at rest should be an equilibrium";
  EXPECT_EQ(st.final_energy, 0.0);
}

TEST(Parallel, EveryLatticeParticleIsOwnedExactlyOnceAfterRebuilds) {
  // A tiny skin and a large deflection: several rebuilds (migrate, new halo plan) during the run.
  const Scene s =
      parse_scene(box_scene(), "box.ini", {{"fluid.skin", "0.01"}, {"emitter.deflection", "2e-4"}});
  Simulation sim(s, MPI_COMM_WORLD);
  sim.equilibrate();
  sim.record(make_impulse(s.time.sample_rate, s.time.duration));
  EXPECT_GT(sim.rebuilds(), 2) << "the scene should exercise rebuilds";
  const Particles& p = sim.particles();
  std::vector<double> ids;
  for (std::size_t i = 0; i < p.n_owned; ++i) ids.push_back(static_cast<double>(p.id(i)));
  std::vector<double> all = gather_doubles(ids, false);
  if (world_rank() != 0) return;
  // 20 x 12 x 10 lattice sites, all filled: the emitter disc (x = 0.0675 m, on a lattice plane)
  // keeps the sites on it, tethered to it (boundary.hpp is_air_site). Their ids are 0 .. 2399,
  // each owned by exactly one rank.
  const std::int64_t expected = 20 * 12 * 10;
  EXPECT_EQ(sim.global_particles(), expected);
  ASSERT_EQ(static_cast<std::int64_t>(all.size()), expected);
  std::sort(all.begin(), all.end());
  for (std::int64_t k = 0; k < expected; ++k)
    ASSERT_EQ(all[k], static_cast<double>(k)) << "id " << k << " lost or duplicated";
}

// Gathers (key -> x, y, z, vx, vy, vz, rho) of the owned entries or of the halo copies.
std::map<std::int64_t, std::vector<double>> gather(const Particles& p, bool halo) {
  std::vector<double> mine;
  const std::size_t first = halo ? p.n_owned : 0, last = halo ? p.n_owned + p.n_halo : p.n_owned;
  for (std::size_t i = first; i < last; ++i)
    mine.insert(mine.end(), {static_cast<double>(p.key[i]), p.x[i], p.y[i], p.z[i], p.vx[i],
                             p.vy[i], p.vz[i], p.rho[i]});
  const std::vector<double> all = gather_doubles(mine, false);
  std::map<std::int64_t, std::vector<double>> out;
  for (std::size_t k = 0; k < all.size(); k += 8)
    out[static_cast<std::int64_t>(all[k])].assign(all.begin() + k + 1, all.begin() + k + 8);
  return out;
}

TEST(Parallel, HaloCopiesEqualTheirOwners) {
  const Scene s = parse_scene(box_scene(), "box.ini", {{"emitter.deflection", "1e-4"}});
  Simulation sim(s, MPI_COMM_WORLD);
  sim.equilibrate();
  sim.record(make_impulse(s.time.sample_rate, s.time.duration));
  const auto owned = gather(sim.particles(), false);
  const auto halo = gather(sim.particles(), true);
  if (world_rank() != 0) return;
  EXPECT_EQ(owned.size(), static_cast<std::size_t>(sim.global_particles()));
  if (world_size() > 1) {
    EXPECT_FALSE(halo.empty());
  }
  for (const auto& [key, fields] : halo) {
    auto it = owned.find(key);
    ASSERT_NE(it, owned.end()) << "halo copy of key " << key << " has no owner";
    EXPECT_EQ(0, std::memcmp(fields.data(), it->second.data(), 7 * sizeof(double)))
        << "halo copy of key " << key << " differs from its owner";
  }
}

TEST(Parallel, HaloHoldsEveryParticleWithinTheHaloWidthOfTheSlab) {
  // Brute force: every particle owned elsewhere that lies within support + skin of one of this
  // rank's particles must be among this rank's halo copies.
  const Scene s = parse_scene(box_scene(), "box.ini");
  Simulation sim(s, MPI_COMM_WORLD);
  const Particles& p = sim.particles();
  std::vector<double> mine;
  for (std::size_t i = 0; i < p.n_owned; ++i)
    mine.insert(mine.end(), {static_cast<double>(p.key[i]), p.x[i], p.y[i], p.z[i]});
  const std::vector<double> all = gather_doubles(mine, true);
  std::vector<std::int64_t> halo_keys(p.key.begin() + p.n_owned,
                                      p.key.begin() + p.n_owned + p.n_halo);
  std::sort(halo_keys.begin(), halo_keys.end());
  const double w = s.derived.halo_width;
  std::size_t needed = 0;
  for (std::size_t k = 0; k < all.size(); k += 4) {
    const auto key = static_cast<std::int64_t>(all[k]);
    if (std::find(p.key.begin(), p.key.begin() + p.n_owned, key) != p.key.begin() + p.n_owned)
      continue;  // owned here
    const Vec3 xj{all[k + 1], all[k + 2], all[k + 3]};
    bool near = false;
    for (std::size_t i = 0; i < p.n_owned && !near; ++i) near = norm(p.position(i) - xj) <= w;
    if (!near) continue;
    ++needed;
    EXPECT_TRUE(std::binary_search(halo_keys.begin(), halo_keys.end(), key))
        << "rank " << world_rank() << " lacks a halo copy of key " << key;
  }
  if (world_size() > 1) {
    EXPECT_GT(needed, 0u);
  }
}

TEST(Parallel, MigrationHandsParticlesToTheirOwners) {
  // One particle per 1 cm along x over [0, 1) m; every rank starts with the ones in its slab,
  // then all move by +0.4 cm, so the first particle of each slab above rank 0 crosses a cut.
  const int size = world_size(), rank = world_rank();
  std::vector<double> pos;
  std::vector<std::int64_t> count;
  for (int k = 0; k < 100; ++k) pos.push_back(0.005 + 0.01 * k), count.push_back(1);
  const Slabs slabs = Slabs::balanced(0, pos, count, 0.0, 1.0, size, 0.05);
  Particles p;
  for (int k = 0; k < 100; ++k) {
    if (slabs.owner(pos[k]) != rank) continue;
    p.resize(p.size() + 1);
    const std::size_t i = p.size() - 1;
    p.x[i] = pos[k] + 0.004;
    p.key[i] = image_key(k, kRealImage);
    p.rho[i] = 1.0 + k;  // a field that must travel with the particle
  }
  p.n_owned = p.size();
  migrate(p, slabs, MPI_COMM_WORLD);
  long long n = static_cast<long long>(p.n_owned), total = 0;
  MPI_Allreduce(&n, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, 100);
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    EXPECT_EQ(slabs.owner(p.x[i]), rank);
    EXPECT_EQ(p.rho[i], 1.0 + static_cast<double>(p.id(i)));
  }
}

TEST(Parallel, KineticEnergyIsIndependentOfTheDecomposition) {
  // Velocities that make floating-point sums order dependent; the integer sum is not.
  const Scene s = parse_scene(box_scene(), "box.ini");
  Simulation sim(s, MPI_COMM_WORLD);
  Particles p = sim.particles();
  for (std::size_t i = 0; i < p.n_owned; ++i)
    p.vx[i] = 1e-3 * (1.0 + 1e-7 * static_cast<double>(p.id(i) % 977));
  const double e_all = kinetic_energy(p, s.derived.particle_mass, 1e-22, MPI_COMM_WORLD);
  double e_sum = 0.0;
  for (std::size_t i = 0; i < p.n_owned; ++i)
    e_sum += 0.5 * s.derived.particle_mass * p.vx[i] * p.vx[i];
  MPI_Allreduce(MPI_IN_PLACE, &e_sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_NEAR(e_all, e_sum, 1e-22 * 3000);
  // The same particles, all on one rank, give the same bits.
  std::vector<double> v;
  for (std::size_t i = 0; i < p.n_owned; ++i) v.push_back(p.vx[i]);
  const std::vector<double> all = gather_doubles(v, false);
  if (world_rank() != 0) return;
  Particles q;
  q.resize(all.size());
  q.n_owned = all.size();
  q.vx = all;
  const double e_one = kinetic_energy(q, s.derived.particle_mass, 1e-22, MPI_COMM_SELF);
  EXPECT_EQ(0, std::memcmp(&e_one, &e_all, sizeof(double)));
}

TEST(Parallel, TooThinSceneIsRefusedOnEveryRankWithoutHanging) {
  // 0.105 m along the longest axis (x) holds at most two slabs of >= 42 mm (the halo depth).
  const Scene s = parse_scene(R"(
[fluid]
spacing = 0.015
[room]
min = 0 0 0
max = 0.105 0.09 0.09
[emitter]
input = impulse
center = 0.03 0.045 0.045
radius = 0.01
[receiver.r]
position = 0.07 0.045 0.045
)",
                              "thin.ini");
  if (world_size() <= 2) {
    EXPECT_NO_THROW(Simulation(s, MPI_COMM_WORLD));
  } else {
    try {
      Simulation sim(s, MPI_COMM_WORLD);
      ADD_FAILURE() << "a scene too thin for " << world_size() << " ranks was accepted";
    } catch (const DecompositionError& e) {
      EXPECT_NE(std::string(e.what()).find("at most 2 ranks"), std::string::npos) << e.what();
      // The rule `check` states (app/check.cpp), with the same thickness.
      EXPECT_NE(std::string(e.what()).find(min_slab_rule(s)), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace sphreverb
