// io::RunDir: artefact names, atomic commit, staged outputs, rotation, the lock.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sphreverb/io/run_dir.hpp"

namespace fs = std::filesystem;
using sphreverb::io::commit;
using sphreverb::io::RunDir;
using sphreverb::io::RunDirBusy;
using sphreverb::io::RunDirLock;
using sphreverb::io::StagedFiles;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() /
             ("sphreverb_rundir_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void touch(const fs::path& p) { std::ofstream(p) << "x"; }

}  // namespace

TEST(RunDir, NamesArtefacts) {
  const RunDir d("out/");
  EXPECT_EQ(d.path(), "out");
  EXPECT_EQ(d.summary(), "out/summary.json");
  EXPECT_EQ(d.checkpoint(123), "out/checkpoints/step_000000123.h5");
  EXPECT_EQ(d.snapshot(7), "out/snapshots/snap_000000007.h5");
  EXPECT_EQ(d.unstable_checkpoint(21), "out/checkpoints/unstable_step_000000021.h5");
  EXPECT_EQ(RunDir::wav_name("left"), "left.wav");
  EXPECT_EQ(RunDir::raw_wav_name("left"), "left.raw.wav");
  EXPECT_EQ(RunDir::partial_of("out/checkpoints/step_000000123.h5"),
            "out/checkpoints/.step_000000123.h5.partial");
  EXPECT_EQ(RunDir::partial_of("summary.json"), ".summary.json.partial");
}

TEST(RunDir, CommitRenamesAndRefusesMissing) {
  TempDir t("commit");
  const fs::path partial = t.path / ".a.partial", final_path = t.path / "a";
  std::ofstream(partial) << "complete";
  commit(partial.string(), final_path.string());
  EXPECT_FALSE(fs::exists(partial));
  EXPECT_EQ(slurp(final_path), "complete");
  EXPECT_THROW(commit((t.path / ".gone.partial").string(), (t.path / "gone").string()),
               std::runtime_error);
  EXPECT_FALSE(fs::exists(t.path / "gone"));
}

TEST(RunDir, StagedFilesAppearTogetherOrNotAtAll) {
  TempDir t("staged");
  {
    StagedFiles s;
    s.write_text((t.path / "one").string(), "1");
    s.write_text((t.path / "two").string(), "2");
    EXPECT_FALSE(fs::exists(t.path / "one"));  // nothing visible before the commit
    s.commit_all();
  }
  EXPECT_EQ(slurp(t.path / "one"), "1");
  EXPECT_EQ(slurp(t.path / "two"), "2");
  {
    StagedFiles s;
    s.write_text((t.path / "three").string(), "3");
  }  // never committed: removed
  EXPECT_FALSE(fs::exists(t.path / "three"));
  EXPECT_FALSE(fs::exists(RunDir::partial_of((t.path / "three").string())));
  // A final name taken by a directory: no file of the set is committed.
  fs::create_directories(t.path / "blocked" / "x");
  StagedFiles s;
  s.write_text((t.path / "first").string(), "f");
  s.write_text((t.path / "blocked").string(), "b");
  EXPECT_THROW(s.commit_all(), std::runtime_error);
  EXPECT_FALSE(fs::exists(t.path / "first"));
}

TEST(RunDir, RotationKeepsTheNewest) {
  TempDir t("rotate");
  const RunDir d(t.path.string());
  fs::create_directories(d.checkpoints());
  for (int step : {10, 44, 88, 132}) {
    touch(d.checkpoint(step));
    touch(fs::path(d.checkpoint(step)).replace_extension(".xmf"));
  }
  touch(RunDir::partial_of(d.checkpoint(176)));
  touch(d.unstable_checkpoint(200));  // the state of an instability: never a checkpoint to restart
  d.rotate_checkpoints(2);
  const std::vector<std::string> left = d.checkpoint_files();
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0], d.checkpoint(88));
  EXPECT_EQ(left[1], d.checkpoint(132));
  EXPECT_FALSE(fs::exists(fs::path(d.checkpoint(44)).replace_extension(".xmf")));
  EXPECT_TRUE(fs::exists(RunDir::partial_of(d.checkpoint(176))));  // not a checkpoint: untouched
  EXPECT_TRUE(fs::exists(d.unstable_checkpoint(200)));  // not listed (size 2 above), not rotated
}

TEST(RunDir, LockRefusesALiveHolderAndTakesOverADeadOne) {
  TempDir t("lock");
  const RunDir d(t.path.string());
  {
    RunDirLock lock = RunDirLock::acquire(d);
    EXPECT_TRUE(fs::exists(d.lock_file()));
    try {
      RunDirLock::acquire(d);
      FAIL() << "a second lock was granted";
    } catch (const RunDirBusy& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(d.path()), std::string::npos) << what;
      EXPECT_NE(what.find(std::to_string(::getpid())), std::string::npos) << what;
    }
  }
  EXPECT_FALSE(fs::exists(d.lock_file()));  // released
  // A lock left by a process that has exited.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::ofstream(d.lock_file()) << child << " " << host << "\n";
  RunDirLock lock = RunDirLock::acquire(d);
  EXPECT_EQ(slurp(d.lock_file()), std::to_string(::getpid()) + " " + host + "\n");
}
