#include "sphreverb/solver/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <numeric>
#include <sstream>

#include "sphreverb/core/log.hpp"
#include "sphreverb/parallel/energy.hpp"
#include "sphreverb/physics/integrator.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/shifting.hpp"
#include "sphreverb/solver/assembly.hpp"
#include "sphreverb/solver/energy_watch.hpp"
#include "sphreverb/solver/plane_counts.hpp"
#include "sphreverb/solver/slab_cost.hpp"
#include "sphreverb/solver/walls_near.hpp"

namespace sphreverb {

namespace {
int longest_axis(const Vec3& size) {
  return size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
}
constexpr std::int64_t kFlushEvery = 256;  // steps between receiver reductions onto rank 0
// The energy watch (energy_watch.hpp): its period, and the least settling time after the inputs.
constexpr double kWatchSeconds = 1e-3;
constexpr double kSettleSeconds = 0.05;
constexpr std::int64_t kEnergyEvery = 10;  // stage-1 steps between energy checks
// The growth region of an unstable run: the particles holding at least this share of the largest
// particle's energy (energy.hpp, energy_region).
constexpr double kRegionFraction = 0.1;

// Where an unstable run's energy sits, for its warning: the region's share of the energy, its
// centroid, extent and bounding box, and the walls by name within two spacings of its most
// energetic particle (else the nearest wall).
std::string growth_region(const Scene& s, const EnergyRegion& r) {
  if (r.particles == 0) return "no particle holds acoustic energy";
  const auto at = [](const Vec3& v) {
    return fmt::format("({:.3g}, {:.3g}, {:.3g})", v.x, v.y, v.z);
  };
  const double dx = s.fluid.spacing;
  std::vector<NamedWall> near = walls_near(s, r.peak, 2.0 * dx);
  std::string walls;
  if (!near.empty()) {
    walls = "next to " + wall_list(near);
  } else {
    std::vector<NamedWall> all = walls_near(s, r.peak, HUGE_VAL);
    walls = all.empty() ? "away from every wall"
                        : fmt::format("{:.3g} m from the nearest wall, {}", all.front().distance,
                                      all.front().name);
  }
  return fmt::format(
      "{:.0f} % of the energy is in {} particles around {} m (energy-weighted; rms extent {} m, "
      "within {} to {} m), the most energetic at {} m, {}",
      100.0 * r.share, r.particles, at(r.centroid), at(r.spread), at(r.lo), at(r.hi), at(r.peak),
      walls);
}
}  // namespace

double min_slab_thickness(const Scene& s) { return s.derived.halo_depth; }

std::string min_slab_rule(const Scene& s) {
  std::ostringstream o;
  o << "each slab must be at least " << min_slab_thickness(s)
    << " m thick (the halo depth: kernel support 2h + skin"
    << (s.derived.ghost_walls ? " + 3 dx for the ghost walls' reach)" : ")");
  return o.str();
}

Decomposition Decomposition::of(const Scene& s) {
  Decomposition d;
  d.min_slab = min_slab_thickness(s);
  const Lattice lattice = make_lattice(s);
  d.axis = longest_axis(s.fluid.fill_max - s.fluid.fill_min);
  const std::vector<Wall> walls = make_walls(s);
  d.plane_count = count_air_per_plane(lattice, walls, d.axis);  // exact, fast
  if (s.derived.ghost_walls) {
    // The sites the meshes and ghost-walled boundaries take from the air: every site in the
    // geometry's solid (exact tests).
    const auto start = std::chrono::steady_clock::now();
    const SolidGeometry geometry = make_solid_geometry(s);
    for (int k = 0; k < lattice.n[2]; ++k)
      for (int j = 0; j < lattice.n[1]; ++j)
        for (int i = 0; i < lattice.n[0]; ++i) {
          const Vec3 x = lattice.site(i, j, k);
          if (!geometry.is_air(x) && is_air_site(walls, x, lattice.dx)) {
            const int ijk[3] = {i, j, k};
            --d.plane_count[static_cast<std::size_t>(ijk[d.axis])];
          }
        }
    d.classify_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  for (int k = 0; k < lattice.n[d.axis]; ++k) d.plane_pos.push_back(lattice.plane(d.axis, k));
  d.particles = std::accumulate(d.plane_count.begin(), d.plane_count.end(), std::int64_t{0});
  d.max_ranks = Slabs::max_ranks(d.plane_pos, d.plane_count, s.fluid.fill_min[d.axis],
                                 s.fluid.fill_max[d.axis], d.min_slab);
  return d;
}

Simulation::Simulation(const Scene& scene, MPI_Comm comm)
    : scene_(scene),
      comm_(comm),
      decomposition_(Decomposition::of(scene)),
      lattice_(make_lattice(scene)),
      walls_(make_walls(scene)),
      mirror_(make_mirror_walls(scene, lattice_)),
      geometry_(make_solid_geometry(scene)),
      emitter_on_wall_(emitter_on_ghost_wall(scene, geometry_)),
      receivers_(make_receivers(scene)),
      physics_(make_pair_physics(scene)),
      sources_(make_point_sources(scene)) {
  MPI_Comm_rank(comm_, &rank_), MPI_Comm_size(comm_, &size_);
  const Derived& d = scene_.derived;
  double object_speed = 0.0;  // m/s, the fastest surface point of any moving object
  for (const Wall& w : walls_)
    if (w.follows_path()) object_speed = std::max(object_speed, w.max_surface_speed());
  if (object_speed > 0.0)
    object_period_ = std::max<std::int64_t>(
        1, static_cast<std::int64_t>(std::floor(0.5 * d.skin / (object_speed * d.dt))));
  const Decomposition& dec = decomposition_;
  try {
    slabs_ =
        Slabs::balanced(dec.axis, dec.plane_pos, dec.plane_count, scene_.fluid.fill_min[dec.axis],
                        scene_.fluid.fill_max[dec.axis], size_, dec.min_slab);
  } catch (const DecompositionError& e) {
    throw DecompositionError(std::string(e.what()) + "; " + min_slab_rule(scene_));
  }
  global_particles_ = dec.particles;
  const auto fill_start = std::chrono::steady_clock::now();
  fill_lattice(p_, lattice_, walls_, dec.axis, slabs_.lo(rank_), slabs_.hi(rank_),
               scene_.fluid.rest_density, geometry_.empty() ? nullptr : &geometry_);
  if (mirror_.reacting()) p_.enable_face_state();  // reacting room faces: a state per element
  build_ghosts(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - fill_start).count());
  rebuild();
  if (size_ > 1) balance_by_cost();
  if (physics_.background_pressure > 0.0) record_background_balance();
}

// Collective. The lattice at rest (after construction: every particle on its site, rho = rho0,
// v = 0) feels the background pressure alone; each particle's acceleration from it is recorded
// on every rank (those above the threshold: next to holes in the kernel support) and subtracted
// from then on (physics/background_balance.hpp). A restart constructs the same lattice first, so
// it records the same table.
void Simulation::record_background_balance() {
  compute_momentum(p_, neighbours_, physics_, scratch_);
  const std::vector<RestAcceleration> mine = BackgroundBalance::at_rest(
      p_, background_balance_threshold(physics_.background_pressure, scene_.fluid.rest_density,
                                       scene_.fluid.spacing));
  const int bytes = static_cast<int>(mine.size() * sizeof(RestAcceleration));
  std::vector<int> count(size_), offset(size_, 0);
  MPI_Allgather(&bytes, 1, MPI_INT, count.data(), 1, MPI_INT, comm_);
  std::exclusive_scan(count.begin(), count.end(), offset.begin(), 0);
  std::vector<RestAcceleration> all(static_cast<std::size_t>(offset.back() + count.back()) /
                                    sizeof(RestAcceleration));
  MPI_Allgatherv(mine.data(), bytes, MPI_BYTE, all.data(), count.data(), offset.data(), MPI_BYTE,
                 comm_);
  background_ = BackgroundBalance(std::move(all));
  background_.rebuild(p_);
  if (rank_ == 0)
    logger("sim")->info(
        "background pressure {:g} Pa balanced at rest for {} particles next to holes in the "
        "kernel support",
        physics_.background_pressure, background_.size());
}

// The ghost sites of this rank's slab (and a margin); none without meshes. fill_seconds >= 0:
// also log how long the slab's fill took.
void Simulation::build_ghosts(double fill_seconds) {
  if (geometry_.empty()) return;
  const double margin = scene_.derived.halo_width + scene_.fluid.spacing;
  ghosts_ = make_ghost_walls(scene_, geometry_, lattice_, walls_, decomposition_.axis,
                             slabs_.lo(rank_) - margin, slabs_.hi(rank_) + margin);
  // Whether W follows the pressure is the scene's, not the slab's: any rank's sites decide.
  int follows = ghosts_.pressure_dependent() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &follows, 1, MPI_INT, MPI_LOR, comm_);
  ghosts_.set_velocity_follows_density(follows != 0);
  const GhostWalls::Stats& st = ghosts_.stats();
  logger("sim")->info(
      "ghost walls: {} ghost sites on rank {} ({} Lagrange, {} Shepard, {} dropped; {} with "
      "reacting faces), set up in {:.3f} s",
      st.sites, rank_, st.lagrange, st.shepard, st.dropped, st.reacting, st.seconds);
  if (fill_seconds >= 0.0)
    logger("sim")->info("the slab's lattice sites classified and filled in {:.3f} s", fill_seconds);
}

