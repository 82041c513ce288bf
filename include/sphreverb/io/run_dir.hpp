// The output directory of a run, DIR: the one place that knows its artefacts' names, how a file
// becomes visible (atomic commit), what a new run or a restart clears, how checkpoints rotate,
// and who may write there (a lock file).
//
//   DIR/NAME.wav, NAME.raw.wav      per receiver and per receiver group (output.hpp)
//   DIR/summary.json, energy.csv    the run's summary (summary.hpp) and energy series
//   DIR/sphreverb.log               the log
//   DIR/checkpoints/step_NNNNNNNNN.h5 and .xmf, checkpoints.xmf (checkpoint.hpp, xdmf.hpp)
//   DIR/checkpoints/unstable_step_NNNNNNNNN.h5 and .xmf: the state at the step where the run
//                                   became unstable (for inspection; never rotated nor "latest")
//   DIR/snapshots/snap_NNNNNNNNN.h5 and .xmf, snapshots.xmf (snapshot.hpp)
//   DIR/.sphreverb.lock             "PID HOST" of the process writing into DIR
//
// A file is written as .NAME.partial beside its final name, flushed to disk (fsync) and renamed
// (commit), so a reader sees either nothing or the complete file. Rank-0 work unless noted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"

namespace sphreverb::io {

// DIR cannot be used: held by another live process (the message names DIR, the process and the
// lock file). Bad input (exit 2).
class RunDirBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RunDir {
 public:
  static constexpr const char* kCheckpointPrefix = "step_";
  static constexpr const char* kSnapshotPrefix = "snap_";
  static constexpr const char* kUnstablePrefix = "unstable_step_";
  static constexpr const char* kCheckpointCollection = "checkpoints.xmf";
  static constexpr const char* kSnapshotCollection = "snapshots.xmf";
  static constexpr const char* kLockName = ".sphreverb.lock";
  static constexpr const char* kSummaryName = "summary.json";
  static constexpr const char* kEnergyName = "energy.csv";
  static constexpr const char* kLogName = "sphreverb.log";

  explicit RunDir(std::string path);
  const std::string& path() const { return path_; }

  // Full paths of the artefacts.
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string summary() const { return file(kSummaryName); }
  std::string energy_csv() const { return file(kEnergyName); }
  std::string log() const { return file(kLogName); }
  std::string lock_file() const { return file(kLockName); }
  std::string checkpoints() const { return file("checkpoints"); }
  std::string snapshots() const { return file("snapshots"); }
  std::string checkpoint(std::int64_t step) const;           // DIR/checkpoints/step_NNNNNNNNN.h5
  std::string snapshot(std::int64_t step) const;             // DIR/snapshots/snap_NNNNNNNNN.h5
  std::string unstable_checkpoint(std::int64_t step) const;  // DIR/checkpoints/unstable_step_N.h5
  // Receiver (or group) NAME's files, as names relative to DIR.
  static std::string wav_name(const std::string& name) { return name + ".wav"; }
  static std::string raw_wav_name(const std::string& name) { return name + ".raw.wav"; }
  // An ambisonic receiver's B-format files and its binaural rendering.
  static std::string amb_wav_name(const std::string& name) { return name + ".amb.wav"; }
  static std::string amb_raw_wav_name(const std::string& name) { return name + ".amb.raw.wav"; }
  static std::string binaural_wav_name(const std::string& name) { return name + ".binaural.wav"; }
  // "step_000000123.h5"
  static std::string checkpoint_name(std::int64_t step);
  static std::string snapshot_name(std::int64_t step);
  // DIR/.../.NAME.partial for DIR/.../NAME: where `path` is written before its commit.
  static std::string partial_of(const std::string& path);

  // Creates DIR (and parents) and checks that a file can be created in it. Throws
  // std::runtime_error naming DIR otherwise.
  void ensure_writable() const;
  // Every output file of `scene` that a run or `sphreverb hybrid` writes into DIR (full paths,
  // sorted): the SPH and full-band WAVs, summary.json, energy.csv.
  std::vector<std::string> output_files(const Scene& scene) const;
  // At the start of a run: the partial files of a killed write of the outputs; `fresh` (a new
  // run, not a restart) adds the checkpoints (with the unstable-step ones) and snapshots of an
  // earlier run. An earlier run's committed outputs stay until this run's replace them
  // (remove_stale_outputs), so a run that fails or stops keeps them.
  void clear_outputs(const Scene& scene, bool fresh) const;
  // Removes the output_files(scene) not in `kept` (full paths): after a run's outputs are
  // committed, an earlier run's that belong to other records (its full band, say).
  void remove_stale_outputs(const Scene& scene, const std::vector<std::string>& kept) const;
  // Removes all but the newest `keep` complete checkpoints (with their sidecars).
  void rotate_checkpoints(int keep) const;
  // Complete checkpoints, oldest first (full paths).
  std::vector<std::string> checkpoint_files() const;

 private:
  std::string path_;
};

// Flushes `partial` to disk, renames it to `final_path` and flushes the directory entry. Throws
// std::runtime_error naming both; `partial` is removed on failure.
void commit(const std::string& partial, const std::string& final_path);
// Writes `text` to `path` through partial_of(path) and commit().
void write_file_atomically(const std::string& path, const std::string& text);

// Files written under temporary names and made visible together: stage() gives the name to
// write for a final path; commit_all() commits them in order (after every one was written);
// files never committed are removed on destruction. Rank 0's.
class StagedFiles {
 public:
  StagedFiles() = default;
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;
  ~StagedFiles();
  std::string stage(const std::string& final_path);
  void write_text(const std::string& final_path, const std::string& text);
  // The final paths staged so far, in order.
  std::vector<std::string> final_paths() const;
  void commit_all();

 private:
  std::vector<std::pair<std::string, std::string>> files_;  // (temporary, final)
};

// The lock of a run directory, held by this process from acquire() to destruction. A lock whose
// process has died (same host, PID gone) is taken over; one held by a live process, or by one
// on another host, raises RunDirBusy.
class RunDirLock {
 public:
  RunDirLock() = default;
  static RunDirLock acquire(const RunDir& dir);
  RunDirLock(RunDirLock&& o) noexcept : path_(std::move(o.path_)) { o.path_.clear(); }
  RunDirLock& operator=(RunDirLock&& o) noexcept;
  RunDirLock(const RunDirLock&) = delete;
  RunDirLock& operator=(const RunDirLock&) = delete;
  ~RunDirLock() { release(); }
  void release();

 private:
  std::string path_;
};

}  // namespace sphreverb::io
