// `sphreverb check SCENE.ini [--ranks N] [...]`: validates the scene and prints what the run
// would cost; runs nothing and writes nothing.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/detail/input.hpp"
#include "app/detail/report.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/app/app.hpp"
#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/solver/cost.hpp"
#include "sphreverb/solver/decomposition_estimate.hpp"
#include "sphreverb/solver/hybrid_cost.hpp"
#include "sphreverb/solver/rate_probe.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {

namespace {
std::string rate_line(const MeasuredRate& r, const CostEstimate& c) {
  std::ostringstream o;
  o.precision(3);
  if (!(r.particle_steps_per_second > 0.0))
    return "  measured speed       not measured (" + r.error + ")\n";
  o << "  measured speed       " << r.particle_steps_per_second
    << " particle-steps/s on one idle core (CPU time; " << r.steps << " steps of " << r.particles
    << " particles, a closed box with the scene's [fluid] physics, in " << r.seconds << " s)\n";
  // The share of a core the probe got: below ~0.8 the machine is busy now.
  const double share = r.now_particle_steps_per_second / r.particle_steps_per_second;
  if (share < 0.8)
    o << "  machine busy now     the probe got " << 100.0 * std::min(1.0, share)
      << " % of a core: started now, stage 2 takes ~" << c.wall_seconds / share / 60.0
      << " min or more on " << c.ranks << " rank(s) (several ranks wait for the slowest)\n";
  return o.str();
}

// The decomposition at any lattice size (exact up to kEstimateSiteBudget sites, sampled beyond),
// stopping on a stop signal (the handlers are installed at start-up, main.cpp).
// Test hook: SPHREVERB_TEST_SITE_BUDGET=N takes N sites as the budget (a long classification).
Decomposition check_decomposition(const Scene& scene) {
  std::int64_t budget = kEstimateSiteBudget;
  if (const char* b = std::getenv("SPHREVERB_TEST_SITE_BUDGET"))
    budget = std::max<std::int64_t>(1, std::atoll(b));
  return estimate_decomposition(scene, budget, [] { return stop_requested(); });
}

// A stop signal ends `check` with exit 130, saying which signal.
int stopped(int rank, const std::string& scene) {
  if (rank == 0)
    logger("run")->error("{}: check stopped by signal {} (nothing was written)", scene,
                         stop_signal());
  return kExitInterrupted;
}

}  // namespace

int check_command(const Command& cmd, MPI_Comm comm) {
  const int rank = detail::rank_of(comm);
  setup_logging(rank);
  try {
    const Scene scene = load_scene(cmd.scene, cmd.overrides);
    if (stop_requested()) return stopped(rank, cmd.scene);
    const Decomposition dec = check_decomposition(scene);
    if (stop_requested()) return stopped(rank, cmd.scene);
    const int ranks = cmd.ranks > 0 ? cmd.ranks : detail::size_of(comm);
    if (rank == 0) {
      // The wall time at the rate an idle core of this machine gives the scene's physics
      // (rate_probe.hpp), and how busy the machine is now.
      const MeasuredRate rate = measure_particle_steps_per_second(scene);
      const CostEstimate cost = estimate_cost(scene, dec, ranks, rate.particle_steps_per_second);
      std::cout << app::describe(scene, dec, ranks) << app::surfaces_report(scene)
                << rate_line(rate, cost) << cost_report(scene, cost);
      const HybridCost geometric = estimate_hybrid_cost(scene, ranks);
      if (geometric.present) {
        std::ostringstream o;
        o.precision(3);
        o << hybrid_cost_report(geometric) << "  whole run            ~"
          << duration_text(cost.wall_seconds + geometric.seconds()) << " on " << ranks
          << " core(s), " << cost.core_hours + geometric.seconds() * geometric.ranks / 3600.0
          << " core-hours (the SPH, its set-up and the geometric part)\n";
        std::cout << o.str();
      }
    }
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
        logger("run")->error("{}: the scene is too thin for {} ranks: use at most {} ranks; {}",
                             cmd.scene, ranks, dec.max_ranks, min_slab_rule(scene));
      return kExitBadInput;
    }
    return kExitOk;
  } catch (const EstimateStopped&) {
    return stopped(rank, cmd.scene);
  } catch (const std::exception& e) {
    if (rank == 0) logger("run")->error("{}", e.what());
    return kExitBadInput;
  }
}

}  // namespace sphreverb
