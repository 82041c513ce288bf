#include "sphreverb/io/checkpoint.hpp"
#include "sphreverb/solver/assembly.hpp"  // make_eos, make_lattice

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <thread>

#include "io/detail/h5.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/physics/eos.hpp"
#include "sphreverb/core/errors.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/io/xdmf.hpp"

namespace sphreverb {

namespace fs = std::filesystem;
using detail::h5::File;
using detail::h5::H5Error;
using detail::h5::Type;

namespace {

using detail::rank_of;
using detail::size_of;

void bcast(std::string& s, MPI_Comm comm) {
  std::uint64_t n = s.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
  s.resize(n);
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
}
template <class T>
void bcast(T& v, MPI_Comm comm) {
  MPI_Bcast(&v, sizeof(T), MPI_BYTE, 0, comm);
}

std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}
std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}
std::string overrides_text(const std::map<std::string, std::string>& o) {
  std::string s;
  for (const auto& [k, v] : o) s += k + "=" + v + "\n";
  return s;
}
std::map<std::string, std::string> parse_overrides(const std::string& s) {
  std::map<std::string, std::string> o;
  for (const std::string& line : split_lines(s)) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) o[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return o;
}

// A one-element dataset written by rank 0.
void scalar(File& f, const std::string& name, double v, const char* units, const char* what) {
  f.write_rows(name, Type::F64, &v, 1, 0, 0, f.rank() == 0 ? 1 : 0, units, what);
}
void scalar(File& f, const std::string& name, std::int64_t v, const char* units, const char* what) {
  f.write_rows(name, Type::I64, &v, 1, 0, 0, f.rank() == 0 ? 1 : 0, units, what);
}

// Reads a whole small dataset (serial file) and checks its checksum.
template <class T>
std::vector<T> read_all(const File& f, const std::string& name, Type type, int cols,
                        std::uint64_t expect_rows) {
  const auto dims = f.shape(name);
  if (dims.empty() || dims[0] != expect_rows)
    throw H5Error(f.path() + ": dataset " + name + " has " +
                  (dims.empty() ? std::string("no rows") : std::to_string(dims[0]) + " rows") +
                  ", expected " + std::to_string(expect_rows));
  const std::uint64_t width = cols > 0 ? static_cast<std::uint64_t>(cols) : 1;
  std::vector<T> v(expect_rows * width);
  const std::uint64_t sum = f.read_rows(name, type, v.data(), cols, 0, expect_rows);
  if (sum != f.stored_checksum(name))
    throw H5Error(f.path() + ": dataset " + name + " fails its checksum (the file is damaged)");
  return v;
}
double read_f64(const File& f, const std::string& name) {
  return read_all<double>(f, name, Type::F64, 0, 1)[0];
}
std::int64_t read_i64(const File& f, const std::string& name) {
  return read_all<std::int64_t>(f, name, Type::I64, 0, 1)[0];
}

// The rebuild positions [N, 3]: optional (files without them restart at the current positions).
constexpr const char* kRebuildPosition = "/particles/rebuild_position";

// The particle datasets needed to continue (all [N] or [N, 3]).
struct ParticleSet {
  const char* name;
  int cols;
  Type type;
};
constexpr ParticleSet kParticleSets[] = {{"/particles/position", 3, Type::F64},
                                         {"/particles/velocity", 3, Type::F64},
                                         {"/particles/density", 0, Type::F64},
                                         {"/particles/rest_position", 3, Type::F64},
                                         {"/particles/key", 0, Type::I64}};

