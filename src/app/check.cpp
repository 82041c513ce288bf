// `sphreverb check SCENE.ini [--ranks N] [...]`: validates the scene and prints what the run
// would cost; runs nothing and writes nothing.
#include <iostream>
#include <string>
#include <vector>

#include "app/detail/input.hpp"
#include "app/detail/report.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/app/app.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/solver/cost.hpp"
#include "sphreverb/solver/hybrid_cost.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {

int check_command(const Command& cmd, MPI_Comm comm) {
  const int rank = detail::rank_of(comm);
  setup_logging(rank);
  try {
    const Scene scene = load_scene(cmd.scene, cmd.overrides);
    const Decomposition dec = Decomposition::of(scene);
    const int ranks = cmd.ranks > 0 ? cmd.ranks : detail::size_of(comm);
    if (rank == 0)
      std::cout << app::describe(scene, dec, ranks) << app::surfaces_report(scene)
                << cost_report(scene, estimate_cost(scene, dec, ranks))
                << hybrid_cost_report(estimate_hybrid_cost(scene, ranks));
    if (rank == 0)
      if (const ObliqueMessage m = oblique_wall_message(scene); !m.text.empty())
        std::cout << (m.warning ? "  warning: " : "  note: ") << m.text << "\n";
    if (rank == 0 && !scene.sources.empty()) {
      // The sources' inputs for their level warnings; an input that cannot be read is the run's
      // error (it reads them first), not check's.
      std::vector<Signal> inputs;
      try {
        inputs = app::load_source_inputs(scene);
      } catch (const std::exception&) {
        inputs.clear();
      }
      for (const std::string& w : app::source_level_warnings(scene, inputs))
        std::cout << "  warning: " << w << "\n";
    }
    if (ranks > dec.max_ranks) {
      if (rank == 0)
        logger("run")->error(
            "{}: too thin for {} ranks: at most {} (each slab must be at least {:g} m thick)",
            cmd.scene, ranks, dec.max_ranks, scene.derived.halo_width);
      return kExitBadInput;
    }
    return kExitOk;
  } catch (const std::exception& e) {
    if (rank == 0) logger("run")->error("{}", e.what());
    return kExitBadInput;
  }
}

}  // namespace sphreverb