// Collective. The count-balanced cuts give every rank the same number of particles, but not the
// same work: particles near walls, objects and slab faces have explicit neighbour lists, tethers
// or mirror images (slab_cost.hpp). Measures the work per plane of the particles as built, cuts
// the slabs by it and refills; twice, since the slab faces' own cost moves with the cuts. The
// result depends only on the scene and the rank count (integer sums), so every rank, and a
// restart on the same rank count, cuts the same slabs; the physics does not depend on them.
void Simulation::balance_by_cost() {
  const Decomposition& dec = decomposition_;
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<std::int64_t> cost =
        plane_costs(p_, neighbours_, tethers_, lattice_, dec.axis, kCostWeights, comm_);
    Slabs cut;
    try {
      cut = Slabs::balanced(dec.axis, dec.plane_pos, cost, scene_.fluid.fill_min[dec.axis],
                            scene_.fluid.fill_max[dec.axis], size_, dec.min_slab);
    } catch (const DecompositionError&) {
      break;  // too thin to move the cuts: keep the count-balanced slabs (the same on all ranks)
    }
    bool same = true;
    for (int r = 0; r < size_; ++r) same = same && cut.hi(r) == slabs_.hi(r);
    if (same) break;
    slabs_ = cut;
    p_ = Particles{};
    neighbours_ = NeighbourList{};  // freed before the next build: no two sets of lists at once
    tethers_.clear();
    // The same fill and ghost walls as the constructor's, for the new slab.
    fill_lattice(p_, lattice_, walls_, dec.axis, slabs_.lo(rank_), slabs_.hi(rank_),
                 scene_.fluid.rest_density, geometry_.empty() ? nullptr : &geometry_);
    if (mirror_.reacting()) p_.enable_face_state();
    build_ghosts(-1.0);
    rebuild();
  }
  rebuilds_ = 1;  // the construction's rebuild, whatever the passes took
  if (rank_ == 0) {
    std::ostringstream cuts;
    for (int r = 1; r < size_; ++r) cuts << (r > 1 ? ", " : "") << slabs_.lo(r);
    logger("sim")->info("slabs balanced by work (slab_cost.hpp): cuts along {} at {} m",
                        "xyz"[dec.axis], cuts.str());
  }
}

