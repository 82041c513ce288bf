// Tests of the WAV reader and writer (wav.hpp): round trips (float exact, 16-bit within one
// step), mixing to mono, clipping, atomic writes, and errors that name the file, the scene key and,
// for NaN or infinite samples, the first bad frame.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "sphreverb/audio/wav.hpp"
#include "tones.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed with its contents afterwards.
class Wav : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("sphreverb_wav_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

// Values exactly representable as 32-bit floats, including ones outside [-1, 1].
std::vector<double> float_values(std::size_t n, double seed) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<double>(
        static_cast<float>(1.5 * std::sin(seed + 0.37 * static_cast<double>(i))));
  }
  return x;
}

// The message of the SignalError that read_wav(file, key) throws ("" and a failure if none).
std::string read_error(const std::string& file, const std::string& key = {}) {
  try {
    (void)read_wav(file, key);
    ADD_FAILURE() << "read_wav(" << file << ") did not throw";
  } catch (const SignalError& e) {
    return e.what();
  }
  return "";
}

void expect_throws_naming(const std::string& file) {
  const std::string what = read_error(file);
  EXPECT_EQ(what.rfind(file + ": ", 0), 0u) << what;
}

TEST_F(Wav, FloatRoundTripIsExactMonoAndStereo) {
  for (std::size_t nch : {1u, 2u}) {
    std::vector<std::vector<double>> channels;
    for (std::size_t c = 0; c < nch; ++c) channels.push_back(float_values(1000, 0.3 * double(c)));
    const std::string file = path("float" + std::to_string(nch) + ".wav");
    write_wav(file, 48000.0, channels, /*pcm16=*/false);
    const Signal s = read_wav(file);
    EXPECT_EQ(s.rate, 48000.0);
    ASSERT_EQ(s.samples.size(), 1000u);
    for (std::size_t i = 0; i < s.samples.size(); ++i) {
      double mean = 0.0;
      for (const auto& ch : channels) mean += ch[i];
      mean /= static_cast<double>(nch);
      if (nch == 1) {
        ASSERT_EQ(s.samples[i], channels[0][i]) << "sample " << i;
      } else {
        ASSERT_DOUBLE_EQ(s.samples[i], mean) << "sample " << i;
      }
    }
  }
}