// Writes the owned particles [0, n_owned) of p straight from its arrays: [N, 3] datasets and the
// derived ones are assembled in bounded blocks (File::write_rows_chunked), so a checkpoint adds
// no copy of the particles to the peak memory.
void write_particles(File& f, const Scene& scene, const Particles& p, std::uint64_t total,
                     std::uint64_t first, int rank, const SimulationState& state) {
  const std::size_t n = p.n_owned;
  auto put3 = [&](const std::vector<double>& a, const std::vector<double>& b,
                  const std::vector<double>& c, const char* name, const char* units,
                  const char* what) {
    f.write_rows_chunked(
        name, Type::F64, total, 3, first, n,
        [&](std::uint64_t row, std::uint64_t count, void* out) {
          auto* v = static_cast<double*>(out);
          for (std::uint64_t k = 0; k < count; ++k)
            v[3 * k] = a[row + k], v[3 * k + 1] = b[row + k], v[3 * k + 2] = c[row + k];
        },
        units, what);
  };
  put3(p.x, p.y, p.z, "/particles/position", "m", "position x^n at time /run/time");
  put3(p.vx, p.vy, p.vz, "/particles/velocity", "m/s",
       "velocity v^(n-1/2) of the staggered leap-frog, half a step before /run/time");
  f.write_rows("/particles/density", Type::F64, p.rho.data(), total, 0, first, n, "kg/m^3",
               "density rho^n (continuity equation)");
  if (state.rebuild_position(0))
    f.write_rows_chunked(
        kRebuildPosition, Type::F64, total, 3, first, n,
        [&](std::uint64_t row, std::uint64_t count, void* out) {
          auto* v = static_cast<double*>(out);
          for (std::uint64_t k = 0; k < count; ++k)
            for (int a = 0; a < 3; ++a) v[3 * k + a] = state.rebuild_position(a)[row + k];
        },
        "m",
        "position at the last neighbour-list rebuild: a restart rebuilds from it (optional; "
        "without it the restart rebuilds at /particles/position)");
  // The rest position is the lattice site of the id (the solver keeps no copy of it).
  const Lattice lattice = make_lattice(scene);
  f.write_rows_chunked(
      "/particles/rest_position", Type::F64, total, 3, first, n,
      [&](std::uint64_t row, std::uint64_t count, void* out) {
        auto* v = static_cast<double*>(out);
        for (std::uint64_t k = 0; k < count; ++k) {
          const Vec3 r = lattice.site_of(p.id(row + k));
          v[3 * k] = r.x, v[3 * k + 1] = r.y, v[3 * k + 2] = r.z;
        }
      },
      "m", "lattice (rest) position: anchors the wall tethers");
  f.write_rows("/particles/key", Type::I64, p.key.data(), total, 0, first, n, "1",
               "decomposition-independent key = id * 27 + 13");
  const Eos eos = make_eos(scene.fluid);
  f.write_rows_chunked(
      "/particles/pressure", Type::F64, total, 0, first, n,
      [&](std::uint64_t row, std::uint64_t count, void* out) {
        for (std::uint64_t k = 0; k < count; ++k)
          static_cast<double*>(out)[k] = eos.pressure(p.rho[row + k]);
      },
      "Pa",
      "pressure deflection p' = p(rho) - p(rho0) from the equation of state (for "
      "viewing; not read on restart)");
  f.write_rows_chunked(
      "/particles/rank", Type::I32, total, 0, first, n,
      [&](std::uint64_t, std::uint64_t count, void* out) {
        std::fill_n(static_cast<std::int32_t*>(out), count, std::int32_t{rank});
      },
      "1", "rank that owned the particle when the checkpoint was written (for viewing)");
  f.write_rows_chunked(
      "/particles/index", Type::I64, total, 0, first, n,
      [&](std::uint64_t row, std::uint64_t count, void* out) {
        for (std::uint64_t k = 0; k < count; ++k)
          static_cast<std::int64_t*>(out)[k] = static_cast<std::int64_t>(first + row + k);
      },
      "1", "row number 0..N-1: the XDMF Polyvertex connectivity");
}

void sleep_for_tests() {
  if (const char* s = std::getenv("SPHREVERB_TEST_CHECKPOINT_SLEEP")) {
    const double seconds = std::atof(s);
    if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  }
}

XdmfGrid checkpoint_grid(const std::string& h5, std::uint64_t n, double time) {
  XdmfGrid g;
  g.h5_file = h5;
  g.points = n;
  g.time = time;
  g.geometry = "/particles/position";
  g.connectivity = "/particles/index";
  g.arrays = {{"density", "/particles/density", 1, false, 8},
              {"pressure", "/particles/pressure", 1, false, 8},
              {"velocity", "/particles/velocity", 3, false, 8},
              {"rank", "/particles/rank", 1, true, 4}};
  return g;
}