// Rebuild (collective): drop copies, migrate, sort by cell, new halo plan, ghosts, neighbour
// lists, tethers, receiver stencils. Post: every entry within support + skin of an owned
// particle is present, and the lists stay valid until some particle moves skin / 2.
void Simulation::rebuild() {
  const Derived& d = scene_.derived;
  p_.drop_copies();
  migrate(p_, slabs_, comm_);
  p_.permute_owned(NeighbourList::key_order(p_));  // lattice order: the lists' stencil
  halo_.rebuild(p_, slabs_, d.halo_depth, comm_);
  mirror_.rebuild(p_);
  const std::size_t late = ghosts_.stats().late;
  ghosts_.rebuild(p_);  // after the mirror images: it appends to them
  if (ghosts_.stats().late > late)
    logger("sim")->warn(
        "ghost walls: {} reacting ghost sites turned active on rank {} after the run began; their "
        "face elements start from this rank's state (ghost_walls.hpp)",
        ghosts_.stats().late - late, rank_);
  neighbours_.build(p_, d.halo_width);
  ghosts_.refresh(p_, Field::Position);  // where the faces stand (rebuild placed them at rest)
  tethers_ = find_tethers(
      p_.n_owned, [&](std::size_t i) { return lattice_.site_of(p_.id(i)); }, walls_, d.h,
      [&](std::size_t i) { return p_.position(i); }, objects_pose_time());
  // A disc on a ghost wall or on a mirror face is a part of that wall moving (the ghosts or
  // images behind it): no particles.
  if (emitter_on_wall_ || mirror_.driven())
    std::erase_if(tethers_, [&](const Tether& t) { return walls_[t.wall].moving; });
  receivers_.rebuild(p_, slabs_, rank_, d.halo_width);
  sources_.rebuild(p_, d.skin);
  background_.rebuild(p_);
  rebuild_x_.resize(p_.n_owned), rebuild_y_.resize(p_.n_owned), rebuild_z_.resize(p_.n_owned);
  std::copy_n(p_.x.begin(), p_.n_owned, rebuild_x_.begin());
  std::copy_n(p_.y.begin(), p_.n_owned, rebuild_y_.begin());
  std::copy_n(p_.z.begin(), p_.n_owned, rebuild_z_.begin());
  site_bound_ = 0.0;
  for (std::size_t i = 0; i < p_.n_owned; ++i)
    site_bound_ = std::max(site_bound_, norm(p_.position(i) - lattice_.site_of(p_.id(i))));
  ++rebuilds_;
}

