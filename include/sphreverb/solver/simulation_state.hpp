// What a checkpoint holds of a Simulation: the owned particles of each rank, where the run stands
// (stage, steps, stage-1 energy checks), and on rank 0 the receivers' records and the emitter's
// progress. Simulation::export_state() produces it, Simulation::import_state() takes it back on
// any rank count (simulation_state.cpp); checkpoint.hpp moves it to and from HDF5.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/model/emitter.hpp"
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb {

struct SimulationState {
  // Owned particles only (n_owned = size(); the per-step results ax..drho are not part of the
  // state: step() recomputes them before use). x at t^n, v at t^(n-1/2), rho at t^n.
  Particles particles;
  // Each particle's position at the last neighbour rebuild (m), row for row with `particles`
  // (export_state, read_checkpoint); empty if not known (a checkpoint without them: the restart
  // then rebuilds at the current positions, exact only if the lists come out the same). A restart
  // builds migration, halos, ghosts and lists from them, as the uninterrupted run did: which
  // pairs a list holds decides the lanes of its sums (interactions.cpp), so a rebuild at other
  // positions can change low bits.
  std::vector<double> rebuild_x, rebuild_y, rebuild_z;
  // export_run_state(): the same rows viewed in the Simulation, whose owned rows a checkpoint
  // writes in place (no copy; valid until the Simulation's next step).
  const double* rebuild_view[3] = {nullptr, nullptr, nullptr};
  // Axis a's rebuild positions (the view, else the vector), or nullptr if not known.
  const double* rebuild_position(int a) const {
    if (rebuild_view[a]) return rebuild_view[a];
    const std::vector<double>& v = a == 0 ? rebuild_x : (a == 1 ? rebuild_y : rebuild_z);
    return v.empty() ? nullptr : v.data();
  }
  // The face elements of the reacting ghost walls (ghost_walls.hpp), by ghost key: export_state
  // gives this rank's active ones; a checkpoint read gives every row of the file (a site near a
  // slab face may repeat, identically), and import_state sets each rank's sites from them.
  // ghost_face_state: the state has them (false: a checkpoint without, which a scene with
  // reacting ghost faces refuses).
  std::vector<GhostWalls::FaceState> ghost_faces;
  bool ghost_face_state = false;
  Simulation::RunState run;
  std::int64_t acoustic_steps = 0;  // stage-2 steps done
  std::int64_t rebuilds = 0;        // neighbour rebuilds so far (informative)
  // Rank 0 only (empty elsewhere): every receiver record so far, one vector per receiver in scene
  // order (kg/m^3; record 0 is the t = 0 reference), and the emitter drive's progress.
  std::vector<std::vector<double>> receiver_density;
  // Rank 0 only: the receivers' velocity records (m/s), x y z per receiver in scene order
  // (Receivers::velocity_series: empty vectors for omni receivers).
  std::vector<std::vector<double>> receiver_velocity;
  EmitterDrive::Progress emitter;
  // Rank 0 only: each [emitter.NAME] source's drive progress, in scene order.
  std::vector<EmitterDrive::Progress> sources;
};

}  // namespace sphreverb
