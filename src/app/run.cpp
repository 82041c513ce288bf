// `sphreverb run SCENE.ini [--out DIR] [--SECTION.KEY VALUE ...]`: validates the scene, the input
// and the decomposition, then takes the output directory (clearing an earlier run's files) and
// runs stages 1 and 2.
#include <chrono>

#include "app/detail/input.hpp"
#include "app/detail/run_loop.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/app/app.hpp"
#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/core/timing.hpp"
#include "sphreverb/core/version.hpp"
#include "sphreverb/parallel/collective.hpp"
#include "sphreverb/solver/cost.hpp"
#include "sphreverb/solver/decomposition_estimate.hpp"
#include "sphreverb/solver/hybrid_cost.hpp"

namespace sphreverb {

int run_command(const Command& cmd, MPI_Comm comm) {
  const int rank = detail::rank_of(comm);
  const auto start = std::chrono::steady_clock::now();
  setup_logging(rank);
  install_stop_handlers();
  int code = kExitBadInput;
  try {
    // Every input first: a refused input leaves an earlier run's results alone.
    const Scene scene = load_scene(cmd.scene, cmd.overrides);
    Signal input;
    std::vector<Signal> source_inputs;
    on_root<SignalError>(comm, [&] {
      input = app::load_input(scene);
      source_inputs = app::load_source_inputs(scene);
      app::check_hrtf(scene);
    });
    // The memory needed, from the particle count estimated as `check` does (sampled beyond 1e6
    // lattice sites, so a scene far too large is refused in seconds); DecompositionError.
    refuse_if_out_of_memory(scene, estimate_decomposition(scene), comm);
    refuse_if_hybrid_out_of_memory(scene, comm);  // SceneError
    const double baseline = static_cast<double>(resident_bytes());
    Simulation sim(scene, comm);  // DecompositionError: bad input
    sim.set_source_inputs(std::move(source_inputs));

    const io::RunDir dir(cmd.out.empty() ? scene.output.dir : cmd.out);
    const io::RunDirLock lock =
        app::take_output_dir(scene, dir, true, cmd.out.empty() ? "[output] dir" : "--out", comm);
    setup_logging(rank, dir.log());
    logger("run")->info("sphreverb {} on {} rank(s): {}", SPHREVERB_VERSION, detail::size_of(comm),
                        scene.path);
    code = kExitRunFailed;
    return app::continue_run(scene, dir, sim, input, comm, start, baseline);
  } catch (...) {
    return app::exit_code_of(std::current_exception(), code, cmd.scene, comm);
  }
}

}  // namespace sphreverb
