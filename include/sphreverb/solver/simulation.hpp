// The solver: owns the particles and every part that acts on them; `step()` is the algorithm of
// the README's "How a step works".
//
// Construction, equilibrate(), record() and the accessors marked collective must be called by
// every rank of the communicator in the same order.
#pragma once

#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/core/errors.hpp"
#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/timing.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/emitter.hpp"
#include "sphreverb/model/ghost_walls.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/model/mirror_walls.hpp"
#include "sphreverb/model/point_source.hpp"
#include "sphreverb/model/receiver.hpp"
#include "sphreverb/model/solid_geometry.hpp"
#include "sphreverb/parallel/energy.hpp"
#include "sphreverb/parallel/halo.hpp"
#include "sphreverb/parallel/slabs.hpp"
#include "sphreverb/physics/background_balance.hpp"
#include "sphreverb/physics/interactions.hpp"
#include "sphreverb/physics/neighbour_list.hpp"

namespace sphreverb {

// Stage 1 ended at max_steps with the energy still above the threshold.
class EquilibriumError : public CollectiveError {
 public:
  using CollectiveError::CollectiveError;
};

// m, the thinnest slab a rank may own, the one rule of `check`, `run` and `restart`: the halo
// depth (Derived::halo_depth: the kernel support 2h plus the skin, and 3 dx more for the ghost
// walls' reach when the scene has any), so that halo copies and ghosts come only from the two
// neighbouring slabs.
double min_slab_thickness(const Scene& scene);
// The rule as the messages give it: "each slab must be at least X m thick (the halo depth: ...)".
std::string min_slab_rule(const Scene& scene);

// The decomposition a scene allows: computed identically on every rank, no communication.
struct Decomposition {
  int axis = 0;                           // longest axis of the fill box
  std::vector<double> plane_pos;          // lattice planes along the axis
  std::vector<std::int64_t> plane_count;  // air particles per plane
  std::int64_t particles = 0;
  int max_ranks = 1;              // the most ranks Slabs::balanced accepts at min_slab
  double min_slab = 0.0;          // m, min_slab_thickness(scene)
  double classify_seconds = 0.0;  // wall time of the meshes' side tests on every lattice site
  // Set by estimate_decomposition (decomposition_estimate.hpp) when the meshes' sites were
  // sampled, not counted: the sites classified, the blocks' edge and one standard deviation of
  // `particles` (0 and exact otherwise).
  std::int64_t sampled_sites = 0, sample_block = 1;
  double particles_sigma = 0.0;
  static Decomposition of(const Scene& scene);
};

// The simulation became unstable at a step: a position is not finite, or a particle is outside
// the fill box ([fluid] fill_min/fill_max, the room by default) by more than the halo width
// (support + skin); a runaway particle would otherwise grow the neighbour grid with the
// particles' bounding box until memory runs out. Thrown on every rank; the message names the
// step, the time and the particle's position.
class InstabilityError : public CollectiveError {
 public:
  using CollectiveError::CollectiveError;
};

struct SimulationState;  // simulation_state.hpp: what a checkpoint stores

struct StageStats {
  std::int64_t steps = 0;
  std::int64_t steps_run = 0;  // of those, run by this process (fewer after a restart)
  double wall_seconds = 0.0;
  double final_energy = 0.0;  // J (stage 1)
};

class Simulation {
 public:
  // Collective. Cuts the slabs, fills the lattice, builds halos, ghosts and neighbour lists.
  // Throws DecompositionError if the scene is too thin for the communicator's size.
  Simulation(const Scene& scene, MPI_Comm comm);

  // Collective: stage 1, steps without the emitter (and with the relaxation damping) until the
  // kinetic energy is below [equilibrium] energy. Throws EquilibriumError at max_steps.
  StageStats equilibrate();

  // Collective: stage 2, `derived.steps` steps with the emitter driven by `input` (significant on
  // rank 0 only, at the run's sample rate). The receivers record every step, starting with the
  // reference at t = 0; rank 0 then holds steps + 1 densities per receiver.
  StageStats record(const Signal& input);
  // Rank 0, before record(): the input of each [emitter.NAME] source in scene order, at the run's
  // sample rate (a source without one stays silent).
  void set_source_inputs(std::vector<Signal> inputs) { source_inputs_ = std::move(inputs); }
  const std::vector<Signal>& source_inputs() const { return source_inputs_; }  // rank 0

