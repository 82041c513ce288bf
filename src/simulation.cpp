#include "sphreverb/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "sphreverb/energy.hpp"
#include "sphreverb/integrator.hpp"
#include "sphreverb/kernel.hpp"
#include "sphreverb/log.hpp"

namespace sphreverb {

namespace {
int longest_axis(const Vec3& size) {
  return size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
}
constexpr std::int64_t kFlushEvery = 256;  // steps between receiver reductions onto rank 0
constexpr std::int64_t kEnergyEvery = 10;  // stage-1 steps between energy checks
}  // namespace

Decomposition Decomposition::of(const Scene& s) {
  Decomposition d;
  const Lattice lattice = Lattice::from(s);
  d.axis = longest_axis(s.fluid.fill_max - s.fluid.fill_min);
  d.plane_count = air_sites_per_plane(lattice, make_walls(s), d.axis);
  for (int k = 0; k < lattice.n[d.axis]; ++k) d.plane_pos.push_back(lattice.plane(d.axis, k));
  d.particles = std::accumulate(d.plane_count.begin(), d.plane_count.end(), std::int64_t{0});
  d.max_ranks = Slabs::max_ranks(d.plane_pos, d.plane_count, s.fluid.fill_min[d.axis],
                                 s.fluid.fill_max[d.axis], s.derived.halo_width);
  return d;
}

Simulation::Simulation(const Scene& scene, MPI_Comm comm)
    : scene_(scene),
      comm_(comm),
      receivers_(scene.receivers, scene.fluid.kernel, scene.derived.h, scene.derived.particle_mass),
      physics_(PairPhysics::from(scene)) {
  MPI_Comm_rank(comm_, &rank_), MPI_Comm_size(comm_, &size_);
  const Derived& d = scene_.derived;
  decomposition_ = Decomposition::of(scene_);
  const Decomposition& dec = decomposition_;
  slabs_ =
      Slabs::balanced(dec.axis, dec.plane_pos, dec.plane_count, scene_.fluid.fill_min[dec.axis],
                      scene_.fluid.fill_max[dec.axis], size_, d.halo_width);
  global_particles_ = dec.particles;
  walls_ = make_walls(scene_);
  if (scene_.room.present && scene_.material(scene_.room.material).rigid)
    mirror_ = MirrorWalls(scene_.room.min, scene_.room.max, d.halo_width);
  fill_lattice(p_, Lattice::from(scene_), walls_, dec.axis, slabs_.lo(rank_), slabs_.hi(rank_),
               scene_.fluid.rest_density);
  rebuild();
}

// Rebuild (collective): drop copies, migrate, sort by cell, new halo plan, ghosts, neighbour
// lists, tethers, receiver stencils. Post: every entry within support + skin of an owned
// particle is present, and the lists stay valid until some particle moves skin / 2.
void Simulation::rebuild() {
  const Derived& d = scene_.derived;
  p_.drop_copies();
  migrate(p_, slabs_, comm_);
  p_.permute_owned(NeighbourList::cell_order(p_, d.halo_width));
  halo_.rebuild(p_, slabs_, d.halo_width, comm_);
  mirror_.rebuild(p_);
  neighbours_.build(p_, d.halo_width);
  tethers_ = find_tethers(p_, walls_, d.h);
  receivers_.rebuild(p_, slabs_, rank_, d.halo_width);
  rebuild_x_.assign(p_.x.begin(), p_.x.begin() + p_.n_owned);
  rebuild_y_.assign(p_.y.begin(), p_.y.begin() + p_.n_owned);
  rebuild_z_.assign(p_.z.begin(), p_.z.begin() + p_.n_owned);
  ++rebuilds_;
}

void Simulation::refresh(FieldSet fields) {
  halo_.refresh(p_, fields, comm_);
  mirror_.refresh(p_, fields);
}

bool Simulation::moved_half_skin() {
  double worst = 0.0;
  for (std::size_t i = 0; i < p_.n_owned; ++i) {
    const double dx = p_.x[i] - rebuild_x_[i], dy = p_.y[i] - rebuild_y_[i],
                 dz = p_.z[i] - rebuild_z_[i];
    const double d2 = dx * dx + dy * dy + dz * dz;
    if (!(d2 <= worst)) worst = std::isfinite(d2) ? d2 : HUGE_VAL;  // NaN counts as "far"
  }
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, comm_);
  if (worst == HUGE_VAL)
    throw CollectiveError(
        "the simulation became unstable (a particle position is not finite); "
        "reduce [time] cfl, the wall stiffness or the emitter deflection");
  const double half_skin = 0.5 * scene_.derived.skin;
  return worst > half_skin * half_skin;
}

