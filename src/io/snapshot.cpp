#include "sphreverb/io/snapshot.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "io/detail/h5.hpp"
#include "io/detail/markers.hpp"
#include "sphreverb/core/errors.hpp"
#include "sphreverb/io/markers.hpp"
#include "sphreverb/io/run_dir.hpp"
#include "sphreverb/io/xdmf.hpp"
#include "sphreverb/parallel/collective.hpp"
#include "sphreverb/physics/eos.hpp"
#include "sphreverb/solver/assembly.hpp"  // make_eos

namespace sphreverb {

namespace fs = std::filesystem;
using detail::h5::File;
using detail::h5::Type;

namespace {
bool wants(const Scene& s, const char* field) {
  const auto& f = s.output.snapshot_fields;
  return std::find(f.begin(), f.end(), field) != f.end();
}
}  // namespace

CheckpointWritten write_snapshot(const std::string& dir, const Scene& scene, const Particles& p,
                                 std::int64_t step, std::int64_t acoustic_steps, MPI_Comm comm) {
  const auto start = std::chrono::steady_clock::now();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const io::RunDir run(dir);
  const std::string sdir = run.snapshots();
  const std::string final_path = run.snapshot(step);
  const std::string h5 = fs::path(final_path).filename().string();
  const std::string partial = io::RunDir::partial_of(final_path);
  on_root(comm, [&] {
    std::error_code ec;
    fs::create_directories(sdir, ec);
    if (ec) throw std::runtime_error(sdir + ": cannot create the snapshot directory");
  });

  const std::uint64_t n = p.n_owned;
  std::uint64_t first = 0, total = 0;
  MPI_Exscan(&n, &first, 1, MPI_UINT64_T, MPI_SUM, comm);
  if (rank == 0) first = 0;
  MPI_Allreduce(&n, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  const double time = static_cast<double>(step) * scene.derived.dt;

  XdmfGrid g;
  g.h5_file = h5;
  g.points = total;
  g.time = time;
  g.geometry = "/particles/position";
  g.geometry_precision = 4;
  g.connectivity = "/particles/index";
  const SceneMarkers markers =
      scene_markers(scene, static_cast<double>(acoustic_steps) * scene.derived.dt);
  g.markers = xdmf_markers(markers);
  try {
    File f = File::create(partial, comm);
    f.attribute("format", "sphreverb snapshot");
    f.attribute("step", step);
    f.attribute("acoustic_steps", acoustic_steps);
    std::vector<float> v3(3 * n), v1(n);
    for (std::size_t i = 0; i < n; ++i)
      v3[3 * i] = static_cast<float>(p.x[i]), v3[3 * i + 1] = static_cast<float>(p.y[i]),
             v3[3 * i + 2] = static_cast<float>(p.z[i]);
    f.write_rows("/particles/position", Type::F32, v3.data(), total, 3, first, n, "m",
                 "position (float32)");
    std::vector<std::int64_t> index(n);
    for (std::size_t i = 0; i < n; ++i) index[i] = static_cast<std::int64_t>(first + i);
    f.write_rows("/particles/index", Type::I64, index.data(), total, 0, first, n, "1",
                 "row number 0..N-1: the XDMF Polyvertex connectivity");
    if (wants(scene, "density")) {
      for (std::size_t i = 0; i < n; ++i) v1[i] = static_cast<float>(p.rho[i]);
      f.write_rows("/particles/density", Type::F32, v1.data(), total, 0, first, n, "kg/m^3",
                   "density (float32)");
      g.arrays.push_back({"density", "/particles/density", 1, false, 4});
    }
    if (wants(scene, "pressure")) {
      const Eos eos = make_eos(scene.fluid);
      for (std::size_t i = 0; i < n; ++i) v1[i] = static_cast<float>(eos.pressure(p.rho[i]));
      f.write_rows("/particles/pressure", Type::F32, v1.data(), total, 0, first, n, "Pa",
                   "pressure deflection p' from the equation of state (float32)");
      g.arrays.push_back({"pressure", "/particles/pressure", 1, false, 4});
    }
    if (wants(scene, "velocity")) {
      for (std::size_t i = 0; i < n; ++i)
        v3[3 * i] = static_cast<float>(p.vx[i]), v3[3 * i + 1] = static_cast<float>(p.vy[i]),
               v3[3 * i + 2] = static_cast<float>(p.vz[i]);
      f.write_rows("/particles/velocity", Type::F32, v3.data(), total, 3, first, n, "m/s",
                   "velocity, half a step before the snapshot's time (float32)");
      g.arrays.push_back({"velocity", "/particles/velocity", 3, false, 4});
    }
    if (wants(scene, "rank")) {
      std::vector<std::int32_t> owner(n, rank);
      f.write_rows("/particles/rank", Type::I32, owner.data(), total, 0, first, n, "1",
                   "owning rank");
      g.arrays.push_back({"rank", "/particles/rank", 1, true, 4});
    }
    detail::write_markers(f, markers, true);
    f.close();
  } catch (const std::exception& e) {
    // Every rank is here (the file's operations agree on failures); drop the partial file.
    if (rank == 0) std::remove(partial.c_str());
    throw CollectiveError("snapshot " + final_path + " not written: " + e.what());
  }
  CheckpointWritten w;
  w.path = final_path;
  on_root(comm, [&] {
    io::commit(partial, final_path);
    w.bytes = fs::file_size(final_path);
    write_xdmf(fs::path(final_path).replace_extension(".xmf").string(), g);
    write_xdmf_collection(sdir, io::RunDir::kSnapshotPrefix, io::RunDir::kSnapshotCollection);
  });
  MPI_Bcast(&w.bytes, 1, MPI_UINT64_T, 0, comm);
  w.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return w;
}

}  // namespace sphreverb