  // One time step (collective). `acoustic`: the emitter moves (stage 2); else stage 1 damping.
  void step(bool acoustic);

  // Where the run stands at a step boundary, beyond the particles: enough for equilibrate() and
  // record() to continue exactly where they were.
  struct RunState {
    int stage = 1;                      // 1 equilibrium, 2 recording
    std::int64_t stage1_steps = 0;      // steps done in stage 1
    double energy = HUGE_VAL;           // J, the last stage-1 energy check
    double previous_energy = HUGE_VAL;  // J, the check before it
    double stage1_wall_seconds = 0.0;   // s, wall time stage 1 took (informative)
    bool reference_taken = false;       // the receivers' t = 0 record exists
  };
  const RunState& run_state() const { return run_; }
  std::int64_t acoustic_steps() const { return acoustic_step_; }
  // Steps since the run began, stage 1 included (checkpoint names use it).
  std::int64_t total_steps() const { return run_.stage1_steps + acoustic_step_; }

  // Called on every rank after each step of equilibrate() and record(), at the step boundary
  // (receivers measured, halos consistent). It may throw a CollectiveError (on every rank) to
  // stop the run there. Checkpoints and signal handling hook in here.
  void on_step(std::function<void()> hook) { after_step_ = std::move(hook); }
  // A local stop request (stop_signal.hpp's stop_requested), polled by every step's rebuild check
  // and agreed over the ranks in the same reduction, so stopping costs no collective of its own.
  // stop_agreed(): after a step, true on every rank if the probe was true on some rank in it.
  // The probe returns the signal number received (0: none); stop_signal_agreed(): the largest
  // one over the ranks, so a signal that reached one rank only is reported by every rank.
  void on_stop_probe(std::function<int()> probe) { stop_probe_ = std::move(probe); }
  bool stop_agreed() const { return stop_agreed_; }
  int stop_signal_agreed() const { return stop_signal_; }

  // Collective (simulation_state.cpp): this rank's owned particles, the run state, and on rank 0
  // every receiver record so far and the emitter's progress. Flushes the receivers (harmless:
  // the sums onto rank 0 are exact).
  SimulationState export_state();
  // Collective: export_state() without the copy of the particles (state.particles is empty):
  // what a checkpoint writes beside particles(), whose owned rows it writes in place.
  SimulationState export_run_state();
  // Collective (simulation_state.cpp): replaces the particles and the run state by `state`, whose
  // particles may be any share of the global set on each rank (e.g. an even block of a file):
  // they are sent to the ranks that own them, then everything is rebuilt. The result is the
  // state that was exported, on any rank count. Throws CollectiveError if the global particle
  // count or the keys do not match this scene.
  void import_state(SimulationState state);

  const Scene& scene() const { return scene_; }
  const Particles& particles() const { return p_; }
  const Receivers& receivers() const { return receivers_; }
  // With [output] energy: the acoustic energy at t = 0 and after every audio sample of stage 2
  // (samples + 1 records, identical on every rank).
  const std::vector<AcousticEnergy>& energy() const { return energy_; }
  const Slabs& slabs() const { return slabs_; }
  const GhostWalls& ghost_walls() const { return ghosts_; }
  const Decomposition& decomposition() const { return decomposition_; }
  std::int64_t global_particles() const { return global_particles_; }
  std::int64_t rebuilds() const { return rebuilds_; }
  // Each owned particle's position at the last neighbour rebuild (m), row for row with the owned
  // particles of particles(): what the lists, halos and ghosts were built from.
  const std::vector<double>& rebuild_x() const { return rebuild_x_; }
  const std::vector<double>& rebuild_y() const { return rebuild_y_; }
  const std::vector<double>& rebuild_z() const { return rebuild_z_; }
  // Collective: owned particles per rank (on every rank).
  std::vector<std::int64_t> particles_per_rank() const;
  // Collective: mean neighbours per particle within the kernel support (self excluded).
  double neighbours_per_particle() const;
  // This rank's wall time per step phase, stage 2 only (reset when record() starts).
  const PhaseTimes& timings() const { return timings_; }