void Simulation::refresh(FieldSet fields) {
  halo_.refresh(p_, fields, comm_);
  timings_.lap(Phase::Halo);
  mirror_.refresh(p_, fields);
  ghosts_.refresh(p_, fields);
  timings_.lap(Phase::Ghosts);
}

// The reacting mirror faces' elements one step on (mirror_walls.hpp), then their velocities onto
// the halo copies, so the ghosts' next velocity refresh reflects about them on every rank.
void Simulation::move_faces() {
  mirror_.advance_faces(p_);
  halo_.refresh_face_velocity(p_, comm_);
}

void Simulation::start_rebuild_check() {
  double worst = 0.0;
  for (std::size_t i = 0; i < p_.n_owned; ++i) {
    // The same per-particle arithmetic on every rank count.
    const double dx = p_.x[i] - rebuild_x_[i], dy = p_.y[i] - rebuild_y_[i],
                 dz = p_.z[i] - rebuild_z_[i];
    const double d2 = dx * dx + dy * dy + dz * dz;
    if (!(d2 <= worst)) worst = std::isfinite(d2) ? d2 : HUGE_VAL;  // NaN counts as "far"
  }
  // One reduction per step for three questions: has any particle moved half the skin, has any
  // rank been asked to stop (and by which signal), and may a particle have run away from its
  // lattice site (|x - site| <= |x - x_rebuild| + |x_rebuild - site|). Non-blocking, so that it
  // travels while the halo refresh does.
  check_[0] = worst;
  check_[1] = stop_probe_ ? static_cast<double>(stop_probe_()) : 0.0;
  check_[2] = std::sqrt(worst) + site_bound_;
  MPI_Iallreduce(MPI_IN_PLACE, check_, 3, MPI_DOUBLE, MPI_MAX, comm_, &check_request_);
}

bool Simulation::finish_rebuild_check() {
  MPI_Wait(&check_request_, MPI_STATUS_IGNORE);
  const double worst = check_[0];
  stop_signal_ = static_cast<int>(check_[1]);
  stop_agreed_ = stop_signal_ != 0;
  // A particle outside the fill box by more than the halo width is further than that from its
  // site, which is inside: only then is the exact test needed.
  const double limit = scene_.derived.halo_width;
  if (worst == HUGE_VAL || check_[2] > limit) stability_check(limit);
  const double half_skin = 0.5 * scene_.derived.skin;
  const bool objects_moved =
      object_period_ > 0 && run_.stage == 2 && acoustic_step_ % object_period_ == 0;
  return worst > half_skin * half_skin || objects_moved;
}

double Simulation::objects_pose_time() const {
  if (object_period_ == 0 || run_.stage != 2) return 0.0;
  return static_cast<double>(acoustic_step_ / object_period_ * object_period_) * scene_.derived.dt;
}

