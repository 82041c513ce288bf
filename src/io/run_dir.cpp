#include "sphreverb/io/run_dir.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace sphreverb::io {

namespace fs = std::filesystem;

namespace {

std::string numbered(const char* prefix, std::int64_t step, const char* ext) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%09lld%s", prefix, static_cast<long long>(step), ext);
  return buf;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::string errno_text() { return std::generic_category().message(errno); }

// fsync of a file or directory; false on failure (errno set).
bool sync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0 || (directory && errno == EINVAL);
  ::close(fd);
  return ok;
}

// Removes the files of `dir` whose names start with one of `prefixes` (missing dir: nothing).
void remove_prefixed(const std::string& dir, const std::vector<std::string>& prefixes) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string f = e.path().filename().string();
    if (std::any_of(prefixes.begin(), prefixes.end(),
                    [&](const std::string& p) { return starts_with(f, p); }))
      fs::remove(e.path(), ec);
  }
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

// Whether process `pid` of this host still runs. A killed process whose parent died too stays a
// zombie (state Z in /proc/PID/stat) where no init reaps orphans, e.g. in containers: dead too.
bool process_alive(long pid) {
  if (pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;  // no /proc: trust kill()
  const auto paren = line.rfind(')');          // the command name may hold spaces and parentheses
  return paren == std::string::npos || paren + 2 >= line.size() || line[paren + 2] != 'Z';
}

}  // namespace

RunDir::RunDir(std::string path) : path_(std::move(path)) {
  while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
  if (path_.empty()) path_ = ".";
}

std::string RunDir::checkpoint_name(std::int64_t step) {
  return numbered(kCheckpointPrefix, step, ".h5");
}
std::string RunDir::snapshot_name(std::int64_t step) {
  return numbered(kSnapshotPrefix, step, ".h5");
}
std::string RunDir::checkpoint(std::int64_t step) const {
  return checkpoints() + "/" + checkpoint_name(step);
}
std::string RunDir::unstable_checkpoint(std::int64_t step) const {
  return checkpoints() + "/" + numbered(kUnstablePrefix, step, ".h5");
}
std::string RunDir::snapshot(std::int64_t step) const {
  return snapshots() + "/" + snapshot_name(step);
}

std::string RunDir::partial_of(const std::string& path) {
  const fs::path p(path);
  const std::string name = "." + p.filename().string() + ".partial";
  return p.has_parent_path() ? (p.parent_path() / name).string() : name;
}

void RunDir::ensure_writable() const {
  std::error_code ec;
  fs::create_directories(path_, ec);
  if (ec)
    throw std::runtime_error(path_ + ": cannot create the output directory (" + ec.message() + ")");
  const std::string probe = file(".sphreverb-write-test");
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    throw std::runtime_error(path_ + ": output directory is not writable (" + errno_text() + ")");
  ::close(fd);
  ::unlink(probe.c_str());
}

