// Checkpoints through HDF5 at several rank counts (tests/checkpoint/CMakeLists.txt): a written
// and re-read checkpoint equals the state it came from, field by field and bit for bit; a state
// imported on another rank count continues to the same receiver samples as a run that never
// stopped (with neighbour rebuilds, force walls, and a checkpoint in stage 1 and in stage 2).
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "../common/world.hpp"
#include "sphreverb/audio/test_signals.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/core/errors.hpp"
#include "sphreverb/io/checkpoint.hpp"
#include "sphreverb/solver/simulation.hpp"
#include "sphreverb/solver/simulation_state.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

using test_support::world_rank;
using test_support::world_size;

// A 0.3 x 0.18 x 0.15 m box of spring walls at 1.5 cm with a plate inside, 2 ms of an impulse; a
// tiny skin and a large deflection force neighbour rebuilds, the spring walls and a plate give
// tethers.
std::string box_scene() {
  return R"(
[time]
sample_rate = 44100
duration = 0.002
[fluid]
spacing = 0.015
skin = 0.01
viscosity = 0.02
[room]
min = 0 0 0
max = 0.3 0.18 0.15
material = soft
[material.soft]
stiffness = 2e7
damping = 100
[boundary.plate]
shape = rectangle
center = 0.2 0.09 0.075
normal = 1 0 0
size = 0.1 0.06
[emitter]
input = sweep
center = 0.0675 0.09 0.075
radius = 0.03
deflection = 2e-4
[receiver.mid]
position = 0.151 0.1 0.07
type = ambisonic
[receiver.far]
position = 0.27 0.05 0.12
)";
}

// Bit patterns of every state field of every particle, gathered on every rank, keyed by key.
using Table = std::map<std::int64_t, std::vector<std::uint64_t>>;
Table gather_by_key(const Particles& p, MPI_Comm comm) {
  std::vector<std::uint64_t> mine;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const double f[] = {p.x[i], p.y[i], p.z[i], p.vx[i], p.vy[i], p.vz[i], p.rho[i]};
    mine.push_back(static_cast<std::uint64_t>(p.key[i]));
    for (double v : f) {
      std::uint64_t u = 0;
      std::memcpy(&u, &v, 8);
      mine.push_back(u);
    }
  }
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int n = static_cast<int>(mine.size());
  std::vector<int> counts(size), displs(size, 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<std::uint64_t> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), n, MPI_UINT64_T, all.data(), counts.data(), displs.data(),
                 MPI_UINT64_T, comm);
  Table t;
  for (std::size_t k = 0; k < all.size(); k += 8)
    t[static_cast<std::int64_t>(all[k])] =
        std::vector<std::uint64_t>(all.begin() + k + 1, all.begin() + k + 8);
  return t;
}

struct Stop {};  // thrown by the step hook to interrupt a run

// A scratch directory shared by all ranks (rank 0 creates and removes it), named after rank 0's
// process id so that two runs of the same test at once (two build trees) keep apart.
struct SharedDir {
  std::string path;
  explicit SharedDir(const std::string& name) {
    long pid = world_rank() == 0 ? static_cast<long>(::getpid()) : 0;
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    path = (fs::temp_directory_path() / ("sphreverb_ckpt_" + name + "_np" +
                                         std::to_string(world_size()) + "_" + std::to_string(pid)))
               .string();
    if (world_rank() == 0) fs::remove_all(path), fs::create_directories(path);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  ~SharedDir() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) fs::remove_all(path);
  }
};

// Rank 0's receiver records: every density series, then the ambisonic velocity series.
std::vector<std::vector<double>> records(const Simulation& sim) {
  std::vector<std::vector<double>> out;
  for (std::size_t k = 0; k < sim.receivers().size(); ++k)
    out.push_back(sim.receivers().density(k));
  for (auto& v : sim.receivers().velocity_series())
    if (!v.empty()) out.push_back(std::move(v));
  return out;
}

// Runs the scene to the end on comm; rank 0's receiver records.
std::vector<std::vector<double>> uninterrupted(const Scene& scene, const Signal& input,
                                               MPI_Comm comm) {
  Simulation sim(scene, comm);
  sim.equilibrate();
  sim.record(input);
  return records(sim);
}