void Simulation::stability_check(double limit) {
  // This rank's particle furthest outside the fill box (a non-finite position counts as
  // infinitely far).
  const Vec3 lo = scene_.fluid.fill_min, hi = scene_.fluid.fill_max;
  struct {
    double distance;
    int rank;
  } far = {-HUGE_VAL, rank_};
  std::size_t which = 0;
  for (std::size_t i = 0; i < p_.n_owned; ++i) {
    const Vec3 x = p_.position(i);
    double out = -HUGE_VAL;
    for (int a = 0; a < 3; ++a) out = std::max({out, lo[a] - x[a], x[a] - hi[a]});
    if (!std::isfinite(x.x + x.y + x.z)) out = HUGE_VAL;
    if (out > far.distance) far.distance = out, which = i;
  }
  MPI_Allreduce(MPI_IN_PLACE, &far, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm_);
  if (!(far.distance > limit)) return;
  double where[4] = {0.0, 0.0, 0.0, 0.0};  // position, and the id
  if (rank_ == far.rank)
    where[0] = p_.x[which], where[1] = p_.y[which], where[2] = p_.z[which],
    where[3] = static_cast<double>(p_.id(which));
  MPI_Bcast(where, 4, MPI_DOUBLE, far.rank, comm_);
  // The step that just ran (drive() has counted a stage-2 step already, stage 1 counts after).
  const bool acoustic = run_.stage == 2;
  const std::int64_t step = acoustic ? total_steps() : run_.stage1_steps + 1;
  const double t = static_cast<double>(acoustic ? acoustic_step_ : step) * scene_.derived.dt;
  const Vec3 site = lattice_.site_of(static_cast<std::int64_t>(where[3]));
  std::ostringstream msg;
  msg << "the simulation became unstable at step " << step << " (t = " << t << " s of stage "
      << (acoustic ? 2 : 1) << "): particle " << static_cast<std::int64_t>(where[3]) << " is at ("
      << where[0] << ", " << where[1] << ", " << where[2] << ") m, ";
  if (far.distance == HUGE_VAL)
    msg << "not a finite position";
  else
    msg << far.distance << " m outside the fill box [" << lo.x << " " << lo.y << " " << lo.z
        << "] .. [" << hi.x << " " << hi.y << " " << hi.z << "] m (more than the halo width "
        << limit << " m; its lattice site is (" << site.x << ", " << site.y << ", " << site.z
        << ") m)";
  msg << "; reduce [time] cfl, the wall stiffness or the emitter deflection";
  throw InstabilityError(msg.str());
}

// The hyperdiffusion filter (interactions.hpp): rho -= n dt eps c dx^3 L(L(rho)) on the owned
// particles, n = kHyperdiffusionEvery, then the copies follow. L(rho) lives in scratch_ (free
// between momentum loops, one value per entry), L(L(rho)) in drho (free until continuity).
// Then the velocity's (hyperviscosity), where on.
void Simulation::hyperdiffuse() {
  if (physics_.hyperviscosity > 0.0) hyperviscous();
  if (!(physics_.hyperdiffusion > 0.0)) return;
  scratch_.resize(p_.size());
  compute_laplacian(p_, neighbours_, physics_, p_.rho.data(), scratch_.data());
  timings_.lap(Phase::Density);
  halo_.refresh(p_, scratch_, comm_);
  timings_.lap(Phase::Halo);
  mirror_.refresh(p_, scratch_);
  ghosts_.refresh(p_, scratch_);
  timings_.lap(Phase::Ghosts);
  compute_laplacian(p_, neighbours_, physics_, scratch_.data(), p_.drho.data());
  const double k = kHyperdiffusionEvery * scene_.derived.dt * physics_.hyperdiffusion;
  for (std::size_t i = 0; i < p_.n_owned; ++i) p_.rho[i] -= k * p_.drho[i];
  timings_.lap(Phase::Density);
  refresh(Field::Density);
}

// The particle shifting of the air that moves (physics/shifting.hpp): the particles off their
// lattice sites that no wall holds; then the moved fields onto halo copies and ghosts.
void Simulation::shift_particles() {
  const double offset = kShiftMinOffset * scene_.fluid.spacing;
  std::vector<char> movable(p_.n_owned, 0);
  for (std::size_t i = 0; i < p_.n_owned; ++i)
    movable[i] = norm(p_.position(i) - lattice_.site_of(p_.id(i))) > offset;
  for (const Tether& t : tethers_) movable[t.particle] = 0;
  apply_shift(p_, compute_shift(p_, neighbours_, physics_, scene_.fluid.shifting, scene_.derived.dt,
                                scene_.fluid.spacing, movable));
  timings_.lap(Phase::Integration);
  refresh(Field::Position | Field::Density | Field::Velocity);
}

