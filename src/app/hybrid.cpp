// `sphreverb hybrid DIR [--hybrid.KEY V ...]`: the geometric part of a finished run again, with
// other [hybrid] keys: reads the run directory (summary.json's scene, its overrides and the SPH
// records NAME.raw.wav, NAME.amb.raw.wav), then runs the geometric part and commits the full-band
// files and summary.json's hybrid block (app/detail/full_band.hpp). The SPH outputs are read,
// never written.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/detail/full_band.hpp"
#include "app/detail/input.hpp"
#include "app/detail/run_loop.hpp"
#include "parallel/detail/mpi.hpp"
#include "sphreverb/app/app.hpp"
#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/audio/wav.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/core/version.hpp"
#include "sphreverb/parallel/collective.hpp"
#include "sphreverb/solver/hybrid_cost.hpp"

namespace sphreverb {

namespace {

using Json = nlohmann::json;

// Only the [hybrid] keys (and the progress cadence) may change: the SPH records are given.
void refuse_other_overrides(const Command& cmd) {
  for (const auto& [key, value] : cmd.overrides)
    if (key.rfind("hybrid.", 0) != 0 && key != "output.progress_every")
      throw SceneError(cmd.scene +
                       ": hybrid accepts --hybrid.KEY overrides (and --output.progress_every) "
                       "only, not --" +
                       key + " (the SPH records of the run are given)");
}

// Rank 0: DIR/summary.json's text; SceneError if DIR is not a finished run's directory.
std::string read_summary(const io::RunDir& dir) {
  const std::string not_run = dir.path() + ": not a finished run's directory (";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir.path(), ec))
    throw SceneError(not_run + "no such directory)");
  std::ifstream in(dir.summary(), std::ios::binary);
  if (!in)
    throw SceneError(not_run + "no " + std::string(io::RunDir::kSummaryName) +
                     ": the run did not finish its SPH part; finish it with sphreverb restart "
                     "DIR/checkpoints/step_*.h5)");
  std::ostringstream text;
  text << in.rdbuf();
  const Json j = Json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("scene") || !j["scene"].is_string() ||
      !j.contains("scene_path") || !j.contains("receivers") || !j["receivers"].is_array())
    throw SceneError(not_run + dir.summary() + " is not a sphreverb summary)");
  return text.str();
}

void bcast_text(std::string& s, MPI_Comm comm) {
  std::uint64_t n = s.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
  s.resize(n);
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
}

// Rank 0: the SPH records of every receiver of `scene` from DIR (what the run wrote to
// NAME.raw.wav and NAME.amb.raw.wav); SceneError naming the first missing or mismatched file.
app::SphOutputs read_sph_outputs(const Scene& scene, const io::RunDir& dir,
                                 const std::string& summary) {
  app::SphOutputs out;
  out.summary = summary;
  const auto n = static_cast<std::size_t>(scene.derived.samples);
  const auto records = [&](const std::string& name, std::size_t channels) {
    const std::string path = dir.file(name);
    double rate = 0.0;
    std::vector<std::vector<double>> x;
    try {
      x = read_wav_channels(path, rate);
    } catch (const std::exception& e) {
      throw SceneError(dir.path() + ": not a finished run's directory (" + e.what() + ")");
    }
    if (x.size() != channels || rate != scene.time.sample_rate || x[0].size() != n)
      throw SceneError(dir.path() + ": not a finished run's directory (" + path + ": " +
                       std::to_string(x.size()) + " channel(s) of " + std::to_string(x[0].size()) +
                       " samples at " + std::to_string(rate) + " Hz, not the scene's " +
                       std::to_string(channels) + " of " + std::to_string(n) + " at " +
                       std::to_string(scene.time.sample_rate) + " Hz)");
    return x;
  };
  for (const ReceiverSpec& r : scene.receivers) {
    ReceiverOutput o;
    o.name = r.name;
    o.wav = io::RunDir::wav_name(r.name), o.raw_wav = io::RunDir::raw_wav_name(r.name);
    o.audio = std::move(records(o.raw_wav, 1)[0]);
    o.samples = o.audio.size();
    out.receivers.push_back(std::move(o));
    if (r.type != ReceiverType::Ambisonic) continue;
    AmbisonicOutput a;
    a.name = r.name;
    a.wav = io::RunDir::amb_wav_name(r.name), a.raw_wav = io::RunDir::amb_raw_wav_name(r.name);
    if (r.binaural) a.binaural_wav = io::RunDir::binaural_wav_name(r.name);
    a.channels = records(a.raw_wav, 4);
    out.ambisonic.push_back(std::move(a));
  }
  return out;
}

}  // namespace

int hybrid_command(const Command& cmd, MPI_Comm comm) {
  const int rank = detail::rank_of(comm);
  const auto start = std::chrono::steady_clock::now();
  setup_logging(rank);
  install_stop_handlers();
  int code = kExitBadInput;
  const io::RunDir dir(cmd.scene);
  try {
    // Every input first: a refused directory is left as it is.
    refuse_other_overrides(cmd);
    std::string summary;
    on_root<SceneError>(comm, [&] { summary = read_summary(dir); });
    bcast_text(summary, comm);
    const Json j = Json::parse(summary);
    std::map<std::string, std::string> overrides;
    if (j.contains("scene_overrides") && j["scene_overrides"].is_object())
      for (const auto& [k, v] : j["scene_overrides"].items())
        if (v.is_string()) overrides[k] = v.get<std::string>();
    for (const auto& [key, value] : cmd.overrides) overrides[key] = value;
    const Scene scene =
        parse_scene(j["scene"].get<std::string>(), j["scene_path"].get<std::string>(), overrides);
    if (!scene.hybrid.present)
      throw SceneError(dir.path() +
                       ": the run's scene has no [hybrid] section: give --hybrid.KEY "
                       "values (e.g. --hybrid.rays 100000) for its geometric part");
    app::SphOutputs sph;
    on_root<SceneError>(comm, [&] { sph = read_sph_outputs(scene, dir, summary); });
    on_root<SignalError>(comm, [&] { app::check_hrtf(scene); });
    refuse_if_hybrid_out_of_memory(scene, comm);
    io::RunDirLock lock;
    on_root<app::OutputDirBusy>(comm, [&] { lock = io::RunDirLock::acquire(dir); });
    code = kExitRunFailed;
    auto log = logger("run");
    log->info("sphreverb {} on {} rank(s): the full band of {} (scene {})", SPHREVERB_VERSION,
              detail::size_of(comm), dir.path(), scene.path);
    std::string again = "sphreverb hybrid " + dir.path();
    for (const auto& [key, value] : cmd.overrides) again += " --" + key + " '" + value + "'";
    app::run_full_band(scene, dir, sph, again, comm);
    log->info("done in {:.1f} s",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return kExitOk;
  } catch (...) {
    return app::exit_code_of(std::current_exception(), code, dir.summary(), comm);
  }
}

}  // namespace sphreverb