// Runs until `stop_at` total steps, writes a checkpoint there, and returns its path.
std::string run_and_checkpoint(const Scene& scene, const Signal& input, std::int64_t stop_at,
                               const std::string& dir, SimulationState* exported) {
  Simulation sim(scene, MPI_COMM_WORLD);
  sim.on_step([&] {
    if (sim.total_steps() == stop_at) throw Stop{};
  });
  try {
    sim.equilibrate();
    sim.record(input);
  } catch (const Stop&) {
  }
  EXPECT_EQ(sim.total_steps(), stop_at);
  SimulationState s = sim.export_state();
  const CheckpointWritten w = write_checkpoint(dir, scene, s, input, MPI_COMM_WORLD);
  EXPECT_GT(w.bytes, 0u);
  if (exported != nullptr) *exported = std::move(s);
  return w.path;
}

class Checkpoints : public ::testing::Test {
 protected:
  Scene scene = parse_scene(box_scene(), "box.ini");
  Signal input = make_sweep(44100.0, 0.002, 20.0, 19845.0);
};

TEST_F(Checkpoints, RoundTripIsExactFieldByField) {
  SharedDir dir("roundtrip");
  SimulationState out;
  const std::string path = run_and_checkpoint(scene, input, 10 + 37, dir.path, &out);
  const Checkpoint in = read_checkpoint(path, MPI_COMM_WORLD);

  // Particles: the file's even blocks hold exactly the exported owned particles.
  const Table a = gather_by_key(out.particles, MPI_COMM_WORLD);
  const Table b = gather_by_key(in.state.particles, MPI_COMM_WORLD);
  ASSERT_EQ(static_cast<std::int64_t>(a.size()), in.particles);
  ASSERT_GT(a.size(), 2000u);
  EXPECT_TRUE(a == b) << "particle fields differ after the round trip";

  // Run state, emitter, receivers, input, scene.
  EXPECT_EQ(in.step, 47);
  EXPECT_EQ(in.dt, scene.derived.dt);
  EXPECT_EQ(in.state.run.stage, 2);
  EXPECT_EQ(in.state.run.stage1_steps, out.run.stage1_steps);
  EXPECT_EQ(in.state.run.energy, out.run.energy);
  EXPECT_EQ(in.state.run.previous_energy, out.run.previous_energy);
  EXPECT_EQ(in.state.run.reference_taken, true);
  EXPECT_EQ(in.state.acoustic_steps, 37);
  EXPECT_EQ(in.state.rebuilds, out.rebuilds);
  EXPECT_EQ(in.scene_text, scene.text);
  EXPECT_EQ(in.scene_hash, scene_hash(scene.text, scene.overrides));
  EXPECT_EQ(in.receiver_names, (std::vector<std::string>{"mid", "far"}));
  if (world_rank() == 0) {
    EXPECT_EQ(in.state.emitter.next, out.emitter.next);
    EXPECT_EQ(in.state.emitter.shift, out.emitter.shift);
    EXPECT_EQ(in.state.emitter.speed, out.emitter.speed);
    EXPECT_EQ(in.state.emitter.last_acc, out.emitter.last_acc);
    EXPECT_NE(out.emitter.shift, 0.0) << "the emitter should have moved";
    EXPECT_EQ(in.input.rate, input.rate);
    // The input from the first sample still to play on; zeros before (already played).
    ASSERT_EQ(in.input.samples.size(), input.samples.size());
    EXPECT_GT(in.input_offset, 0);
    for (std::size_t k = 0; k < input.samples.size(); ++k)
      ASSERT_EQ(in.input.samples[k],
                k < static_cast<std::size_t>(in.input_offset) ? 0.0 : input.samples[k])
          << "input sample " << k;
    ASSERT_EQ(in.state.receiver_density.size(), 2u);
    EXPECT_EQ(in.state.receiver_density, out.receiver_density);
    EXPECT_EQ(in.state.receiver_density[0].size(), 38u);
    // Velocity: x y z per receiver; "mid" is ambisonic, "far" omni (written as zeros).
    ASSERT_EQ(in.state.receiver_velocity.size(), 6u);
    for (std::size_t axis = 0; axis < 3; ++axis) {
      EXPECT_EQ(in.state.receiver_velocity[axis], out.receiver_velocity[axis]);
      EXPECT_EQ(in.state.receiver_velocity[axis].size(), 38u);
      EXPECT_EQ(in.state.receiver_velocity[3 + axis], std::vector<double>(38, 0.0));
    }
  }
}

