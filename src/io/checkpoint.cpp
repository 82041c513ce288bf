#include "sphreverb/io/checkpoint.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "io/detail/h5.hpp"
#include "io/detail/markers.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/core/errors.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/core/sha256.hpp"
#include "sphreverb/io/markers.hpp"
#include "sphreverb/io/run_dir.hpp"
#include "sphreverb/io/xdmf.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/parallel/collective.hpp"
#include "sphreverb/physics/eos.hpp"
#include "sphreverb/solver/assembly.hpp"  // make_eos, make_lattice

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

Type h5_type(CkptType t) {
  switch (t) {
    case CkptType::I64:
      return Type::I64;
    case CkptType::I32:
      return Type::I32;
    default:
      return Type::F64;
  }
}

// Column count of a table entry for the h5 layer (0: [rows]).
int columns(const CheckpointDataset& d, std::uint64_t receivers) {
  return d.cols >= 0 ? d.cols : -d.cols * static_cast<int>(receivers);
}

// Whether some ghost wall's material (a mesh surface's, a ghost-walled boundary's or a face's of
// a ghost-walled [room]) satisfies `pred`.
template <class Pred>
bool some_ghost_wall_material(const Scene& s, Pred&& pred) {
  if (s.derived.ghost_room)
    for (const std::string& name : s.room.face_material)
      if (pred(s.material(name))) return true;
  for (const GeometrySpec& g : s.geometries)
    for (const std::string& name : g.surface_material)
      if (pred(s.material(name))) return true;
  for (const BoundarySpec& b : s.boundaries)
    if (b.wall == BoundaryWall::Ghost && pred(s.material(b.material))) return true;
  return false;
}

// Some ghost wall has a band material: a reacting ghost face (ghost_walls.hpp), whose face
// elements a checkpoint carries.
bool reacting_ghost_walls(const Scene& s) {
  return some_ghost_wall_material(s, [](const MaterialSpec& m) {
    return !m.rigid && m.absorption.size() == kOctaveBands.size();
  });
}

// Whether the scene's ghost walls keep a row of state per site: band materials (reacting faces)
// and broadband absorbing ones (resistive faces: their W of the last step), ghost_walls.hpp.
bool ghost_face_rows(const Scene& s) {
  return some_ghost_wall_material(s, [](const MaterialSpec& m) { return !m.rigid; });
}

// Collective: dataset `name` of the table, [rows, cols], this rank's rows [first, first + count).
void put(File& f, const char* name, const void* data, std::uint64_t rows, std::uint64_t first,
         std::uint64_t count, std::uint64_t receivers = 0) {
  const CheckpointDataset& d = checkpoint_dataset(name);
  f.write_rows(name, h5_type(d.type), data, rows, columns(d, receivers), first, count, d.units,
               d.description);
}
// The same, rows produced in blocks (File::write_rows_chunked).
void put_chunked(File& f, const char* name, std::uint64_t rows, std::uint64_t first,
                 std::uint64_t count, const File::RowFill& fill) {
  const CheckpointDataset& d = checkpoint_dataset(name);
  f.write_rows_chunked(name, h5_type(d.type), rows, columns(d, 0), first, count, fill, d.units,
                       d.description);
}
// A one-element dataset written by rank 0.
void put_scalar(File& f, const char* name, double v) {
  put(f, name, &v, 1, 0, f.rank() == 0 ? 1 : 0);
}
void put_scalar(File& f, const char* name, std::int64_t v) {
  put(f, name, &v, 1, 0, f.rank() == 0 ? 1 : 0);
}
void put_text(File& f, const char* name, const std::string& value) {
  const CheckpointDataset& d = checkpoint_dataset(name);
  f.write_string(name, value, d.units, d.description);
}

// The particle datasets a restart reads (their checksums are verified by every rank).
constexpr const char* kRestartParticleSets[] = {
    "/particles/position",      "/particles/velocity", "/particles/density",
    "/particles/rest_position", "/particles/key",      "/particles/rebuild_position"};
// The face-element state of reacting mirror faces: read (and checksummed) when present.
constexpr const char* kFaceStateSets[] = {"/particles/face_displacement",
                                          "/particles/face_velocity"};

// The reacting ghost walls' face elements (ghost_walls.hpp): written and read by scenes with
// band materials on ghost walls.
constexpr const char* kGhostFaceSets[] = {"/ghost_faces/key", "/ghost_faces/displacement",
                                          "/ghost_faces/velocity"};