EmitterState Simulation::drive(bool acoustic) {
  EmitterState s;
  if (!acoustic) return s;
  if (rank_ == 0) s = emitter_.at(acoustic_step_);
  double buf[2] = {s.shift, s.speed};
  MPI_Bcast(buf, 2, MPI_DOUBLE, 0, comm_);
  ++acoustic_step_;
  return {buf[0], buf[1]};
}

// One step of the staggered leap-frog (integrator.hpp). On entry the owned particles hold x^n,
// rho^n and v^{n-1/2}, and halo copies and ghosts agree with them.
void Simulation::step(bool acoustic) {
  const Derived& d = scene_.derived;
  const double dx = scene_.fluid.spacing;
  const EmitterState e = drive(acoustic);  // the disc at t^n

  compute_momentum(p_, neighbours_, physics_, scratch_);  // pressure + viscosity: a^n
  add_tether_forces(p_, tethers_, walls_, e.shift, e.speed, dx * dx, d.particle_mass, d.dt);
  kick(p_, d.dt, acoustic ? 0.0 : scene_.equilibrium.damping);  // v^{n+1/2}
  refresh(Field::Velocity);

  compute_continuity(p_, neighbours_, physics_);  // drho/dt with v^{n+1/2}
  compress_and_drift(p_, d.dt);                   // rho^{n+1}, x^{n+1}

  if (moved_half_skin())
    rebuild();
  else
    refresh(Field::Position | Field::Density);
}

StageStats Simulation::equilibrate() {
  const EquilibriumSpec& eq = scene_.equilibrium;
  const double unit = eq.energy * 0x1p-20;
  Progress progress("stage 1 (equilibrium)", eq.max_steps, global_particles_, scene_.derived.dt,
                    scene_.output.progress_every);
  StageStats st;
  // E is checked every kEnergyEvery steps, and stage 1 ends at the first check where it is below
  // the threshold and not rising: E = 0 at rest says nothing until forces have acted.
  double previous = HUGE_VAL;
  st.final_energy = HUGE_VAL;
  while (!(st.final_energy < eq.energy && st.final_energy <= previous)) {
    if (st.steps >= eq.max_steps && st.steps > 0) {
      std::ostringstream msg;
      msg << "equilibrium not reached: kinetic energy " << st.final_energy << " J after "
          << st.steps << " steps, threshold [equilibrium] energy = " << eq.energy
          << " J; raise [equilibrium] max_steps or damping, or the threshold";
      throw EquilibriumError(msg.str());
    }
    step(false);
    ++st.steps;
    if (st.steps % kEnergyEvery == 0 || st.steps == eq.max_steps) {
      previous = st.final_energy;
      st.final_energy = kinetic_energy(p_, scene_.derived.particle_mass, unit, comm_);
    }
    progress.update(st.steps);
  }
  st.wall_seconds = progress.elapsed();
  logger("sim")->info("stage 1: equilibrium after {} steps, kinetic energy {:.3g} J < {:.3g} J",
                      st.steps, st.final_energy, eq.energy);
  return st;
}

StageStats Simulation::record(const Signal& input) {
  const Derived& d = scene_.derived;
  if (rank_ == 0)
    emitter_ = EmitterDrive(input, scene_.emitter.drive, scene_.emitter.deflection, d.dt);
  acoustic_step_ = 0;
  Progress progress("stage 2 (acoustic)", d.steps, global_particles_, d.dt,
                    scene_.output.progress_every);
  receivers_.measure(p_);  // the reference at t = 0 (seed: before the emitter moves)
  StageStats st;
  for (std::int64_t n = 0; n < d.steps; ++n) {
    step(true);
    receivers_.measure(p_);
    if ((n + 1) % kFlushEvery == 0 || n + 1 == d.steps) receivers_.flush(comm_);
    progress.update(n + 1);
  }
  if (d.steps == 0) receivers_.flush(comm_);
  st.steps = d.steps;
  st.wall_seconds = progress.elapsed();
  return st;
}

std::vector<std::int64_t> Simulation::particles_per_rank() const {
  std::int64_t mine = static_cast<std::int64_t>(p_.n_owned);
  std::vector<std::int64_t> all(size_);
  MPI_Allgather(&mine, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, comm_);
  return all;
}

double Simulation::neighbours_per_particle() const {
  const double r2 = scene_.derived.support * scene_.derived.support;
  double count[2] = {0.0, static_cast<double>(p_.n_owned)};
  for (std::size_t i = 0; i < p_.n_owned; ++i)
    for (std::uint32_t k = neighbours_.offsets()[i]; k < neighbours_.offsets()[i + 1]; ++k) {
      const Vec3 r = p_.position(i) - p_.position(neighbours_.index()[k]);
      if (dot(r, r) < r2) count[0] += 1.0;
    }
  MPI_Allreduce(MPI_IN_PLACE, count, 2, MPI_DOUBLE, MPI_SUM, comm_);
  return count[1] > 0 ? count[0] / count[1] : 0.0;
}

}  // namespace sphreverb