TEST_F(Checkpoints, StateImportedOnAnotherRankCountExportsTheSame) {
  SharedDir dir("import");
  SimulationState out;
  const std::string path = run_and_checkpoint(scene, input, 10 + 20, dir.path, &out);
  const Table before = gather_by_key(out.particles, MPI_COMM_WORLD);
  // Import on rank 0 alone, and on every rank (a different rank count than the writer's when
  // the world has more than one rank).
  for (bool solo : {true, false}) {
    MPI_Comm comm = MPI_COMM_WORLD;
    if (solo) MPI_Comm_split(MPI_COMM_WORLD, world_rank() == 0 ? 0 : MPI_UNDEFINED, 0, &comm);
    if (comm != MPI_COMM_NULL) {
      Checkpoint c = read_checkpoint(path, comm);
      Simulation sim(scene, comm);
      check_compatible(c, scene, sim.global_particles());
      sim.import_state(std::move(c.state));
      const Table after = gather_by_key(sim.export_state().particles, comm);
      EXPECT_TRUE(before == after) << (solo ? "on 1 rank" : "on every rank");
      EXPECT_EQ(sim.total_steps(), 30);
      if (solo) MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Restarting from a checkpoint (stage 1 or stage 2) on 1 rank and on every rank gives receiver
// records bit for bit those of the run that never stopped.
TEST_F(Checkpoints, RestartEqualsUninterruptedOnAnyRankCount) {
  SharedDir dir("restart");
  const auto reference = uninterrupted(scene, input, MPI_COMM_WORLD);
  for (std::int64_t stop_at : {5, 10 + 50}) {  // stage 1 (it ends at step 10), stage 2
    const std::string path = run_and_checkpoint(scene, input, stop_at, dir.path, nullptr);
    for (bool solo : {true, false}) {
      if (!solo && world_size() == 1) continue;  // the world is the solo rank
      MPI_Comm comm = MPI_COMM_WORLD;
      if (solo) MPI_Comm_split(MPI_COMM_WORLD, world_rank() == 0 ? 0 : MPI_UNDEFINED, 0, &comm);
      if (comm != MPI_COMM_NULL) {
        Checkpoint c = read_checkpoint(path, comm);
        Simulation sim(scene, comm);
        sim.import_state(std::move(c.state));
        EXPECT_EQ(sim.equilibrate().steps, 10);
        sim.record(world_rank() == 0 ? c.input : Signal{});
        if (world_rank() == 0) {
          const auto restarted = records(sim);
          ASSERT_EQ(restarted.size(), reference.size());
          ASSERT_EQ(reference.size(), 5u);  // 2 densities, 3 velocity components
          for (std::size_t k = 0; k < reference.size(); ++k) {
            ASSERT_EQ(restarted[k].size(), reference[k].size());
            EXPECT_EQ(0, std::memcmp(restarted[k].data(), reference[k].data(),
                                     reference[k].size() * sizeof(double)))
                << "record series " << k << ", restart at step " << stop_at << " on "
                << (solo ? 1 : world_size()) << " rank(s)";
          }
        }
        EXPECT_GT(sim.rebuilds(), 3) << "the scene should exercise rebuilds";
        if (solo) MPI_Comm_free(&comm);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
}

TEST_F(Checkpoints, AnotherSceneIsRefused) {
  SharedDir dir("refuse");
  const std::string path = run_and_checkpoint(scene, input, 12, dir.path, nullptr);
  const Checkpoint c = read_checkpoint(path, MPI_COMM_WORLD);
  const Scene finer = parse_scene(box_scene(), "box.ini", {{"fluid.spacing", "0.0125"}});
  EXPECT_THROW(check_compatible(c, finer, 4000), CheckpointError);
  const Scene other_dt = parse_scene(box_scene(), "box.ini", {{"time.substeps", "5"}});
  EXPECT_THROW(check_compatible(c, other_dt, c.particles), CheckpointError);
  EXPECT_NO_THROW(check_compatible(c, scene, c.particles));
  EXPECT_THROW(read_checkpoint(dir.path + "/missing.h5", MPI_COMM_WORLD), CheckpointError);
}

}  // namespace
}  // namespace sphreverb