// Rank 0: removes all but the newest `keep` complete checkpoints (and their sidecars).
void prune(const std::string& cdir, int keep) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(cdir)) {
    const std::string f = e.path().filename().string();
    if (f.rfind("step_", 0) == 0 && e.path().extension() == ".h5") names.push_back(f);
  }
  std::sort(names.begin(), names.end());
  for (std::size_t i = 0; i + static_cast<std::size_t>(keep) < names.size(); ++i) {
    std::error_code ec;
    fs::remove(cdir + "/" + names[i], ec);
    fs::remove(cdir + "/" + fs::path(names[i]).replace_extension(".xmf").string(), ec);
  }
}

}  // namespace

std::string checkpoint_name(std::int64_t step) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "step_%09lld.h5", static_cast<long long>(step));
  return buf;
}

std::string scene_hash(const std::string& text, const std::map<std::string, std::string>& o) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  const std::string all = text + '\0' + overrides_text(o);
  for (unsigned char c : all) h = (h ^ c) * 0x100000001b3ULL;
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

CheckpointWritten write_checkpoint(const std::string& dir, const Scene& scene,
                                   const SimulationState& state, const Signal& input,
                                   MPI_Comm comm) {
  return write_checkpoint(dir, scene, state, state.particles, input, comm);
}