// v -= n dt eps c dx^3 L(L(v)) per component (interactions.hpp). L(v) lives in filter_ (one value
// per entry; the copies' reflected like a velocity), L(L(v)) in ax, ay, az (free until the
// momentum loop).
void Simulation::hyperviscous() {
  for (auto& f : filter_) f.resize(p_.size());
  compute_laplacian(p_, neighbours_, physics_, {p_.vx.data(), p_.vy.data(), p_.vz.data()},
                    {filter_[0].data(), filter_[1].data(), filter_[2].data()});
  timings_.lap(Phase::Density);
  for (auto& f : filter_) halo_.refresh(p_, f, comm_);
  timings_.lap(Phase::Halo);
  mirror_.refresh_reflected(p_, filter_[0], filter_[1], filter_[2]);
  ghosts_.refresh_reflected(filter_[0], filter_[1], filter_[2]);
  timings_.lap(Phase::Ghosts);
  compute_laplacian(p_, neighbours_, physics_,
                    {filter_[0].data(), filter_[1].data(), filter_[2].data()},
                    {p_.ax.data(), p_.ay.data(), p_.az.data()});
  const double k = kHyperdiffusionEvery * scene_.derived.dt * physics_.hyperviscosity;
  for (std::size_t i = 0; i < p_.n_owned; ++i)
    p_.vx[i] -= k * p_.ax[i], p_.vy[i] -= k * p_.ay[i], p_.vz[i] -= k * p_.az[i];
  timings_.lap(Phase::Density);
  refresh(Field::Velocity);
}

EmitterState Simulation::drive(bool acoustic) {
  EmitterState s;
  if (!acoustic) return s;
  // One broadcast: the disc's shift, speed and acceleration, then each source's volume velocity.
  std::vector<double> buf(3 + sources_.size(), 0.0);
  if (rank_ == 0) {
    s = emitter_.at(acoustic_step_);
    buf[0] = s.shift, buf[1] = s.speed, buf[2] = s.acceleration;
    for (std::size_t k = 0; k < source_drives_.size(); ++k)
      buf[3 + k] = source_drives_[k].at(acoustic_step_).speed;
  }
  MPI_Bcast(buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE, 0, comm_);
  source_q_.assign(buf.begin() + 3, buf.end());
  source_time_ = static_cast<double>(acoustic_step_) * scene_.derived.dt;
  ++acoustic_step_;
  return {buf[0], buf[1], buf[2]};
}

// One step of the staggered leap-frog (integrator.hpp). On entry the owned particles hold x^n,
// rho^n and v^{n-1/2}, and halo copies and ghosts agree with them.
void Simulation::step(bool acoustic) {
  const Derived& d = scene_.derived;
  const double dx = scene_.fluid.spacing;
  timings_.start();
  const std::int64_t n = acoustic ? acoustic_step_ : run_.stage1_steps;  // restored by restarts
  const double t = acoustic ? static_cast<double>(acoustic_step_) * d.dt : 0.0;  // s, of x^n
  if (acoustic && scene_.fluid.shifting > 0.0) shift_particles();
  if ((physics_.hyperdiffusion > 0.0 || physics_.hyperviscosity > 0.0) &&
      n % kHyperdiffusionEvery == 0)
    hyperdiffuse();
  const EmitterState e = drive(acoustic);  // the disc at t^n
  if (ghosts_.driven()) {
    // The face behind the disc moves with it: the ghosts' velocities reflected about its speed,
    // their positions about its displacement, their pressures carrying the gradient of its
    // acceleration, all at t^n (local; a restart recomputes them here).
    ghosts_.set_piston(e.shift, e.speed, e.acceleration);
    ghosts_.refresh_driven(p_);
  }
  if (mirror_.driven()) {
    // The same for the mirror face the disc lies on: its images behind the disc (local).
    mirror_.set_piston_speed(e.speed);
    mirror_.refresh_piston(p_);
  }
  timings_.lap(Phase::Emitter);

  compute_momentum(p_, neighbours_, physics_, scratch_);  // pressure + viscosity: a^n
  background_.subtract(p_);  // the background pressure's share at rest (none if P_b = 0)
  add_tether_forces(p_, tethers_, walls_, e.shift, e.speed, dx * dx, d.particle_mass, d.dt, t);
  timings_.lap(Phase::Forces);
  kick(p_, d.dt, acoustic ? 0.0 : scene_.equilibrium.damping);  // v^{n+1/2}
  if (p_.face_state) move_faces();  // W^{n+1/2}, X^{n+1} of the reacting faces under p^n
  ghosts_.advance_faces();          // the same for the ghost faces, under p(x_m)^n
  timings_.lap(Phase::Integration);
  refresh(Field::Velocity);

  compute_continuity(p_, neighbours_, physics_);  // drho/dt with v^{n+1/2}
  if (acoustic && sources_.size() > 0) sources_.add_to_continuity(p_, source_q_, source_time_);
  timings_.lap(Phase::Density);
  compress_and_drift(p_, d.dt);  // rho^{n+1}, x^{n+1}
  timings_.lap(Phase::Integration);

  // The halo refresh runs while the rebuild check's reduction is in flight; when a rebuild is
  // due it was not needed (rebuild() drops the copies), but it costs less than waiting.
  start_rebuild_check();
  timings_.lap(Phase::Neighbours);
  refresh(Field::Position | Field::Density);
  if (finish_rebuild_check()) rebuild();
  timings_.lap(Phase::Neighbours);
}