std::vector<std::string> RunDir::output_files(const Scene& scene) const {
  std::vector<std::string> out;
  for (const ReceiverSpec& r : scene.receivers)
    for (const std::string& name : {r.name, r.group})
      if (!name.empty())
        for (const std::string& f :
             {wav_name(name), raw_wav_name(name), name + ".full.wav", name + ".full.raw.wav"})
          out.push_back(file(f));
  for (const ReceiverSpec& r : scene.receivers)
    for (const std::string& f :
         {amb_wav_name(r.name), amb_raw_wav_name(r.name), binaural_wav_name(r.name),
          r.name + ".amb.full.wav", r.name + ".amb.full.raw.wav", r.name + ".binaural.full.wav"})
      out.push_back(file(f));
  out.push_back(energy_csv());
  out.push_back(summary());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void RunDir::remove_stale_outputs(const Scene& scene, const std::vector<std::string>& kept) const {
  std::error_code ec;
  for (const std::string& f : output_files(scene))
    if (std::find(kept.begin(), kept.end(), f) == kept.end()) fs::remove(f, ec);
}

void RunDir::clear_outputs(const Scene& scene, bool fresh) const {
  std::error_code ec;
  for (const std::string& f : output_files(scene)) fs::remove(partial_of(f), ec);
  const std::string partial_ckpt = std::string(".") + kCheckpointPrefix;
  const std::string partial_snap = std::string(".") + kSnapshotPrefix;
  const std::string partial_unstable = std::string(".") + kUnstablePrefix;
  if (fresh) {
    remove_prefixed(checkpoints(),
                    {kCheckpointPrefix, partial_ckpt, kCheckpointCollection,
                     std::string(".") + kCheckpointCollection, kUnstablePrefix, partial_unstable});
    remove_prefixed(snapshots(), {kSnapshotPrefix, partial_snap, kSnapshotCollection,
                                  std::string(".") + kSnapshotCollection});
  } else {
    remove_prefixed(checkpoints(), {partial_ckpt, partial_unstable});
    remove_prefixed(snapshots(), {partial_snap});
  }
}

std::vector<std::string> RunDir::checkpoint_files() const {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::is_directory(checkpoints(), ec)) return names;
  for (const auto& e : fs::directory_iterator(checkpoints(), ec)) {
    const std::string f = e.path().filename().string();
    if (starts_with(f, kCheckpointPrefix) && e.path().extension() == ".h5")
      names.push_back(e.path().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

void RunDir::rotate_checkpoints(int keep) const {
  const std::vector<std::string> names = checkpoint_files();
  for (std::size_t i = 0; i + static_cast<std::size_t>(std::max(keep, 1)) < names.size(); ++i) {
    std::error_code ec;
    fs::remove(names[i], ec);
    fs::remove(fs::path(names[i]).replace_extension(".xmf"), ec);
  }
}

void commit(const std::string& partial, const std::string& final_path) {
  auto fail = [&](const std::string& what) {
    const std::string why = errno_text();
    std::error_code ec;
    fs::remove(partial, ec);
    throw std::runtime_error(final_path + ": " + what + " (" + why + ")");
  };
  if (!sync_path(partial, false)) fail("cannot flush " + partial + " to disk");
  if (std::rename(partial.c_str(), final_path.c_str()) != 0)
    fail("cannot rename " + partial + " into place");
  const fs::path parent = fs::path(final_path).parent_path();
  sync_path(parent.empty() ? "." : parent.string(), true);
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = RunDir::partial_of(path);
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error(path + ": cannot write");
    }
  }
  commit(tmp, path);
}

StagedFiles::~StagedFiles() {
  std::error_code ec;
  for (const auto& [tmp, final_path] : files_) fs::remove(tmp, ec);
}

std::string StagedFiles::stage(const std::string& final_path) {
  files_.emplace_back(RunDir::partial_of(final_path), final_path);
  return files_.back().first;
}

void StagedFiles::write_text(const std::string& final_path, const std::string& text) {
  const std::string tmp = stage(final_path);
  std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
  f << text;
  f.flush();
  if (!f) throw std::runtime_error(final_path + ": cannot write " + tmp);
}

std::vector<std::string> StagedFiles::final_paths() const {
  std::vector<std::string> out;
  for (const auto& [tmp, final_path] : files_) out.push_back(final_path);
  return out;
}

void StagedFiles::commit_all() {
  // A final name taken by a directory would fail its rename midway: refuse before any commit.
  for (const auto& [tmp, final_path] : files_) {
    std::error_code ec;
    if (fs::is_directory(final_path, ec))
      throw std::runtime_error(final_path + ": is a directory; no output of this run committed");
  }
  for (const auto& [tmp, final_path] : files_) commit(tmp, final_path);
  files_.clear();
}

RunDirLock RunDirLock::acquire(const RunDir& dir) {
  const std::string path = dir.lock_file();
  const std::string me = std::to_string(::getpid()) + " " + host_name() + "\n";
  constexpr int kAttempts = 4;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
      const bool ok = ::write(fd, me.data(), me.size()) == static_cast<ssize_t>(me.size());
      ::close(fd);
      if (!ok) {
        ::unlink(path.c_str());
        throw std::runtime_error(path + ": cannot write the lock file (" + errno_text() + ")");
      }
      RunDirLock lock;
      lock.path_ = path;
      return lock;
    }
    if (errno != EEXIST)
      throw std::runtime_error(path + ": cannot create the lock file (" + errno_text() + ")");
    std::ifstream in(path);
    long pid = 0;
    std::string host;
    in >> pid >> host;
    if (!in) {  // being written right now (look again), or damaged (then stale)
      if (attempt + 1 < kAttempts) {
        ::usleep(200000);
        continue;
      }
      pid = 0, host = host_name();
    }
    const bool alive = host != host_name() || process_alive(pid);
    if (alive)
      throw RunDirBusy(dir.path() + ": in use by sphreverb process " + std::to_string(pid) +
                       " on " + host + " (lock " + path +
                       "; wait for it, use another --out, or remove the lock if that process is "
                       "gone)");
    ::unlink(path.c_str());  // stale: its process died
  }
  throw RunDirBusy(dir.path() + ": cannot take the lock " + path + " (damaged? remove it)");
}

RunDirLock& RunDirLock::operator=(RunDirLock&& o) noexcept {
  if (this != &o) {
    release();
    path_ = std::move(o.path_);
    o.path_.clear();
  }
  return *this;
}

void RunDirLock::release() {
  if (!path_.empty()) ::unlink(path_.c_str());
  path_.clear();
}

}  // namespace sphreverb::io
