// `sphreverb restart CHECKPOINT.h5 [--out DIR] [--time.duration S] [--output.KEY V]`: reads and
// validates the checkpoint against the scene it carries (and the files that scene includes),
// then takes the output directory and continues the run.
#include <chrono>
#include <filesystem>

#include "app/detail/input.hpp"
#include "app/detail/run_loop.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/app/app.hpp"
#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/core/timing.hpp"
#include "sphreverb/core/version.hpp"
#include "sphreverb/io/checkpoint.hpp"
#include "sphreverb/parallel/collective.hpp"
#include "sphreverb/solver/hybrid_cost.hpp"

namespace sphreverb {

namespace {

// Only the duration and the outputs may change on a restart; the physics may not.
void refuse_physics_overrides(const Command& cmd) {
  for (const auto& [key, value] : cmd.overrides)
    if (key != "time.duration" && key.rfind("output.", 0) != 0)
      throw SceneError(cmd.scene +
                       ": restart accepts --time.duration and --output.KEY overrides only, not "
                       "--" +
                       key + " (the physics must not change)");
}

// Default output: the run directory the checkpoint lives in (DIR/checkpoints/step_N.h5).
std::string output_dir(const Command& cmd, const Scene& scene) {
  if (!cmd.out.empty()) return cmd.out;
  const std::filesystem::path parent = std::filesystem::path(cmd.scene).parent_path();
  if (parent.filename() != "checkpoints") return scene.output.dir;
  return parent.parent_path().empty() ? std::string(".") : parent.parent_path().string();
}

// A checkpoint written before the mesh files were stamped cannot tell a changed mesh: said once.
void warn_if_meshes_not_compared(bool compared, const Scene& scene, const std::string& file,
                                 int rank) {
  if (compared || scene.geometries.empty() || rank != 0) return;
  logger("run")->warn(
      "{} does not record its mesh files (written by an earlier version): they are not compared "
      "with the ones on disk; a changed mesh would continue with a different geometry",
      file);
}

}  // namespace

int restart_command(const Command& cmd, MPI_Comm comm) {
  const int rank = detail::rank_of(comm);
  const auto start = std::chrono::steady_clock::now();
  setup_logging(rank);
  install_stop_handlers();
  int code = kExitBadInput;
  try {
    // Every input first: a refused checkpoint leaves the results already in DIR alone.
    refuse_physics_overrides(cmd);
    Checkpoint ckpt = read_checkpoint(cmd.scene, comm);
    std::map<std::string, std::string> overrides = ckpt.overrides;
    for (const auto& [key, value] : cmd.overrides) overrides[key] = value;
    check_includes(ckpt, comm);
    const bool meshes_compared = check_mesh_files(ckpt, comm);
    const Scene scene = parse_scene(ckpt.scene_text, ckpt.scene_path, overrides);
    const double baseline = static_cast<double>(resident_bytes());
    Simulation sim(scene, comm);  // DecompositionError: bad input
    check_compatible(ckpt, scene, sim.global_particles());
    refuse_if_hybrid_out_of_memory(scene, comm);  // this node's memory: SceneError

    const io::RunDir dir(output_dir(cmd, scene));
    const io::RunDirLock lock = app::take_output_dir(
        scene, dir, false, cmd.out.empty() ? "the checkpoint's run directory" : "--out", comm);
    setup_logging(rank, dir.log());
    auto log = logger("run");
    log->info(
        "sphreverb {} on {} rank(s): restart from {} (step {}, t = {:.6g} s, written by "
        "sphreverb {})",
        SPHREVERB_VERSION, detail::size_of(comm), cmd.scene, ckpt.step, ckpt.time,
        ckpt.program_version);
    if (ckpt.program_version != SPHREVERB_VERSION && rank == 0)
      log->warn(
          "{} was written by sphreverb {}, this is {}: same layout, but the results may "
          "differ from an uninterrupted run",
          cmd.scene, ckpt.program_version, SPHREVERB_VERSION);
    warn_if_meshes_not_compared(meshes_compared, scene, cmd.scene, rank);
    code = kExitRunFailed;
    Signal input = std::move(ckpt.input);
    std::vector<Signal> source_inputs;  // read again (the checkpoint holds their progress)
    on_root<SignalError>(comm, [&] {
      source_inputs = app::load_source_inputs(scene);
      app::check_hrtf(scene);
    });
    sim.set_source_inputs(std::move(source_inputs));
    sim.import_state(std::move(ckpt.state));
    return app::continue_run(scene, dir, sim, input, comm, start, baseline);
  } catch (...) {
    return app::exit_code_of(std::current_exception(), code, cmd.scene, comm);
  }
}

}  // namespace sphreverb