CheckpointWritten write_checkpoint(const std::string& dir, const Scene& scene,
                                   const SimulationState& state, const Particles& particles,
                                   const Signal& input, MPI_Comm comm) {
  const auto start = std::chrono::steady_clock::now();
  const int rank = rank_of(comm), size = size_of(comm);
  const std::string cdir = dir + "/checkpoints";
  const std::int64_t step = state.run.stage1_steps + state.acoustic_steps;
  const std::string name = checkpoint_name(step);
  const std::string partial = cdir + "/." + name + ".partial", final_path = cdir + "/" + name;
  std::string error;
  if (rank == 0) {
    std::error_code ec;
    fs::create_directories(cdir, ec);
    if (ec) error = cdir + ": cannot create the checkpoint directory: " + ec.message();
    // Partial files of a killed write: never a checkpoint, so drop them.
    for (const auto& e : fs::directory_iterator(cdir, ec)) {
      const std::string f = e.path().filename().string();
      if (f.rfind(".step_", 0) == 0 && e.path().extension() == ".partial") fs::remove(e.path(), ec);
    }
  }
  bcast(error, comm);
  if (!error.empty()) throw CollectiveError(error);

  const std::uint64_t n = particles.n_owned;
  std::uint64_t first = 0, total = 0;
  MPI_Exscan(&n, &first, 1, MPI_UINT64_T, MPI_SUM, comm);
  if (rank == 0) first = 0;
  MPI_Allreduce(&n, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  // Rank 0's small data: every rank must know the shapes.
  std::uint64_t samples = 0, input_len = 0;
  if (rank == 0) {
    samples = state.receiver_density.empty() ? 0 : state.receiver_density[0].size();
    input_len = input.samples.size();
  }
  bcast(samples, comm), bcast(input_len, comm);
  double input_rate = input.rate;
  bcast(input_rate, comm);
  const double dt = scene.derived.dt, time = static_cast<double>(step) * dt;
  const std::uint64_t receivers = scene.receivers.size();

  try {
    File f = File::create(partial, comm);
    f.attribute("format", kCheckpointFormat);
    f.attribute("layout_version", kCheckpointLayout);
    f.attribute("program_version", SPHREVERB_VERSION);
    f.attribute("particles", static_cast<std::int64_t>(total));
    f.attribute("ranks", static_cast<std::int64_t>(size));
    f.attribute("step", step);

    write_particles(f, scene, particles, total, first, rank, state);

    const Simulation::RunState& r = state.run;
    scalar(f, "/run/step", step, "1", "steps since the run began, stage 1 included");
    scalar(f, "/run/time", time, "s", "simulated time since the run began (step * dt)");
    scalar(f, "/run/dt", dt, "s", "time step");
    scalar(f, "/run/stage", std::int64_t{r.stage}, "1", "1 equilibrium, 2 recording");
    scalar(f, "/run/stage1_steps", r.stage1_steps, "1", "steps done in stage 1");
    scalar(f, "/run/stage1_energy", r.energy, "J", "last stage-1 kinetic-energy check");
    scalar(f, "/run/stage1_previous_energy", r.previous_energy, "J",
           "the stage-1 energy check before the last");
    scalar(f, "/run/stage1_wall_seconds", r.stage1_wall_seconds, "s", "wall time of stage 1");
    scalar(f, "/run/reference_taken", std::int64_t{r.reference_taken ? 1 : 0}, "1",
           "1 if the receivers' t = 0 reference record exists");
    scalar(f, "/run/acoustic_steps", state.acoustic_steps, "1", "stage-2 steps done");
    scalar(f, "/run/rebuilds", state.rebuilds, "1", "neighbour-list rebuilds so far");

    std::string abs_path = scene.path;
    std::error_code ec;
    if (const auto a = fs::absolute(scene.path, ec); !ec) abs_path = a.string();
    f.write_string("/scene/text", scene.text, "the scene file's text");
    f.write_string("/scene/path", abs_path, "the scene file's path (WAV inputs resolve from it)");
    f.write_string("/scene/overrides", overrides_text(scene.overrides),
                   "command-line overrides, one 'section.key=value' per line");
    f.write_string("/scene/hash", scene_hash(scene.text, scene.overrides),
                   "FNV-1a 64 of text, a NUL byte and overrides");

    const EmitterDrive::Progress& e = state.emitter;
    f.write_rows("/emitter/input", Type::F64, input.samples.data(), input_len, 0, 0,
                 rank == 0 ? input_len : 0, "1",
                 "input signal s in [-1, 1] at /emitter/input_rate (before the one-sample delay)");
    scalar(f, "/emitter/input_rate", input_rate, "Hz", "sample rate of /emitter/input");
    scalar(f, "/emitter/next_step", e.next, "1",
           "the stage-2 step the drive computes next (its position in the input)");
    scalar(f, "/emitter/shift", e.shift, "m", "displacement along the normal at the last step");
    scalar(f, "/emitter/speed", e.speed, "m/s", "speed along the normal at the last step");
    scalar(f, "/emitter/last_acceleration", e.last_acc, "m/s^2",
           "acceleration at the last step (acceleration drive)");
    scalar(f, "/emitter/leaky_velocity", e.leaky_v, "m/s",
           "V of the leaky integrator dV/dt = A - w_c V (acceleration drive)");

    std::vector<std::string> names;
    std::vector<double> pos, ref(receivers, 0.0), dens;
    for (const ReceiverSpec& rs : scene.receivers) {
      names.push_back(rs.name);
      pos.insert(pos.end(), {rs.position.x, rs.position.y, rs.position.z});
    }
    if (rank == 0) {  // records x receivers: row = record
      dens.assign(receivers * samples, 0.0);
      for (std::size_t k = 0; k < state.receiver_density.size() && k < receivers; ++k) {
        const auto& series = state.receiver_density[k];
        if (!series.empty()) ref[k] = series[0];
        for (std::size_t t = 0; t < series.size() && t < samples; ++t)
          dens[t * receivers + k] = series[t];
      }
    }
    f.write_string("/receivers/names", join_lines(names), "receiver names, one per line");
    f.write_rows("/receivers/position", Type::F64, pos.data(), receivers, 3, 0,
                 rank == 0 ? receivers : 0, "m", "receiver positions");
    f.write_rows("/receivers/reference_density", Type::F64, ref.data(), receivers, 0, 0,
                 rank == 0 ? receivers : 0, "kg/m^3",
                 "the t = 0 record of each receiver (0 if not taken yet)");
    f.write_rows("/receivers/density", Type::F64, dens.data(), samples, static_cast<int>(receivers),
                 0, rank == 0 ? samples : 0, "kg/m^3",
                 "every record so far [records, receivers]: the t = 0 reference, then one per "
                 "stage-2 step");
    sleep_for_tests();
    f.close();
  } catch (const std::exception& ex) {
    error = ex.what();
  }
  int failed = error.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm);
  if (failed) {
    if (rank == 0) std::remove(partial.c_str());
    throw CollectiveError("checkpoint " + final_path +
                          " not written: " + (error.empty() ? "another rank failed" : error));
  }

  CheckpointWritten w;
  w.path = final_path;
  if (rank == 0) {
    try {
      if (std::rename(partial.c_str(), final_path.c_str()) != 0)
        throw std::runtime_error("cannot rename " + partial + " to " + final_path);
      w.bytes = fs::file_size(final_path);
      write_xdmf(fs::path(final_path).replace_extension(".xmf").string(),
                 checkpoint_grid(name, total, time));
      prune(cdir, scene.output.keep_checkpoints);
      write_xdmf_collection(cdir, "step_", "checkpoints.xmf");
    } catch (const std::exception& ex) {
      error = ex.what();
    }
  }
  bcast(error, comm);
  if (!error.empty()) throw CollectiveError("checkpoint: " + error);
  bcast(w.bytes, comm);
  w.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MPI_Allreduce(MPI_IN_PLACE, &w.seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  return w;
}

namespace {

// Rank 0: opens the file serially and checks everything but the particle data's checksums,
// which every rank verifies on its block later. Fills the small parts of c.
void validate_and_read_small(const std::string& path, Checkpoint& c,
                             std::vector<std::uint64_t>& particle_sums) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw H5Error(path + ": no such checkpoint file");
  if (!fs::is_regular_file(path, ec)) throw H5Error(path + ": not a regular file");
  if (path.size() >= 8 && path.compare(path.size() - 8, 8, ".partial") == 0)
    throw H5Error(path +
                  ": a partially written checkpoint (the run stopped while writing it); "
                  "restart from the latest complete DIR/checkpoints/step_*.h5");
  detail::h5::silence_errors();
  if (H5Fis_hdf5(path.c_str()) <= 0) throw H5Error(path + ": not an HDF5 file");
  const File f = File::open_serial(path);
  std::string format;
  try {
    format = f.string_attribute("/", "format");
  } catch (const H5Error&) {
    throw H5Error(path + ": not a sphreverb checkpoint (no 'format' attribute)");
  }
  if (format != kCheckpointFormat)
    throw H5Error(path + ": not a sphreverb checkpoint (format '" + format + "')");
  const std::int64_t layout = f.int_attribute("/", "layout_version");
  if (layout != kCheckpointLayout)
    throw H5Error(path + ": checkpoint layout version " + std::to_string(layout) +
                  ", this program (sphreverb " SPHREVERB_VERSION ") reads version " +
                  std::to_string(kCheckpointLayout));
  c.program_version = f.string_attribute("/", "program_version");
  c.particles = f.int_attribute("/", "particles");
  if (c.particles <= 0) throw H5Error(path + ": bad particle count");
  const auto n = static_cast<std::uint64_t>(c.particles);
  for (const ParticleSet& s : kParticleSets) {
    const auto dims = f.shape(s.name);
    const bool ok = dims.size() == (s.cols > 0 ? 2u : 1u) && dims[0] == n &&
                    (s.cols == 0 || dims[1] == static_cast<std::uint64_t>(s.cols));
    if (!ok) throw H5Error(path + ": dataset " + s.name + " has the wrong shape");
    particle_sums.push_back(f.stored_checksum(s.name));
  }
  if (f.exists(kRebuildPosition)) {
    const auto dims = f.shape(kRebuildPosition);
    if (dims.size() != 2 || dims[0] != n || dims[1] != 3)
      throw H5Error(path + ": dataset " + std::string(kRebuildPosition) + " has the wrong shape");
    particle_sums.push_back(f.stored_checksum(kRebuildPosition));
  }

  SimulationState& st = c.state;
  c.step = read_i64(f, "/run/step");
  c.time = read_f64(f, "/run/time");
  c.dt = read_f64(f, "/run/dt");
  st.run.stage = static_cast<int>(read_i64(f, "/run/stage"));
  st.run.stage1_steps = read_i64(f, "/run/stage1_steps");
  st.run.energy = read_f64(f, "/run/stage1_energy");
  st.run.previous_energy = read_f64(f, "/run/stage1_previous_energy");
  st.run.stage1_wall_seconds = read_f64(f, "/run/stage1_wall_seconds");
  st.run.reference_taken = read_i64(f, "/run/reference_taken") != 0;
  st.acoustic_steps = read_i64(f, "/run/acoustic_steps");
  st.rebuilds = read_i64(f, "/run/rebuilds");
  if ((st.run.stage != 1 && st.run.stage != 2) || st.run.stage1_steps < 0 ||
      st.acoustic_steps < 0 || c.step != st.run.stage1_steps + st.acoustic_steps || !(c.dt > 0) ||
      (st.run.stage == 1 && st.acoustic_steps != 0))
    throw H5Error(path + ": inconsistent run state in /run");

  c.scene_text = f.read_string("/scene/text");
  c.scene_path = f.read_string("/scene/path");
  c.overrides = parse_overrides(f.read_string("/scene/overrides"));
  c.scene_hash = f.read_string("/scene/hash");
  if (scene_hash(c.scene_text, c.overrides) != c.scene_hash)
    throw H5Error(path + ": the scene text does not match its hash (the file is damaged)");

  const auto in_dims = f.shape("/emitter/input");
  if (in_dims.size() != 1) throw H5Error(path + ": /emitter/input has the wrong shape");
  c.input.samples = read_all<double>(f, "/emitter/input", Type::F64, 0, in_dims[0]);
  c.input.rate = read_f64(f, "/emitter/input_rate");
  st.emitter.next = read_i64(f, "/emitter/next_step");
  st.emitter.shift = read_f64(f, "/emitter/shift");
  st.emitter.speed = read_f64(f, "/emitter/speed");
  st.emitter.last_acc = read_f64(f, "/emitter/last_acceleration");
  st.emitter.leaky_v = read_f64(f, "/emitter/leaky_velocity");
  if (st.emitter.next != st.acoustic_steps)
    throw H5Error(path + ": the emitter's step does not match /run/acoustic_steps");

  c.receiver_names = split_lines(f.read_string("/receivers/names"));
  const std::uint64_t r = c.receiver_names.size();
  read_all<double>(f, "/receivers/position", Type::F64, 3, r);
  read_all<double>(f, "/receivers/reference_density", Type::F64, 0, r);
  const auto d_dims = f.shape("/receivers/density");
  if (d_dims.size() != 2 || d_dims[1] != r)
    throw H5Error(path + ": /receivers/density has the wrong shape");
  const std::uint64_t samples = d_dims[0];
  const std::uint64_t expect =
      st.run.reference_taken ? static_cast<std::uint64_t>(st.acoustic_steps) + 1 : 0;
  if (samples != expect)
    throw H5Error(path + ": /receivers/density holds " + std::to_string(samples) +
                  " records, the run state needs " + std::to_string(expect));
  const auto dens =
      read_all<double>(f, "/receivers/density", Type::F64, static_cast<int>(r), samples);
  st.receiver_density.assign(r, std::vector<double>(samples));
  for (std::uint64_t t = 0; t < samples; ++t)
    for (std::uint64_t k = 0; k < r; ++k) st.receiver_density[k][t] = dens[t * r + k];
}

}  // namespace

