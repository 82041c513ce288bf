// What a checkpoint holds of a Simulation: the owned particles of each rank, where the run stands
// (stage, steps, stage-1 energy checks), and on rank 0 the receivers' records and the emitter's
// progress. Simulation::export_state() produces it, Simulation::import_state() takes it back on
// any rank count (simulation_state.cpp); checkpoint.hpp moves it to and from HDF5.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/model/emitter.hpp"
#include "sphreverb/core/particles.hpp"
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb {

struct SimulationState {
  // Owned particles only (n_owned = size(); the per-step results ax..drho are not part of the
  // state: step() recomputes them before use). x at t^n, v at t^(n-1/2), rho at t^n.
  Particles particles;
  Simulation::RunState run;
  std::int64_t acoustic_steps = 0;  // stage-2 steps done
  std::int64_t rebuilds = 0;        // neighbour rebuilds so far (informative)
  // Rank 0 only (empty elsewhere): every receiver record so far, one vector per receiver in scene
  // order (kg/m^3; record 0 is the t = 0 reference), and the emitter drive's progress.
  std::vector<std::vector<double>> receiver_density;
  EmitterDrive::Progress emitter;
};

}  // namespace sphreverb