// Collective: this rank's rows of the ghost face elements after those of the lower ranks.
void write_ghost_faces(File& f, const std::vector<GhostWalls::FaceState>& mine, MPI_Comm comm) {
  const std::uint64_t n = mine.size();
  std::uint64_t first = 0, total = 0;
  MPI_Exscan(&n, &first, 1, MPI_UINT64_T, MPI_SUM, comm);
  if (rank_of(comm) == 0) first = 0;
  MPI_Allreduce(&n, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  std::vector<std::int64_t> key(n);
  std::vector<double> x(3 * n), w(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    key[i] = mine[i].key;
    for (int k = 0; k < 3; ++k) x[3 * i + k] = mine[i].x[k], w[3 * i + k] = mine[i].w[k];
  }
  put(f, kGhostFaceSets[0], key.data(), total, first, n);
  put(f, kGhostFaceSets[1], x.data(), total, first, n);
  put(f, kGhostFaceSets[2], w.data(), total, first, n);
}

// Writes the owned particles [0, n_owned) of p straight from its arrays: [N, 3] datasets and the
// derived ones are assembled in bounded blocks (File::write_rows_chunked), so a checkpoint adds
// no copy of the particles to the peak memory.
void write_particles(File& f, const Scene& scene, const Particles& p, std::uint64_t total,
                     std::uint64_t first, int rank, const SimulationState& state) {
  const std::size_t n = p.n_owned;
  auto put3 = [&](const char* name, const std::vector<double>& a, const std::vector<double>& b,
                  const std::vector<double>& c) {
    put_chunked(f, name, total, first, n, [&](std::uint64_t row, std::uint64_t count, void* out) {
      auto* v = static_cast<double*>(out);
      for (std::uint64_t k = 0; k < count; ++k)
        v[3 * k] = a[row + k], v[3 * k + 1] = b[row + k], v[3 * k + 2] = c[row + k];
    });
  };
  put3("/particles/position", p.x, p.y, p.z);
  put3("/particles/velocity", p.vx, p.vy, p.vz);
  put(f, "/particles/density", p.rho.data(), total, first, n);
  // The rest position is the lattice site of the id (the solver keeps no copy of it).
  const Lattice lattice = make_lattice(scene);
  put_chunked(f, "/particles/rest_position", total, first, n,
              [&](std::uint64_t row, std::uint64_t count, void* out) {
                auto* v = static_cast<double*>(out);
                for (std::uint64_t k = 0; k < count; ++k) {
                  const Vec3 r = lattice.site_of(p.id(row + k));
                  v[3 * k] = r.x, v[3 * k + 1] = r.y, v[3 * k + 2] = r.z;
                }
              });
  put(f, "/particles/key", p.key.data(), total, first, n);
  if (p.face_state) {
    put3("/particles/face_displacement", p.face_x[0], p.face_x[1], p.face_x[2]);
    put3("/particles/face_velocity", p.face_w[0], p.face_w[1], p.face_w[2]);
  }
  put_chunked(f, "/particles/rebuild_position", total, first, n,
              [&](std::uint64_t row, std::uint64_t count, void* out) {
                auto* v = static_cast<double*>(out);
                for (std::uint64_t k = 0; k < count; ++k)
                  for (int a = 0; a < 3; ++a) v[3 * k + a] = state.rebuild_position(a)[row + k];
              });
  const Eos eos = make_eos(scene.fluid);
  put_chunked(f, "/particles/pressure", total, first, n,
              [&](std::uint64_t row, std::uint64_t count, void* out) {
                for (std::uint64_t k = 0; k < count; ++k)
                  static_cast<double*>(out)[k] = eos.pressure(p.rho[row + k]);
              });
  put_chunked(f, "/particles/rank", total, first, n,
              [&](std::uint64_t, std::uint64_t count, void* out) {
                std::fill_n(static_cast<std::int32_t*>(out), count, std::int32_t{rank});
              });
  put_chunked(f, "/particles/index", total, first, n,
              [&](std::uint64_t row, std::uint64_t count, void* out) {
                for (std::uint64_t k = 0; k < count; ++k)
                  static_cast<std::int64_t*>(out)[k] = static_cast<std::int64_t>(first + row + k);
              });
}

// The first input sample a drive at stage-2 step `next` can still read: sample_at() interpolates
// between the two samples around t >= (next - 1/2) dt of the delayed input (one leading zero), so
// original samples below floor(next dt rate) - 2 are never read again; two more are kept.
std::uint64_t first_sample_to_play(std::int64_t next, double dt, double rate, std::uint64_t n) {
  const double played = std::floor(static_cast<double>(next) * dt * rate) - 4.0;
  if (!(played > 0.0)) return 0;
  return std::min<std::uint64_t>(static_cast<std::uint64_t>(played), n);
}

std::string include_paths_text(const std::vector<SceneInclude>& includes) {
  std::string s;
  for (const SceneInclude& i : includes) s += i.path + "\n";
  return s;
}

// The scene's mesh files as read when it was parsed (absolute paths), each file once.
std::vector<MeshFileStamp> scene_mesh_files(const Scene& scene) {
  std::vector<MeshFileStamp> out;
  for (const GeometrySpec& g : scene.geometries) {
    if (!g.mesh) continue;
    for (MeshFileStamp f : g.mesh->files) {
      std::error_code ec;
      if (const auto a = fs::absolute(f.path, ec); !ec) f.path = a.lexically_normal().string();
      const bool seen = std::any_of(out.begin(), out.end(),
                                    [&](const MeshFileStamp& o) { return o.path == f.path; });
      if (!seen) out.push_back(std::move(f));
    }
  }
  return out;
}

void sleep_for_tests() {
  if (const char* s = std::getenv("SPHREVERB_TEST_CHECKPOINT_SLEEP")) {
    const double seconds = std::atof(s);
    if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  }
}

XdmfGrid checkpoint_grid(const std::string& h5, std::uint64_t n, double time,
                         const SceneMarkers& markers) {
  XdmfGrid g;
  g.markers = xdmf_markers(markers);
  g.h5_file = h5;
  g.points = n;
  g.time = time;
  g.geometry = "/particles/position";
  g.connectivity = "/particles/index";
  for (const CheckpointDataset& d : kCheckpointDatasets)
    if (d.paraview != nullptr)
      g.arrays.push_back({d.paraview, d.name, d.cols > 0 ? d.cols : 1, d.type != CkptType::F64,
                          d.type == CkptType::I32 ? 4 : 8});
  return g;
}

}  // namespace