StageStats Simulation::equilibrate() {
  const EquilibriumSpec& eq = scene_.equilibrium;
  StageStats st;
  if (run_.stage == 1) {
    const double unit = eq.energy * 0x1p-20;
    Progress progress("stage 1 (equilibrium)", eq.max_steps, global_particles_, scene_.derived.dt,
                      scene_.output.progress_every);
    // E is checked every kEnergyEvery steps, and stage 1 ends at the first check where it is
    // below the threshold and not rising: E = 0 at rest says nothing until forces have acted.
    // The loop's state lives in run_ so that a checkpoint taken in after_step_ continues it.
    while (!(run_.energy < eq.energy && run_.energy <= run_.previous_energy)) {
      if (run_.stage1_steps >= eq.max_steps && run_.stage1_steps > 0) {
        std::ostringstream msg;
        msg << "equilibrium not reached: kinetic energy " << run_.energy << " J after "
            << run_.stage1_steps << " steps, threshold [equilibrium] energy = " << eq.energy
            << " J; raise [equilibrium] max_steps or damping, or the threshold";
        throw EquilibriumError(msg.str());
      }
      step(false);
      ++run_.stage1_steps;
      if (run_.stage1_steps % kEnergyEvery == 0 || run_.stage1_steps == eq.max_steps) {
        run_.previous_energy = run_.energy;
        run_.energy = kinetic_energy(p_, scene_.derived.particle_mass, unit, comm_);
      }
      progress.update(run_.stage1_steps);
      if (after_step_) after_step_();
    }
    run_.stage1_wall_seconds += progress.elapsed();
    run_.stage = 2;
    logger("sim")->info("stage 1: equilibrium after {} steps, kinetic energy {:.3g} J < {:.3g} J",
                        run_.stage1_steps, run_.energy, eq.energy);
  }
  st.steps = run_.stage1_steps;
  st.final_energy = run_.energy;
  st.wall_seconds = run_.stage1_wall_seconds;
  return st;
}

double Simulation::drive_end(const Signal& input) const {
  // Until the last input sample has played, and then the drives' settling: three time constants
  // of the slowest acceleration drive's high-pass (the disc returning to rest), at least
  // kSettleSeconds (the room's response building up).
  double end = 0.0, highpass = 0.0;
  if (rank_ == 0) {
    const auto seconds = [](const Signal& s) {  // to its last sample that is not 0
      std::size_t n = s.samples.size();
      while (n > 0 && s.samples[n - 1] == 0.0) --n;
      return s.rate > 0.0 ? static_cast<double>(n) / s.rate : 0.0;
    };
    const auto slowest = [&](double hz) {
      if (hz > 0.0) highpass = highpass > 0.0 ? std::min(highpass, hz) : hz;
    };
    end = seconds(input);
    if (scene_.emitter.present && scene_.emitter.drive == Drive::Acceleration)
      slowest(scene_.emitter.highpass);
    for (std::size_t k = 0; k < scene_.sources.size(); ++k) {
      if (k < source_inputs_.size()) end = std::max(end, seconds(source_inputs_[k]));
      slowest(scene_.sources[k].highpass);
    }
    end +=
        std::max(kSettleSeconds, highpass > 0.0 ? 3.0 / (2.0 * std::numbers::pi * highpass) : 0.0);
  }
  MPI_Bcast(&end, 1, MPI_DOUBLE, 0, comm_);
  return end;
}