Checkpoint read_checkpoint(const std::string& path, MPI_Comm comm) {
  const int rank = rank_of(comm), size = size_of(comm);
  Checkpoint c;
  c.path = path;
  std::string error;
  std::vector<std::uint64_t> sums;
  if (rank == 0) {
    try {
      validate_and_read_small(path, c, sums);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  bcast(error, comm);
  if (!error.empty()) throw CheckpointError(error);

  // What every rank needs (the receivers' records and the input stay on rank 0).
  bcast(c.program_version, comm), bcast(c.scene_text, comm), bcast(c.scene_path, comm);
  bcast(c.scene_hash, comm);
  std::string ov = overrides_text(c.overrides), names = join_lines(c.receiver_names);
  bcast(ov, comm), bcast(names, comm);
  c.overrides = parse_overrides(ov);
  c.receiver_names = split_lines(names);
  bcast(c.step, comm), bcast(c.particles, comm), bcast(c.time, comm), bcast(c.dt, comm);
  bcast(c.state.run, comm), bcast(c.state.acoustic_steps, comm), bcast(c.state.rebuilds, comm);
  // One more sum when the file holds the rebuild positions.
  std::uint64_t sets = sums.size();
  MPI_Bcast(&sets, 1, MPI_UINT64_T, 0, comm);
  sums.resize(sets);
  MPI_Bcast(sums.data(), static_cast<int>(sums.size()), MPI_UINT64_T, 0, comm);
  const bool has_rebuild = sets > std::size(kParticleSets);

  // Each rank reads an even block of rows; import_state() sends them to their owners.
  const auto n = static_cast<std::uint64_t>(c.particles);
  const std::uint64_t lo = n * static_cast<std::uint64_t>(rank) / static_cast<std::uint64_t>(size);
  const std::uint64_t hi =
      n * static_cast<std::uint64_t>(rank + 1) / static_cast<std::uint64_t>(size);
  const std::size_t m = hi - lo;
  Particles& p = c.state.particles;
  p.resize(m);
  p.n_owned = m;
  std::vector<std::uint64_t> got(sums.size(), 0);
  try {
    const File f = File::open(path, comm);
    std::vector<double> v3(3 * m);
    auto get3 = [&](std::size_t k, std::vector<double>& a, std::vector<double>& b,
                    std::vector<double>& cc) {
      got[k] = f.read_rows(kParticleSets[k].name, Type::F64, v3.data(), 3, lo, m);
      for (std::size_t i = 0; i < m; ++i)
        a[i] = v3[3 * i], b[i] = v3[3 * i + 1], cc[i] = v3[3 * i + 2];
    };
    get3(0, p.x, p.y, p.z);
    get3(1, p.vx, p.vy, p.vz);
    got[2] = f.read_rows("/particles/density", Type::F64, p.rho.data(), 0, lo, m);
    // rest_position: checked (checksum) but not kept, the lattice site of the key is.
    got[3] = f.read_rows(kParticleSets[3].name, Type::F64, v3.data(), 3, lo, m);
    got[4] = f.read_rows("/particles/key", Type::I64, p.key.data(), 0, lo, m);
    if (has_rebuild) {
      SimulationState& st = c.state;
      st.rebuild_x.resize(m), st.rebuild_y.resize(m), st.rebuild_z.resize(m);
      got[5] = f.read_rows(kRebuildPosition, Type::F64, v3.data(), 3, lo, m);
      for (std::size_t i = 0; i < m; ++i)
        st.rebuild_x[i] = v3[3 * i], st.rebuild_y[i] = v3[3 * i + 1],
        st.rebuild_z[i] = v3[3 * i + 2];
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  int failed = error.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm);
  if (failed) throw CheckpointError(error.empty() ? path + ": unreadable particle data" : error);
  MPI_Allreduce(MPI_IN_PLACE, got.data(), static_cast<int>(got.size()), MPI_UINT64_T, MPI_SUM,
                comm);
  for (std::size_t k = 0; k < got.size(); ++k)
    if (got[k] != sums[k])
      throw CheckpointError(
          path + ": dataset " +
          (k < std::size(kParticleSets) ? kParticleSets[k].name : kRebuildPosition) +
          " fails its checksum (the file is damaged)");
  return c;
}

void check_compatible(const Checkpoint& c, const Scene& s, std::int64_t scene_particles) {
  auto refuse = [&](const std::string& what) {
    throw CheckpointError(c.path + ": does not match its scene: " + what);
  };
  if (scene_particles != c.particles)
    refuse("the scene has " + std::to_string(scene_particles) + " particles, the checkpoint " +
           std::to_string(c.particles));
  if (s.derived.dt != c.dt) refuse("the time step differs");
  std::vector<std::string> names;
  for (const ReceiverSpec& r : s.receivers) names.push_back(r.name);
  if (names != c.receiver_names) refuse("the receivers differ");
  if (s.derived.steps < c.state.acoustic_steps)
    throw CheckpointError(c.path + ": [time] duration " + std::to_string(s.time.duration) +
                          " s is shorter than the " +
                          std::to_string(static_cast<double>(c.state.acoustic_steps) * c.dt) +
                          " s already recorded");
}

}  // namespace sphreverb