 private:
  void rebuild();
  // The stage-2 time (s) at which the moving objects (boundary.hpp) are posed for the tethers
  // of a rebuild at the current step: the start of the current period of object_period_ steps
  // (0 in stage 1). A function of the step alone, so a restart poses them as the run did.
  double objects_pose_time() const;
  void balance_by_cost();  // construction with several ranks: cuts by work (slab_cost.hpp)
  void build_ghosts(double fill_seconds);  // this slab's ghost walls (none without meshes)
  void move_faces();
  void refresh(FieldSet fields);
  // Collective, in two halves around the halo refresh: has some particle moved skin / 2 since
  // the last rebuild (then true on every rank); also agrees on stop_agreed_ and throws
  // InstabilityError if a particle ran away (stability_check).
  void start_rebuild_check();
  bool finish_rebuild_check();
  // Collective, called only when the cheap bound of the rebuild check (the distance of a particle
  // from its lattice site) exceeds the limit: each particle's distance outside the fill box,
  // exactly; throws InstabilityError if one is further than the limit (m), naming the worst.
  void stability_check(double limit);
  EmitterState drive(bool acoustic);  // rank 0 computes, everyone receives
  // The stage-2 time until which the sources drive the air (the inputs' ends plus the drives'
  // settling; EnergyWatch). Collective.
  double drive_end(const Signal& input) const;
  void hyperdiffuse();               // the hyperdiffusion filter, every kHyperdiffusionEvery steps
  void shift_particles();            // the particle shifting of the moving air, where on
  void hyperviscous();               // its velocity counterpart (hyperdiffuse() calls it)
  void record_background_balance();  // collective, at construction if P_b > 0

  Scene scene_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  Decomposition decomposition_;
  Lattice lattice_;  // ids and rest positions (Lattice::site_of) of the particles
  Slabs slabs_;
  std::vector<Wall> walls_;
  MirrorWalls mirror_;
  SolidGeometry geometry_;        // the [geometry.NAME] meshes (empty without)
  bool emitter_on_wall_ = false;  // the emitter disc lies on a ghost wall (emitter_on_ghost_wall)
  GhostWalls ghosts_;             // their walls; ghosts after the mirror walls' images
  Halo halo_;
  NeighbourList neighbours_;
  std::vector<Tether> tethers_;
  Receivers receivers_;
  PairPhysics physics_;
  BackgroundBalance background_;  // the background pressure's acceleration at rest, subtracted
  EmitterDrive emitter_;
  PointSources sources_;                               // [emitter.NAME]
  std::vector<Signal> source_inputs_;                  // rank 0
  std::vector<EmitterDrive> source_drives_;            // rank 0: each source's volume velocity
  std::vector<double> source_q_;                       // m^3/s, each source's Q at the current step
  double source_time_ = 0.0;                           // s, the stage-2 time of the current step
  std::vector<EmitterDrive::Progress> source_resume_;  // rank 0, as emitter_resume_
  Particles p_;
  PhaseTimes timings_;
  std::vector<AcousticEnergy> energy_;
  // Each owned particle's position at the last rebuild (m), bit for bit: the rebuild test
  // compares the displacement since with skin / 2, and a checkpoint stores them so that a restart
  // rebuilds from the very positions the lists, halos and ghosts were built from.
  std::vector<double> rebuild_x_, rebuild_y_, rebuild_z_;
  std::vector<double> scratch_;
  std::vector<double> filter_[3];  // L(v) per entry for the hyperviscosity
  std::int64_t global_particles_ = 0, rebuilds_ = 0, acoustic_step_ = 0;
  RunState run_;
  EmitterDrive::Progress emitter_resume_;  // rank 0: applied by record() after import_state()
  std::function<void()> after_step_;
  std::function<int()> stop_probe_;
  bool stop_agreed_ = false;
  int stop_signal_ = 0;
  // The rebuild check's reduction (max over the ranks): displacement^2 since the last rebuild,
  // signal number of a stop request (0: none), and a bound on the distance of any particle from
  // its lattice site (m): sqrt of the first plus site_bound_.
  double check_[3] = {0.0, 0.0, 0.0};
  // This rank's largest distance of a rebuild position from its lattice site (m), set by rebuild().
  double site_bound_ = 0.0;
  // Steps in which no moving object moves more than skin / 2 (0: none moves); a rebuild falls
  // at the start of every such period of stage 2.
  std::int64_t object_period_ = 0;
  MPI_Request check_request_ = MPI_REQUEST_NULL;
};

}  // namespace sphreverb