const CheckpointDataset& checkpoint_dataset(std::string_view name) {
  for (const CheckpointDataset& d : kCheckpointDatasets)
    if (name == d.name) return d;
  throw std::logic_error("checkpoint dataset " + std::string(name) + " is not in the layout table");
}

std::vector<SceneInclude> read_scene_includes(const Scene& scene) {
  std::vector<SceneInclude> out;
  std::istringstream in(scene.text);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == ';') continue;
    if (line[first] == '[') break;  // includes come before the first section
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    auto trim = [](std::string v) {
      const auto a = v.find_first_not_of(" \t\r"), b = v.find_last_not_of(" \t\r");
      return a == std::string::npos ? std::string() : v.substr(a, b - a + 1);
    };
    if (trim(line.substr(0, eq)) != "include") continue;
    fs::path lib(trim(line.substr(eq + 1)));
    if (lib.is_relative()) lib = fs::path(scene.path).parent_path() / lib;
    std::ifstream file(lib, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    if (!file) throw CheckpointError(lib.string() + ": cannot read the file the scene includes");
    out.push_back({lib.string(), text.str()});
  }
  return out;
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
                                   const Signal& input, MPI_Comm comm,
                                   const std::vector<SceneInclude>* includes, CheckpointKind kind) {
  const auto start = std::chrono::steady_clock::now();
  const int rank = rank_of(comm), size = size_of(comm);
  const io::RunDir run(dir);
  const std::int64_t step = state.run.stage1_steps + state.acoustic_steps;
  const bool restartable = kind == CheckpointKind::Restart;
  const std::string final_path = restartable ? run.checkpoint(step) : run.unstable_checkpoint(step);
  const std::string partial = io::RunDir::partial_of(final_path);
  std::vector<SceneInclude> read_now;
  on_root(comm, [&] {
    std::error_code ec;
    fs::create_directories(run.checkpoints(), ec);
    if (ec)
      throw std::runtime_error(run.checkpoints() +
                               ": cannot create the checkpoint directory: " + ec.message());
    if (includes == nullptr) read_now = read_scene_includes(scene);
  });
  const std::vector<SceneInclude>& inc = includes != nullptr ? *includes : read_now;

  const std::uint64_t n = particles.n_owned;
  std::uint64_t first = 0, total = 0;
  MPI_Exscan(&n, &first, 1, MPI_UINT64_T, MPI_SUM, comm);
  if (rank == 0) first = 0;
  MPI_Allreduce(&n, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  // Rank 0's small data: every rank must know the shapes.
  std::uint64_t samples = 0, input_len = 0, offset = 0, include_count = inc.size();
  const double dt = scene.derived.dt, time = static_cast<double>(step) * dt;
  if (rank == 0) {
    samples = state.receiver_density.empty() ? 0 : state.receiver_density[0].size();
    input_len = input.samples.size();
    offset = first_sample_to_play(state.emitter.next, dt, input.rate, input_len);
  }
  bcast(samples, comm), bcast(input_len, comm), bcast(offset, comm), bcast(include_count, comm);
  double input_rate = input.rate;
  bcast(input_rate, comm);
  const std::uint64_t receivers = scene.receivers.size();
  // Text datasets are written with identical arguments on every rank.
  std::string include_texts, include_paths = include_paths_text(inc);
  std::vector<std::int64_t> include_sizes;
  for (const SceneInclude& i : inc)
    include_texts += i.text, include_sizes.push_back(static_cast<std::int64_t>(i.text.size()));
  bcast(include_texts, comm), bcast(include_paths, comm);
  // The mesh files' stamps: every rank parsed the same scene.
  const std::vector<MeshFileStamp> mesh_files = scene_mesh_files(scene);
  std::string mesh_paths, mesh_sha256;
  std::vector<std::int64_t> mesh_bytes;
  for (const MeshFileStamp& m : mesh_files)
    mesh_paths += m.path + "\n", mesh_sha256 += m.sha256 + "\n",
        mesh_bytes.push_back(static_cast<std::int64_t>(m.bytes));

  // The sources, receivers and moving objects at the stage-2 time of the particles' positions.
  const SceneMarkers markers = scene_markers(scene, static_cast<double>(state.acoustic_steps) * dt);

  try {
    File f = File::create(partial, comm);
    f.attribute("format", kCheckpointFormat);
    f.attribute("layout_version", kCheckpointLayoutVersion);
    f.attribute("program_version", SPHREVERB_VERSION);
    f.attribute("particles", static_cast<std::int64_t>(total));
    f.attribute("ranks", static_cast<std::int64_t>(size));
    f.attribute("step", step);

    write_particles(f, scene, particles, total, first, rank, state);
    if (ghost_face_rows(scene)) write_ghost_faces(f, state.ghost_faces, comm);

    const Simulation::RunState& r = state.run;
    put_scalar(f, "/run/step", step);
    put_scalar(f, "/run/time", time);
    put_scalar(f, "/run/dt", dt);
    put_scalar(f, "/run/stage", std::int64_t{r.stage});
    put_scalar(f, "/run/stage1_steps", r.stage1_steps);
    put_scalar(f, "/run/stage1_energy", r.energy);
    put_scalar(f, "/run/stage1_previous_energy", r.previous_energy);
    put_scalar(f, "/run/stage1_wall_seconds", r.stage1_wall_seconds);
    put_scalar(f, "/run/reference_taken", std::int64_t{r.reference_taken ? 1 : 0});
    put_scalar(f, "/run/acoustic_steps", state.acoustic_steps);
    put_scalar(f, "/run/rebuilds", state.rebuilds);

    std::string abs_path = scene.path;
    std::error_code ec;
    if (const auto a = fs::absolute(scene.path, ec); !ec) abs_path = a.string();
    put_text(f, "/scene/text", scene.text);
    put_text(f, "/scene/path", abs_path);
    put_text(f, "/scene/overrides", overrides_text(scene.overrides));
    put_text(f, "/scene/hash", scene_hash(scene.text, scene.overrides));
    put_text(f, "/scene/include_paths", include_paths);
    put(f, "/scene/include_sizes", include_sizes.data(), include_count, 0,
        rank == 0 ? include_count : 0);
    put_text(f, "/scene/include_texts", include_texts);
    put_text(f, "/scene/mesh_paths", mesh_paths);
    put(f, "/scene/mesh_bytes", mesh_bytes.data(), mesh_bytes.size(), 0,
        rank == 0 ? mesh_bytes.size() : 0);
    put_text(f, "/scene/mesh_sha256", mesh_sha256);

    const EmitterDrive::Progress& e = state.emitter;
    const std::uint64_t left = input_len - offset;
    put(f, "/emitter/input", rank == 0 ? input.samples.data() + offset : nullptr, left, 0,
        rank == 0 ? left : 0);
    put_scalar(f, "/emitter/input_offset", static_cast<std::int64_t>(offset));
    put_scalar(f, "/emitter/input_length", static_cast<std::int64_t>(input_len));
    put_scalar(f, "/emitter/input_rate", input_rate);
    put_scalar(f, "/emitter/next_step", e.next);
    put_scalar(f, "/emitter/shift", e.shift);
    put_scalar(f, "/emitter/speed", e.speed);
    put_scalar(f, "/emitter/last_acceleration", e.last_acc);
    put_scalar(f, "/emitter/leaky_velocity", e.leaky_v);

    // The sources' drives (rank 0's state); where sources, receivers and moving objects are at
    // the positions' time (their paths: the same on every rank).
    const std::uint64_t n_src = scene.sources.size();
    std::vector<std::string> src_names;
    std::vector<std::int64_t> src_next(n_src, 0);
    std::vector<double> src_drive(4 * n_src, 0.0);
    for (std::uint64_t k = 0; k < n_src; ++k) {
      const SourceSpec& src = scene.sources[k];
      src_names.push_back(src.name);
      if (rank == 0 && k < state.sources.size()) {
        const EmitterDrive::Progress& p = state.sources[k];
        src_next[k] = p.next;
        src_drive[4 * k] = p.shift, src_drive[4 * k + 1] = p.speed;
        src_drive[4 * k + 2] = p.last_acc, src_drive[4 * k + 3] = p.leaky_v;
      } else if (rank == 0) {
        src_next[k] = state.acoustic_steps;  // a drive not built yet: at rest
      }
    }
    put_text(f, "/sources/names", join_lines(src_names));
    put(f, "/sources/next_step", src_next.data(), n_src, 0, rank == 0 ? n_src : 0);
    put(f, "/sources/drive", src_drive.data(), n_src, 0, rank == 0 ? n_src : 0);
    put(f, "/sources/position", markers.source_position.data(), n_src, 0, rank == 0 ? n_src : 0);

    std::vector<std::string> names;
    std::vector<double> ref(receivers, 0.0), dens, vel;
    for (const ReceiverSpec& rs : scene.receivers) names.push_back(rs.name);
    if (rank == 0) {  // records x receivers: row = record
      dens.assign(receivers * samples, 0.0);
      for (std::size_t k = 0; k < state.receiver_density.size() && k < receivers; ++k) {
        const auto& series = state.receiver_density[k];
        if (!series.empty()) ref[k] = series[0];
        for (std::size_t t = 0; t < series.size() && t < samples; ++t)
          dens[t * receivers + k] = series[t];
      }
      vel.assign(3 * receivers * samples, 0.0);  // records x (3 receivers)
      for (std::size_t c = 0; c < state.receiver_velocity.size() && c < 3 * receivers; ++c)
        for (std::size_t t = 0; t < state.receiver_velocity[c].size() && t < samples; ++t)
          vel[t * 3 * receivers + c] = state.receiver_velocity[c][t];
    }
    put_text(f, "/receivers/names", join_lines(names));
    put(f, "/receivers/position", markers.receiver_position.data(), receivers, 0,
        rank == 0 ? receivers : 0);
    put(f, "/receivers/reference_density", ref.data(), receivers, 0, rank == 0 ? receivers : 0);
    put(f, "/receivers/density", dens.data(), samples, 0, rank == 0 ? samples : 0, receivers);
    put(f, "/receivers/velocity", vel.data(), samples, 0, rank == 0 ? samples : 0, receivers);
    detail::write_markers(f, markers, false);
    sleep_for_tests();
    f.close();
  } catch (const std::exception& ex) {
    // Every rank is here (the file's operations agree on failures); drop the partial file.
    if (rank == 0) std::remove(partial.c_str());
    throw CollectiveError("checkpoint " + final_path + " not written: " + ex.what());
  }

  CheckpointWritten w;
  w.path = final_path;
  on_root(comm, [&] {
    try {
      io::commit(partial, final_path);
      w.bytes = fs::file_size(final_path);
      write_xdmf(fs::path(final_path).replace_extension(".xmf").string(),
                 checkpoint_grid(fs::path(final_path).filename().string(), total, time, markers));
      if (restartable) {
        run.rotate_checkpoints(scene.output.keep_checkpoints);
        write_xdmf_collection(run.checkpoints(), io::RunDir::kCheckpointPrefix,
                              io::RunDir::kCheckpointCollection);
      }
    } catch (const std::exception& ex) {
      throw std::runtime_error("checkpoint " + final_path + ": " + ex.what());
    }
  });
  bcast(w.bytes, comm);
  w.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MPI_Allreduce(MPI_IN_PLACE, &w.seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  return w;
}

namespace {

// Expected row count of a table entry; `receivers` etc. are known once the small datasets that
// give them were read (0 = not known yet: the shape is checked later).
struct Extents {
  std::uint64_t particles = 0, receivers = 0, records = 0, input_left = 0, includes = 0,
                sources = 0, ghost_faces = 0, mesh_files = 0;
};
std::uint64_t rows_of(const CheckpointDataset& d, const Extents& e) {
  switch (d.rows) {
    case CkptRows::One:
      return 1;
    case CkptRows::Particles:
      return e.particles;
    case CkptRows::Receivers:
      return e.receivers;
    case CkptRows::Records:
      return e.records;
    case CkptRows::InputLeft:
      return e.input_left;
    case CkptRows::Includes:
      return e.includes;
    case CkptRows::Sources:
      return e.sources;
    case CkptRows::GhostFaces:
      return e.ghost_faces;
    case CkptRows::MeshFiles:
      return e.mesh_files;
    case CkptRows::ObjectVertices:
    case CkptRows::ObjectTriangles:
      return 0;  // not read on restart
  }
  return 0;
}

// Every entry of the table is present with its element type, rank, units and description.
void validate_table(const File& f) {
  const std::string& path = f.path();
  for (const CheckpointDataset& d : kCheckpointDatasets) {
    if (!f.exists(d.name)) {
      if (d.optional) continue;
      throw H5Error(path + ": dataset " + d.name + " is missing");
    }
    for (const char* attr : {"units", "description"})
      if (!f.has_attribute(d.name, attr))
        throw H5Error(path + ": dataset " + d.name + " has no '" + attr + "' attribute");
    if (d.type == CkptType::Text) continue;  // read_string checks its type
    const auto dims = f.shape(d.name);
    if (dims.size() != (d.cols != 0 ? 2u : 1u) || (d.cols > 0 && dims[1] != std::uint64_t(d.cols)))
      throw H5Error(path + ": dataset " + d.name + " has the wrong shape");
    if (!f.element_type_is(d.name, h5_type(d.type)))
      throw H5Error(path + ": dataset " + d.name + " has the wrong element type");
  }
}

// Reads a whole table dataset of known rows (serial file) and checks its checksum.
template <class T>
std::vector<T> read_all(const File& f, const char* name, const Extents& e) {
  const CheckpointDataset& d = checkpoint_dataset(name);
  const std::uint64_t rows = rows_of(d, e);
  const auto dims = f.shape(name);
  if (dims.empty() || dims[0] != rows)
    throw H5Error(f.path() + ": dataset " + name + " has " +
                  (dims.empty() ? std::string("no rows") : std::to_string(dims[0]) + " rows") +
                  ", expected " + std::to_string(rows));
  const int cols = columns(d, e.receivers);
  std::vector<T> v(rows * static_cast<std::uint64_t>(cols > 0 ? cols : 1));
  const std::uint64_t sum = f.read_rows(name, h5_type(d.type), v.data(), cols, 0, rows);
  if (sum != f.stored_checksum(name))
    throw H5Error(f.path() + ": dataset " + name + " fails its checksum (the file is damaged)");
  return v;
}
double read_f64(const File& f, const char* name) { return read_all<double>(f, name, {})[0]; }
std::int64_t read_i64(const File& f, const char* name) {
  return read_all<std::int64_t>(f, name, {})[0];
}

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
  if (!f.has_attribute("/", "format"))
    throw H5Error(path + ": not a sphreverb checkpoint (no 'format' attribute)");
  std::string format;
  try {
    format = f.string_attribute("/", "format");
  } catch (const H5Error&) {
    throw H5Error(path + ": not a sphreverb checkpoint (its 'format' attribute is not a string)");
  }
  if (format != kCheckpointFormat)
    throw H5Error(path + ": not a sphreverb checkpoint (format '" + format + "')");
  for (const CheckpointAttribute& a : kCheckpointAttributes)
    if (!f.has_attribute("/", a.name))
      throw H5Error(path + ": the root group has no '" + a.name + "' attribute");
  const std::int64_t layout = f.int_attribute("/", "layout_version");
  if (layout != kCheckpointLayoutVersion)
    throw H5Error(path + ": checkpoint layout version " + std::to_string(layout) +
                  ", this program (sphreverb " SPHREVERB_VERSION ") reads version " +
                  std::to_string(kCheckpointLayoutVersion));
  validate_table(f);
  c.program_version = f.string_attribute("/", "program_version");
  c.particles = f.int_attribute("/", "particles");
  if (c.particles <= 0) throw H5Error(path + ": bad particle count");
  Extents ext;
  ext.particles = static_cast<std::uint64_t>(c.particles);
  for (const char* name : kRestartParticleSets) {
    if (f.shape(name)[0] != ext.particles)
      throw H5Error(path + ": dataset " + name + " has the wrong shape");
    particle_sums.push_back(f.stored_checksum(name));
  }
  if (f.exists(kFaceStateSets[0]) != f.exists(kFaceStateSets[1]))
    throw H5Error(path + ": the face-element state is incomplete (" + kFaceStateSets[0] + ", " +
                  kFaceStateSets[1] + ")");
  if (f.exists(kFaceStateSets[0]))
    for (const char* name : kFaceStateSets) {
      if (f.shape(name)[0] != ext.particles)
        throw H5Error(path + ": dataset " + name + " has the wrong shape");
      particle_sums.push_back(f.stored_checksum(name));
    }

  SimulationState& st = c.state;
  int ghost_sets = 0;
  for (const char* name : kGhostFaceSets) ghost_sets += f.exists(name) ? 1 : 0;
  if (ghost_sets != 0 && ghost_sets != 3)
    throw H5Error(path +
                  ": the ghost face-element state is incomplete (/ghost_faces/key, "
                  "displacement, velocity)");
  if (ghost_sets == 3) {
    ext.ghost_faces = f.shape(kGhostFaceSets[0])[0];
    const auto key = read_all<std::int64_t>(f, kGhostFaceSets[0], ext);
    const auto x = read_all<double>(f, kGhostFaceSets[1], ext);
    const auto w = read_all<double>(f, kGhostFaceSets[2], ext);
    st.ghost_faces.resize(key.size());
    for (std::size_t i = 0; i < key.size(); ++i) {
      GhostWalls::FaceState& g = st.ghost_faces[i];
      g.key = key[i];
      for (int k = 0; k < 3; ++k) g.x[k] = x[3 * i + k], g.w[k] = w[3 * i + k];
    }
    st.ghost_face_state = true;
  }
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
  const std::vector<std::string> include_paths = split_lines(f.read_string("/scene/include_paths"));
  ext.includes = include_paths.size();
  const auto sizes = read_all<std::int64_t>(f, "/scene/include_sizes", ext);
  const std::string texts = f.read_string("/scene/include_texts");
  std::uint64_t at = 0;
  for (std::size_t k = 0; k < include_paths.size(); ++k) {
    const auto len = static_cast<std::uint64_t>(sizes[k]);
    if (sizes[k] < 0 || at + len > texts.size())
      throw H5Error(path + ": /scene/include_sizes does not match /scene/include_texts");
    c.includes.push_back({include_paths[k], texts.substr(at, len)});
    at += len;
  }
  c.mesh_files_stored = f.exists("/scene/mesh_paths");
  if (c.mesh_files_stored) {
    const std::vector<std::string> mesh_paths = split_lines(f.read_string("/scene/mesh_paths"));
    const std::vector<std::string> digests = split_lines(f.read_string("/scene/mesh_sha256"));
    ext.mesh_files = mesh_paths.size();
    const auto bytes = read_all<std::int64_t>(f, "/scene/mesh_bytes", ext);
    if (digests.size() != mesh_paths.size())
      throw H5Error(path + ": /scene/mesh_sha256 does not match /scene/mesh_paths");
    for (std::size_t k = 0; k < mesh_paths.size(); ++k) {
      if (bytes[k] < 0 || digests[k].size() != 64)
        throw H5Error(path + ": /scene/mesh_bytes or /scene/mesh_sha256 is damaged");
      c.mesh_files.push_back({mesh_paths[k], static_cast<std::uint64_t>(bytes[k]), digests[k]});
    }
  }

  const auto input_length = read_i64(f, "/emitter/input_length");
  const auto input_offset = read_i64(f, "/emitter/input_offset");
  if (input_length < 0 || input_offset < 0 || input_offset > input_length)
    throw H5Error(path + ": /emitter/input_offset is outside the input");
  ext.input_left = static_cast<std::uint64_t>(input_length - input_offset);
  const auto left = read_all<double>(f, "/emitter/input", ext);
  c.input_offset = input_offset;
  c.input.samples.assign(static_cast<std::size_t>(input_offset), 0.0);
  c.input.samples.insert(c.input.samples.end(), left.begin(), left.end());
  c.input.rate = read_f64(f, "/emitter/input_rate");
  st.emitter.next = read_i64(f, "/emitter/next_step");
  st.emitter.shift = read_f64(f, "/emitter/shift");
  st.emitter.speed = read_f64(f, "/emitter/speed");
  st.emitter.last_acc = read_f64(f, "/emitter/last_acceleration");
  st.emitter.leaky_v = read_f64(f, "/emitter/leaky_velocity");
  if (st.emitter.next != st.acoustic_steps)
    throw H5Error(path + ": the emitter's step does not match /run/acoustic_steps");
  if (static_cast<std::uint64_t>(input_offset) >
      first_sample_to_play(st.emitter.next, c.dt, c.input.rate,
                           static_cast<std::uint64_t>(input_length)))
    throw H5Error(path + ": /emitter/input starts after samples still to play");

  const std::vector<std::string> source_names = split_lines(f.read_string("/sources/names"));
  ext.sources = source_names.size();
  const auto src_next = read_all<std::int64_t>(f, "/sources/next_step", ext);
  const auto src_drive = read_all<double>(f, "/sources/drive", ext);
  read_all<double>(f, "/sources/position", ext);
  for (std::size_t k = 0; k < source_names.size(); ++k) {
    if (src_next[k] != st.acoustic_steps)
      throw H5Error(path + ": source " + source_names[k] +
                    "'s step does not match /run/acoustic_steps");
    st.sources.push_back({src_next[k], src_drive[4 * k], src_drive[4 * k + 1], src_drive[4 * k + 2],
                          src_drive[4 * k + 3]});
  }
  c.source_names = source_names;

  c.receiver_names = split_lines(f.read_string("/receivers/names"));
  ext.receivers = c.receiver_names.size();
  read_all<double>(f, "/receivers/position", ext);
  read_all<double>(f, "/receivers/reference_density", ext);
  const auto d_dims = f.shape("/receivers/density");
  if (d_dims[1] != ext.receivers) throw H5Error(path + ": /receivers/density has the wrong shape");
  const std::uint64_t samples = d_dims[0];
  const std::uint64_t expect =
      st.run.reference_taken ? static_cast<std::uint64_t>(st.acoustic_steps) + 1 : 0;
  if (samples != expect)
    throw H5Error(path + ": /receivers/density holds " + std::to_string(samples) +
                  " records, the run state needs " + std::to_string(expect));
  ext.records = samples;
  const auto dens = read_all<double>(f, "/receivers/density", ext);
  const std::uint64_t r = ext.receivers;
  st.receiver_density.assign(r, std::vector<double>(samples));
  for (std::uint64_t t = 0; t < samples; ++t)
    for (std::uint64_t k = 0; k < r; ++k) st.receiver_density[k][t] = dens[t * r + k];
  if (f.shape("/receivers/velocity")[1] != 3 * r)
    throw H5Error(path + ": /receivers/velocity has the wrong shape");
  const auto vel = read_all<double>(f, "/receivers/velocity", ext);
  st.receiver_velocity.assign(3 * r, std::vector<double>(samples));
  for (std::uint64_t t = 0; t < samples; ++t)
    for (std::uint64_t ch = 0; ch < 3 * r; ++ch) st.receiver_velocity[ch][t] = vel[t * 3 * r + ch];
}

}  // namespace

Checkpoint read_checkpoint(const std::string& path, MPI_Comm comm) {
  const int rank = rank_of(comm), size = size_of(comm);
  Checkpoint c;
  c.path = path;
  std::vector<std::uint64_t> sums;
  on_root<CheckpointError>(comm, [&] { validate_and_read_small(path, c, sums); });

  // What every rank needs (the receivers' records and the input stay on rank 0).
  bcast(c.program_version, comm), bcast(c.scene_text, comm), bcast(c.scene_path, comm);
  bcast(c.scene_hash, comm);
  std::string ov = overrides_text(c.overrides), names = join_lines(c.receiver_names);
  std::string src_names = join_lines(c.source_names);
  bcast(ov, comm), bcast(names, comm), bcast(src_names, comm);
  c.source_names = split_lines(src_names);
  c.overrides = parse_overrides(ov);
  c.receiver_names = split_lines(names);
  bcast(c.step, comm), bcast(c.particles, comm), bcast(c.time, comm), bcast(c.dt, comm);
  bcast(c.state.run, comm), bcast(c.state.acoustic_steps, comm), bcast(c.state.rebuilds, comm);
  // The ghost face elements: every rank keeps every row (import_state picks its sites).
  bcast(c.state.ghost_face_state, comm);
  std::uint64_t ghost_rows = c.state.ghost_faces.size();
  bcast(ghost_rows, comm);
  c.state.ghost_faces.resize(ghost_rows);
  MPI_Bcast(c.state.ghost_faces.data(),
            static_cast<int>(ghost_rows * sizeof(GhostWalls::FaceState)), MPI_BYTE, 0, comm);
  std::string include_paths, include_texts;
  std::vector<std::uint64_t> include_sizes;
  for (const SceneInclude& i : c.includes)
    include_paths += i.path + "\n", include_texts += i.text, include_sizes.push_back(i.text.size());
  bcast(include_paths, comm), bcast(include_texts, comm);
  std::uint64_t include_count = include_sizes.size();
  bcast(include_count, comm);
  include_sizes.resize(include_count);
  MPI_Bcast(include_sizes.data(), static_cast<int>(include_count), MPI_UINT64_T, 0, comm);
  if (rank != 0) {
    const std::vector<std::string> paths = split_lines(include_paths);
    std::uint64_t at = 0;
    for (std::size_t k = 0; k < include_count && k < paths.size(); ++k)
      c.includes.push_back({paths[k], include_texts.substr(at, include_sizes[k])}),
          at += include_sizes[k];
  }
  std::uint64_t sum_count = sums.size();
  MPI_Bcast(&sum_count, 1, MPI_UINT64_T, 0, comm);
  const bool face = sum_count > std::size(kRestartParticleSets);
  sums.resize(sum_count);
  MPI_Bcast(sums.data(), static_cast<int>(sums.size()), MPI_UINT64_T, 0, comm);

  // Each rank reads an even block of rows; import_state() sends them to their owners.
  const auto n = static_cast<std::uint64_t>(c.particles);
  const std::uint64_t lo = n * static_cast<std::uint64_t>(rank) / static_cast<std::uint64_t>(size);
  const std::uint64_t hi =
      n * static_cast<std::uint64_t>(rank + 1) / static_cast<std::uint64_t>(size);
  const std::size_t m = hi - lo;
  Particles& p = c.state.particles;
  p.resize(m);
  p.n_owned = m;
  if (face) p.enable_face_state();
  std::vector<std::uint64_t> got(sums.size(), 0);
  on_every_rank<CheckpointError>(comm, [&] {
    const File f = File::open(path, comm);
    std::vector<double> v3(3 * m);
    auto get3 = [&](std::size_t k, std::vector<double>& a, std::vector<double>& b,
                    std::vector<double>& cc) {
      got[k] = f.read_rows(kRestartParticleSets[k], Type::F64, v3.data(), 3, lo, m);
      for (std::size_t i = 0; i < m; ++i)
        a[i] = v3[3 * i], b[i] = v3[3 * i + 1], cc[i] = v3[3 * i + 2];
    };
    c.state.rebuild_x.resize(m), c.state.rebuild_y.resize(m), c.state.rebuild_z.resize(m);
    get3(0, p.x, p.y, p.z);
    get3(1, p.vx, p.vy, p.vz);
    got[2] = f.read_rows("/particles/density", Type::F64, p.rho.data(), 0, lo, m);
    // rest_position: checked (checksum) but not kept, the lattice site of the key is.
    got[3] = f.read_rows(kRestartParticleSets[3], Type::F64, v3.data(), 3, lo, m);
    got[4] = f.read_rows("/particles/key", Type::I64, p.key.data(), 0, lo, m);
    SimulationState& st = c.state;
    get3(5, st.rebuild_x, st.rebuild_y, st.rebuild_z);
    if (face)
      for (std::size_t k = 0; k < 2; ++k) {
        auto& v = k == 0 ? p.face_x : p.face_w;
        got[6 + k] = f.read_rows(kFaceStateSets[k], Type::F64, v3.data(), 3, lo, m);
        for (std::size_t i = 0; i < m; ++i)
          v[0][i] = v3[3 * i], v[1][i] = v3[3 * i + 1], v[2][i] = v3[3 * i + 2];
      }
  });
  MPI_Allreduce(MPI_IN_PLACE, got.data(), static_cast<int>(got.size()), MPI_UINT64_T, MPI_SUM,
                comm);
  for (std::size_t k = 0; k < got.size(); ++k)
    if (got[k] != sums[k])
      throw CheckpointError(path + ": dataset " +
                            (k < 6 ? kRestartParticleSets[k] : kFaceStateSets[k - 6]) +
                            " fails its checksum (the file is damaged)");
  return c;
}

void check_includes(const Checkpoint& c, MPI_Comm comm) {
  on_root<CheckpointError>(comm, [&] {
    for (const SceneInclude& stored : c.includes) {
      std::ifstream file(stored.path, std::ios::binary);
      std::ostringstream text;
      text << file.rdbuf();
      if (!file)
        throw CheckpointError(c.path + ": the scene includes " + stored.path +
                              ", which cannot be read now; restore it as it was");
      if (text.str() != stored.text)
        throw CheckpointError(c.path + ": " + stored.path +
                              " (included by the scene) changed since the checkpoint was "
                              "written: the physics would differ; restore it as it was");
    }
  });
}

bool check_mesh_files(const Checkpoint& c, MPI_Comm comm) {
  std::int64_t stored = c.mesh_files_stored ? 1 : 0;
  on_root<CheckpointError>(comm, [&] {
    for (const MeshFileStamp& then : c.mesh_files) {
      std::ifstream file(then.path, std::ios::binary);
      std::ostringstream bytes;
      bytes << file.rdbuf();
      if (!file)
        throw CheckpointError(c.path + ": the scene reads the mesh file " + then.path +
                              ", which cannot be read now; restore it as it was");
      const std::string now = bytes.str();
      if (now.size() != then.bytes || sha256_hex(now) != then.sha256)
        throw CheckpointError(
            c.path + ": the mesh file " + then.path +
            " changed since the checkpoint was written (" + std::to_string(then.bytes) +
            " bytes, SHA-256 " + then.sha256.substr(0, 16) + "... then; " +
            std::to_string(now.size()) + " bytes, SHA-256 " + sha256_hex(now).substr(0, 16) +
            "... now): the geometry would differ; restore it as it was");
    }
  });
  bcast(stored, comm);
  return stored != 0;
}

void check_compatible(const Checkpoint& c, const Scene& s, std::int64_t scene_particles) {
  auto refuse = [&](const std::string& what) {
    throw CheckpointError(c.path + ": does not match its scene: " + what);
  };
  if (scene_particles != c.particles)
    refuse("the scene has " + std::to_string(scene_particles) + " particles, the checkpoint " +
           std::to_string(c.particles));
  if (s.derived.dt != c.dt) refuse("the time step differs");
  bool reacting = false;
  for (const WallImpedance& z : s.derived.room_reacting) reacting = reacting || z.mass > 0.0;
  if (s.derived.mirror_room && reacting && !c.state.particles.face_state)
    refuse(
        "the scene's reacting mirror faces need their face-element state "
        "(/particles/face_displacement, /particles/face_velocity), which the checkpoint lacks");
  if (reacting_ghost_walls(s) && !c.state.ghost_face_state)
    refuse(
        "the scene's reacting ghost walls (band materials on meshes or ghost-walled boundaries) "
        "need their face-element state (/ghost_faces/key, displacement, velocity), which the "
        "checkpoint lacks");
  std::vector<std::string> names;
  for (const ReceiverSpec& r : s.receivers) names.push_back(r.name);
  if (names != c.receiver_names) refuse("the receivers differ");
  names.clear();
  for (const SourceSpec& src : s.sources) names.push_back(src.name);
  if (names != c.source_names) refuse("the [emitter.NAME] sources differ");
  if (s.derived.steps < c.state.acoustic_steps)
    throw CheckpointError(c.path + ": [time] duration " + std::to_string(s.time.duration) +
                          " s is shorter than the " +
                          std::to_string(static_cast<double>(c.state.acoustic_steps) * c.dt) +
                          " s already recorded");
}

}  // namespace sphreverb