TEST_F(Wav, FloatStereoChannelsAreStoredExactly) {
  // Each channel on its own: write left = x, right = 0 and left = 0, right = x; the mono mix is
  // x / 2 exactly in both cases (a power-of-two scale), so every channel value survives bit-exact.
  const std::vector<double> x = float_values(500, 1.0);
  const std::vector<double> zero(x.size(), 0.0);
  for (int which = 0; which < 2; ++which) {
    const std::string file = path("stereo" + std::to_string(which) + ".wav");
    write_wav(file, 44100.0, which == 0 ? std::vector{x, zero} : std::vector{zero, x}, false);
    const Signal s = read_wav(file);
    ASSERT_EQ(s.samples.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(s.samples[i], 0.5 * x[i]) << i;
  }
}

TEST_F(Wav, Pcm16RoundTripWithinOneLsbMonoAndStereo) {
  const double lsb = 1.0 / 32768.0;
  for (std::size_t nch : {1u, 2u}) {
    std::vector<std::vector<double>> channels;
    for (std::size_t c = 0; c < nch; ++c) {
      std::vector<double> x = test::tone(8000.0, 440.0 + 100.0 * double(c), 800, 0.999);
      x.push_back(1.0);  // the extremes
      x.push_back(-1.0);
      channels.push_back(x);
    }
    const std::string file = path("pcm" + std::to_string(nch) + ".wav");
    write_wav(file, 8000.0, channels, /*pcm16=*/true);
    const Signal s = read_wav(file);
    EXPECT_EQ(s.rate, 8000.0);
    ASSERT_EQ(s.samples.size(), channels[0].size());
    double worst = 0.0;
    for (std::size_t i = 0; i < s.samples.size(); ++i) {
      double mean = 0.0;
      for (const auto& ch : channels) mean += ch[i];
      mean /= static_cast<double>(nch);
      worst = std::max(worst, std::abs(s.samples[i] - mean));
    }
    EXPECT_LE(worst, lsb) << nch << " channels";
  }
}

TEST_F(Wav, Pcm16ClipsToFullScale) {
  const std::string file = path("clip.wav");
  write_wav(file, 8000.0, {{2.0, -3.0, 0.5, 1e9, -1e9, std::nan("")}}, true);
  const Signal s = read_wav(file);
  ASSERT_EQ(s.samples.size(), 6u);
  EXPECT_NEAR(s.samples[0], 1.0, 1.0 / 32768.0);
  EXPECT_EQ(s.samples[1], -1.0);
  EXPECT_EQ(s.samples[2], 0.5);
  EXPECT_NEAR(s.samples[3], 1.0, 1.0 / 32768.0);
  EXPECT_EQ(s.samples[4], -1.0);
  EXPECT_EQ(s.samples[5], 0.0);
}

TEST_F(Wav, MultiChannelReadIsMixedToMono) {
  const std::string file = path("three.wav");
  write_wav(file, 16000.0, {{0.5, 0.25, -1.0}, {0.25, 0.25, 0.5}, {0.0, -0.5, 0.5}}, false);
  const Signal s = read_wav(file);
  ASSERT_EQ(s.samples.size(), 3u);
  EXPECT_DOUBLE_EQ(s.samples[0], 0.25);
  EXPECT_DOUBLE_EQ(s.samples[1], 0.0);
  EXPECT_DOUBLE_EQ(s.samples[2], 0.0);
}

TEST_F(Wav, MissingEmptyAndTextFilesThrowNamingThePath) {
  expect_throws_naming(path("does_not_exist.wav"));

  const std::string empty = path("empty.wav");
  { std::ofstream(empty, std::ios::binary); }
  ASSERT_TRUE(fs::exists(empty));
  expect_throws_naming(empty);

  const std::string text = path("notes.wav");
  {
    std::ofstream out(text);
    out << "This is not a WAV file, just some text.\nSecond line of text.\n";
  }
  expect_throws_naming(text);

  expect_throws_naming(dir_.string());  // a directory
}

TEST_F(Wav, ZeroFrameFileThrowsOnRead) {
  const std::string file = path("no_frames.wav");
  write_wav(file, 44100.0, {{}}, false);
  ASSERT_TRUE(fs::exists(file));
  expect_throws_naming(file);
}

TEST_F(Wav, NoPartialRemainsAfterWriteAndOverwriteWorks) {
  const std::string file = path("out.wav");
  write_wav(file, 44100.0, {{0.1, 0.2}}, true);
  write_wav(file, 44100.0, {{0.25, 0.5, 0.75}}, false);  // replaces the first
  EXPECT_TRUE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file + ".partial"));
  EXPECT_EQ(read_wav(file).samples, (std::vector<double>{0.25, 0.5, 0.75}));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST_F(Wav, WriteErrorsNameThePathAndLeaveNothing) {
  const std::string bad_dir = path("no_such_dir/out.wav");
  try {
    write_wav(bad_dir, 44100.0, {{0.0}}, false);
    ADD_FAILURE() << "no throw";
  } catch (const SignalError& e) {
    EXPECT_NE(std::string(e.what()).find(bad_dir), std::string::npos) << e.what();
  }
  const std::string file = path("bad.wav");
  EXPECT_THROW(write_wav(file, 44100.0, {{0.0, 1.0}, {0.0}}, false), SignalError);
  EXPECT_THROW(write_wav(file, 44100.5, {{0.0}}, false), SignalError);
  EXPECT_THROW(write_wav(file, 0.0, {{0.0}}, false), SignalError);
  EXPECT_THROW(write_wav(file, 44100.0, {}, false), SignalError);
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file + ".partial"));
}

// ---- bad input: the scene key, non-finite samples -------------------------------------------

TEST_F(Wav, DecodeErrorsStartWithTheSceneKeyAndPath) {
  const std::string text = path("notes.wav");
  std::ofstream(text) << "This is not a WAV file.\n";
  for (const std::string& file : {text, path("missing.wav"), dir_.string()}) {
    const std::string what = read_error(file, "[emitter] input");
    EXPECT_EQ(what.rfind("[emitter] input = " + file + ": ", 0), 0u) << what;
  }
  const std::string no_frames = path("no_frames.wav");
  write_wav(no_frames, 44100.0, {{}}, false);
  EXPECT_EQ(read_error(no_frames, "[emitter] input"),
            "[emitter] input = " + no_frames + ": contains no audio frames");
}

TEST_F(Wav, NanSampleIsNamedByFrame) {
  // Frame 70001 lies in the second block the reader takes (65536 frames a block).
  std::vector<double> x = float_values(80000, 0.5);
  x[70001] = std::numeric_limits<double>::quiet_NaN();
  x[75000] = std::numeric_limits<double>::infinity();  // a later one is not the first
  const std::string file = path("nan.wav");
  write_wav(file, 48000.0, {x}, false);
  EXPECT_EQ(read_error(file, "[emitter] input"),
            "[emitter] input = " + file +
                ": sample 70001 is NaN (0-based frame index); an input signal must be finite");
}

TEST_F(Wav, InfiniteSampleIsNamedByFrameAndChannel) {
  std::vector<double> left = float_values(100, 0.1), right = float_values(100, 0.2);
  right[17] = -std::numeric_limits<double>::infinity();
  const std::string file = path("inf.wav");
  write_wav(file, 48000.0, {left, right}, false);
  const std::string what = read_error(file, "[emitter] input");
  EXPECT_EQ(what, "[emitter] input = " + file +
                      ": sample 17 (channel 2 of 2) is infinite (0-based frame index); an input "
                      "signal must be finite");
  // Without a key the message starts with the path.
  EXPECT_EQ(read_error(file).rfind(file + ": sample 17 ", 0), 0u);
}

}  // namespace
}  // namespace sphreverb
