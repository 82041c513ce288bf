// Simulation::export_state / import_state: the state a checkpoint stores, taken out of and put
// back into a running Simulation. Apart from simulation.cpp so the stepping code stays small.
//
// Why a restart is exact on any rank count: every sum runs over a particle's neighbour list in
// key order, and entries beyond the kernel support weigh exactly 0; but the pair loops spread a
// list over lanes by list position (interactions.cpp), so which pairs beyond the support a list
// holds (the skin) shifts the later entries to other lanes and changes low bits. The lists depend
// on the positions at the last rebuild; so import_state() rebuilds from the stored rebuild
// positions (migration, halos, ghosts, lists and receiver stencils as the uninterrupted run built
// them), then puts the current positions in and refreshes the copies. The rebuild test compares
// with the same stored positions, so the next rebuild falls on the same step too. The stage-1
// energy is a fixed-point sum and the rebuild decision a global max, neither depends on the rank
// count.
#include "sphreverb/solver/simulation_state.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "sphreverb/core/log.hpp"
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb {

namespace {

// x y z vx vy vz rho key, then the rebuild positions x y z, as 64-bit words (bit-exact); then
// the face-element state X W per axis when the simulation carries it (kFaceWords more).
constexpr int kWords = 11, kFaceWords = 6;

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

// Row i of the state: its particle and its rebuild position (the current one if not known).
void pack(const SimulationState& s, std::size_t i, bool face, std::uint64_t* w) {
  const Particles& p = s.particles;
  const double f[] = {p.x[i], p.y[i], p.z[i], p.vx[i], p.vy[i], p.vz[i], p.rho[i]};
  for (int k = 0; k < 7; ++k) w[k] = bits(f[k]);
  w[7] = static_cast<std::uint64_t>(p.key[i]);
  for (int a = 0; a < 3; ++a) {
    const double* r = s.rebuild_position(a);
    w[8 + a] = bits(r ? r[i] : f[a]);
  }
  if (face)
    for (int a = 0; a < 3; ++a)
      w[11 + 2 * a] = bits(p.face_x[a][i]), w[12 + 2 * a] = bits(p.face_w[a][i]);
}

// The particle with its rebuild position in x y z; its current position into `now`.
void unpack(const std::uint64_t* w, Particles& p, std::size_t i, double* now) {
  for (int a = 0; a < 3; ++a) now[a] = real(w[a]);
  p.x[i] = real(w[8]), p.y[i] = real(w[9]), p.z[i] = real(w[10]);
  p.vx[i] = real(w[3]), p.vy[i] = real(w[4]), p.vz[i] = real(w[5]), p.rho[i] = real(w[6]);
  p.key[i] = static_cast<std::int64_t>(w[7]);
  if (p.face_state)
    for (int a = 0; a < 3; ++a)
      p.face_x[a][i] = real(w[11 + 2 * a]), p.face_w[a][i] = real(w[12 + 2 * a]);
}

std::int64_t key_of(const std::uint64_t* w) { return static_cast<std::int64_t>(w[7]); }

}  // namespace

SimulationState Simulation::export_state() {
  SimulationState s = export_run_state();
  s.particles.face_state = p_.face_state;
  s.particles.resize(p_.n_owned);
  s.particles.n_owned = p_.n_owned;
  for (std::size_t i = 0; i < p_.n_owned; ++i) s.particles.copy_entry_from(p_, i, i);
  s.rebuild_x = rebuild_x_, s.rebuild_y = rebuild_y_, s.rebuild_z = rebuild_z_;
  s.rebuild_view[0] = s.rebuild_view[1] = s.rebuild_view[2] = nullptr;
  return s;
}

SimulationState Simulation::export_run_state() {
  receivers_.flush(comm_);  // pending records onto rank 0 (exact: the other ranks add zeros)
  SimulationState s;
  s.run = run_;
  s.acoustic_steps = acoustic_step_;
  s.rebuilds = rebuilds_;
  s.rebuild_view[0] = rebuild_x_.data(), s.rebuild_view[1] = rebuild_y_.data();
  s.rebuild_view[2] = rebuild_z_.data();
  s.ghost_faces = ghosts_.face_states();
  s.ghost_face_state = true;
  if (rank_ == 0) {
    for (std::size_t r = 0; r < receivers_.size(); ++r)
      s.receiver_density.push_back(receivers_.density(r));
    s.receiver_velocity = receivers_.velocity_series();
    s.emitter = emitter_.progress();
    for (const EmitterDrive& d : source_drives_) s.sources.push_back(d.progress());
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

  // The reacting mirror faces' state: a state without it (a checkpoint from before it existed)
  // cannot restart them exactly.
  int missing = p_.face_state && !in.face_state ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &missing, 1, MPI_INT, MPI_MAX, comm_);
  if (missing)
    throw CollectiveError(
        "the state holds no face-element state (/particles/face_displacement, face_velocity), "
        "which this scene's reacting mirror walls need");
  // The same for the reacting ghost faces.
  missing = ghosts_.reacting() && !s.ghost_face_state ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &missing, 1, MPI_INT, MPI_MAX, comm_);
  if (missing)
    throw CollectiveError(
        "the state holds no ghost face-element state (/ghost_faces/...), which this scene's "
        "reacting ghost walls need");
  // The resistive ghost faces' W of the last step: a state without it (written before they kept
  // one) restarts them with no rate of W in the first step, not exactly.
  int no_rows = ghosts_.stats().elements > 0 && !s.ghost_face_state ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &no_rows, 1, MPI_INT, MPI_MAX, comm_);
  if (rank_ == 0 && no_rows)
    logger("sim")->warn(
        "the state holds no ghost face rows (/ghost_faces/...): the absorbing ghost walls restart "
        "without their last step's wall velocity, so this run differs slightly from an "
        "uninterrupted one");
  ghosts_.set_face_states(s.ghost_faces);  // before the rebuild, whose ghosts reflect about W
  s.ghost_faces.clear();
  const bool face = p_.face_state;
  const int words = kWords + (face ? kFaceWords : 0);

  // Send every particle to the rank whose slab held it at the last rebuild (all-to-all: the share
  // a rank was given need not be near its slab).
  const int axis = slabs_.axis();
  const double* along = s.rebuild_position(axis);
  if (!along) along = axis == 0 ? in.x.data() : (axis == 1 ? in.y.data() : in.z.data());
  std::vector<int> owner(n), send_count(size_, 0), recv_count(size_, 0);
  for (std::size_t i = 0; i < n; ++i) {
    owner[i] = slabs_.owner(along[i]);
    send_count[owner[i]] += words;
  }
  MPI_Alltoall(send_count.data(), 1, MPI_INT, recv_count.data(), 1, MPI_INT, comm_);
  std::vector<int> send_off(size_, 0), recv_off(size_, 0);
  std::exclusive_scan(send_count.begin(), send_count.end(), send_off.begin(), 0);
  std::exclusive_scan(recv_count.begin(), recv_count.end(), recv_off.begin(), 0);
  std::vector<std::uint64_t> send(n * static_cast<std::size_t>(words)),
      recv(static_cast<std::size_t>(recv_off.back() + recv_count.back()));
  std::vector<int> fill = send_off;
  for (std::size_t i = 0; i < n; ++i) {
    pack(s, i, face, &send[static_cast<std::size_t>(fill[owner[i]])]);
    fill[owner[i]] += words;
  }
  MPI_Alltoallv(send.data(), send_count.data(), send_off.data(), MPI_UINT64_T, recv.data(),
                recv_count.data(), recv_off.data(), MPI_UINT64_T, comm_);
  s.particles = Particles();  // the rows are in recv now

  // In key order, which rebuild() keeps (its migration moves nothing: every particle is on the
  // rank of its rebuild position), so row i of `now` stays with owned particle i.
  const std::size_t width = static_cast<std::size_t>(words);
  const std::size_t m = recv.size() / width;
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return key_of(&recv[a * width]) < key_of(&recv[b * width]);
  });
  p_.n_owned = p_.n_halo = p_.n_ghost = 0;
  p_.resize(m);
  p_.n_owned = m;
  std::vector<double> now(3 * m);
  for (std::size_t i = 0; i < m; ++i) unpack(&recv[order[i] * width], p_, i, &now[3 * i]);
  recv.clear(), recv.shrink_to_fit();

  run_ = s.run;
  acoustic_step_ = s.acoustic_steps;
  if (rank_ == 0) {
    receivers_.restore(std::move(s.receiver_density), std::move(s.receiver_velocity));
    emitter_resume_ = s.emitter;
    source_resume_ = std::move(s.sources);
  }
  rebuild();               // at the rebuild positions
  rebuilds_ = s.rebuilds;  // this rebuild repeats one already counted
  if (p_.n_owned != m) throw std::logic_error("import_state: a particle migrated at its rebuild");
  for (std::size_t i = 0; i < m; ++i)
    p_.x[i] = now[3 * i], p_.y[i] = now[3 * i + 1], p_.z[i] = now[3 * i + 2];
  refresh(kAllDynamic);
}

}  // namespace sphreverb