StageStats Simulation::record(const Signal& input) {
  const Derived& d = scene_.derived;
  if (rank_ == 0) {
    emitter_ = EmitterDrive(input, make_drive_params(scene_));
    if (acoustic_step_ > 0) emitter_.resume(emitter_resume_);  // continuing an imported state
    source_drives_.clear();
    for (std::size_t k = 0; k < sources_.size(); ++k) {
      Signal in = k < source_inputs_.size() ? source_inputs_[k] : Signal{input.rate, {}};
      source_drives_.emplace_back(std::move(in), make_source_drive_params(scene_, k));
      if (acoustic_step_ > 0 && k < source_resume_.size())
        source_drives_.back().resume(source_resume_[k]);
    }
  }
  EnergyWatch watch(drive_end(input));
  const bool watching = object_period_ == 0;  // a moving object does work on the air
  const std::int64_t watch_every =
      std::max<std::int64_t>(1, std::llround(kWatchSeconds / scene_.derived.dt));
  run_.stage = 2;
  Progress progress("stage 2 (acoustic)", d.steps, global_particles_, d.dt,
                    scene_.output.progress_every, acoustic_step_);
  if (!run_.reference_taken) {
    receivers_.measure(p_);  // the reference at t = 0 (seed: before the emitter moves)
    run_.reference_taken = true;
  }
  // energy.csv covers the steps this process runs (a restart starts its own series).
  const FluidSpec& f = scene_.fluid;
  const auto record_energy = [&](std::int64_t n) {
    if (scene_.output.energy && n % d.substeps == 0)
      energy_.push_back(acoustic_energy(p_, d.particle_mass, f.rest_density, f.sound_speed,
                                        static_cast<double>(n) * d.dt, comm_));
  };
  energy_.clear();
  record_energy(acoustic_step_);
  StageStats st;
  timings_.reset();  // the phases of stage 2 only (of this process: a restart counts its own)
  const std::int64_t first = acoustic_step_;  // 0, or where an imported state stood
  for (std::int64_t n = first; n < d.steps; ++n) {
    step(true);
    receivers_.measure(p_, static_cast<double>(n + 1) * d.dt);
    record_energy(n + 1);
    if (watching && (n + 1) % watch_every == 0) {
      const double t = static_cast<double>(n + 1) * d.dt;
      const AcousticEnergy e =
          acoustic_energy(p_, d.particle_mass, f.rest_density, f.sound_speed, t, comm_);
      if (watch.observe(t, e.kinetic + e.potential)) {
        // Where it grows (collective): the particles holding at least kRegionFraction of the
        // largest particle's energy, and the walls by name next to the most energetic one.
        const EnergyRegion r = energy_region(p_, d.particle_mass, f.rest_density, f.sound_speed,
                                             kRegionFraction, comm_);
        if (rank_ == 0)
          logger("sim")->warn(
              "the air's acoustic energy is {:.3g} J at t = {:.4f} s, over {:.0f} times the most "
              "it held while the sources played ({:.3g} J, to t = {:.3f} s with their settling): "
              "the run is unstable; {}; the receivers record the growth (docs/limitations.md, "
              "\"Growing energy\")",
              e.kinetic + e.potential, t, EnergyWatch::kGrowth, watch.reference(),
              watch.drive_end(), growth_region(scene_, r));
      }
    }
    if ((n + 1) % kFlushEvery == 0 || n + 1 == d.steps) receivers_.flush(comm_);
    timings_.lap(Phase::Receivers);
    progress.update(n + 1);
    if (after_step_) after_step_();
  }
  if (first >= d.steps) receivers_.flush(comm_);
  st.steps = d.steps;
  st.steps_run = std::max<std::int64_t>(0, d.steps - first);
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
  std::vector<std::uint32_t> list;
  for (std::size_t i = 0; i < p_.n_owned; ++i) {
    neighbours_.neighbours(i, list);
    for (std::uint32_t j : list) {
      const Vec3 r = p_.position(i) - p_.position(j);
      if (dot(r, r) < r2) count[0] += 1.0;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, count, 2, MPI_DOUBLE, MPI_SUM, comm_);
  return count[1] > 0 ? count[0] / count[1] : 0.0;
}

}  // namespace sphreverb
