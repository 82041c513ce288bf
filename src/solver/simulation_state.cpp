// Simulation::export_state / import_state: the state a checkpoint stores, taken out of and put
// back into a running Simulation. Apart from simulation.cpp so the stepping code stays small.
//
// Why a restart is exact on any rank count: after import_state() a rebuild() builds halos, ghosts,
// neighbour lists and receiver stencils from the restored positions. Every sum runs over the
// neighbours within the kernel support in key order (entries beyond the support are skipped or
// weigh exactly 0), so the lists' extra members (the skin) and the rebuild schedule do not change
// a single bit; the stage-1 energy is a fixed-point sum and the rebuild decision a global max.
#include "sphreverb/solver/simulation_state.hpp"

#include <mpi.h>

#include <cstring>
#include <numeric>

#include "sphreverb/solver/simulation.hpp"

namespace sphreverb {

namespace {

constexpr int kWords = 8;  // x y z vx vy vz rho key, as 64-bit words (bit-exact)

std::uint64_t bits(double v) {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof u);
  return u;
}
double real(std::uint64_t u) {
  double v = 0.0;
  std::memcpy(&v, &u, sizeof v);
  return v;
}

void pack(const Particles& p, std::size_t i, std::uint64_t* w) {
  const double f[] = {p.x[i], p.y[i], p.z[i], p.vx[i], p.vy[i], p.vz[i], p.rho[i]};
  for (int k = 0; k < 7; ++k) w[k] = bits(f[k]);
  w[7] = static_cast<std::uint64_t>(p.key[i]);
}

void unpack(const std::uint64_t* w, Particles& p, std::size_t i) {
  p.x[i] = real(w[0]), p.y[i] = real(w[1]), p.z[i] = real(w[2]);
  p.vx[i] = real(w[3]), p.vy[i] = real(w[4]), p.vz[i] = real(w[5]), p.rho[i] = real(w[6]);
  p.key[i] = static_cast<std::int64_t>(w[7]);
}

}  // namespace

SimulationState Simulation::export_state() {
  SimulationState s = export_run_state();
  s.particles.resize(p_.n_owned);
  s.particles.n_owned = p_.n_owned;
  for (std::size_t i = 0; i < p_.n_owned; ++i) s.particles.copy_entry_from(p_, i, i);
  return s;
}

SimulationState Simulation::export_run_state() {
  receivers_.flush(comm_);  // pending records onto rank 0 (exact: the other ranks add zeros)
  SimulationState s;
  s.run = run_;
  s.acoustic_steps = acoustic_step_;
  s.rebuilds = rebuilds_;
  if (rank_ == 0) {
    for (std::size_t r = 0; r < receivers_.size(); ++r)
      s.receiver_density.push_back(receivers_.density(r));
    s.emitter = emitter_.progress();
  }
  return s;
}

void Simulation::import_state(SimulationState s) {
  const Particles& in = s.particles;
  const std::size_t n = in.size();
  // Global count and keys: a state from another scene must not slip in.
  std::int64_t check[2] = {static_cast<std::int64_t>(n), 0};
  for (std::size_t i = 0; i < n; ++i)
    if (in.key[i] % 27 != kRealImage || in.key[i] < 0) ++check[1];
  MPI_Allreduce(MPI_IN_PLACE, check, 2, MPI_INT64_T, MPI_SUM, comm_);
  if (check[0] != global_particles_ || check[1] != 0)
    throw CollectiveError("the state holds " + std::to_string(check[0]) + " particles (" +
                          std::to_string(check[1]) + " with invalid keys), this scene has " +
                          std::to_string(global_particles_));

  // Send every particle to the rank whose slab holds it (all-to-all: the share a rank was given
  // need not be near its slab).
  const int axis = slabs_.axis();
  std::vector<int> owner(n), send_count(size_, 0), recv_count(size_, 0);
  for (std::size_t i = 0; i < n; ++i) {
    owner[i] = slabs_.owner(axis == 0 ? in.x[i] : (axis == 1 ? in.y[i] : in.z[i]));
    send_count[owner[i]] += kWords;
  }
  MPI_Alltoall(send_count.data(), 1, MPI_INT, recv_count.data(), 1, MPI_INT, comm_);
  std::vector<int> send_off(size_, 0), recv_off(size_, 0);
  std::exclusive_scan(send_count.begin(), send_count.end(), send_off.begin(), 0);
  std::exclusive_scan(recv_count.begin(), recv_count.end(), recv_off.begin(), 0);
  std::vector<std::uint64_t> send(n * kWords),
      recv(static_cast<std::size_t>(recv_off.back() + recv_count.back()));
  std::vector<int> fill = send_off;
  for (std::size_t i = 0; i < n; ++i) {
    pack(in, i, &send[static_cast<std::size_t>(fill[owner[i]])]);
    fill[owner[i]] += kWords;
  }
  MPI_Alltoallv(send.data(), send_count.data(), send_off.data(), MPI_UINT64_T, recv.data(),
                recv_count.data(), recv_off.data(), MPI_UINT64_T, comm_);

  p_.n_owned = p_.n_halo = p_.n_ghost = 0;
  p_.resize(recv.size() / kWords);
  p_.n_owned = p_.size();
  for (std::size_t i = 0; i < p_.n_owned; ++i) unpack(&recv[i * kWords], p_, i);

  run_ = s.run;
  acoustic_step_ = s.acoustic_steps;
  rebuilds_ = s.rebuilds;
  if (rank_ == 0) {
    receivers_.restore(std::move(s.receiver_density));
    emitter_resume_ = s.emitter;
  }
  rebuild();
}

}  // namespace sphreverb
