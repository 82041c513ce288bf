// Tests of the audio-signal module: WAV I/O round trips and errors, resampling against the analytic
// sine, the zero-phase low-pass + decimation, the built-in signals, interpolation and
// normalisation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "sphreverb/audio/signal.hpp"

namespace sphreverb {
namespace {

namespace fs = std::filesystem;
constexpr double kPi = std::numbers::pi;

// A fresh directory under the system temp dir, removed with its contents afterwards.
class SignalWav : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("sphreverb_signal_" + std::to_string(::getpid()) + "_" + info->name());
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

std::vector<double> sine(double rate, double freq, std::size_t n, double amplitude = 1.0,
                         double phase = 0.0) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = amplitude * std::sin(2.0 * kPi * freq * static_cast<double>(i) / rate + phase);
  }
  return x;
}

// Values exactly representable as 32-bit floats, including ones outside [-1, 1].
std::vector<double> float_values(std::size_t n, double seed) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<double>(
        static_cast<float>(1.5 * std::sin(seed + 0.37 * static_cast<double>(i))));
  }
  return x;
}

// Peak |a - b| over the samples whose times lie in [t0, t1].
double max_error_between(const Signal& s, double freq, double t0, double t1) {
  double err = 0.0;
  for (std::size_t j = 0; j < s.samples.size(); ++j) {
    const double t = static_cast<double>(j) / s.rate;
    if (t < t0 || t > t1) continue;
    err = std::max(err, std::abs(s.samples[j] - std::sin(2.0 * kPi * freq * t)));
  }
  return err;
}

double rms(const std::vector<double>& x, std::size_t from, std::size_t to) {
  double sum = 0.0;
  for (std::size_t i = from; i < to; ++i) sum += x[i] * x[i];
  return std::sqrt(sum / static_cast<double>(to - from));
}

void expect_throws_naming(const std::string& file) {
  try {
    (void)read_wav(file);
    ADD_FAILURE() << "read_wav(" << file << ") did not throw";
  } catch (const SignalError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
  }
}

// ---- WAV I/O -----------------------------------------------------------------------------------

TEST_F(SignalWav, FloatRoundTripIsExactMonoAndStereo) {
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

TEST_F(SignalWav, FloatStereoChannelsAreStoredExactly) {
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

TEST_F(SignalWav, Pcm16RoundTripWithinOneLsbMonoAndStereo) {
  const double lsb = 1.0 / 32768.0;
  for (std::size_t nch : {1u, 2u}) {
    std::vector<std::vector<double>> channels;
    for (std::size_t c = 0; c < nch; ++c) {
      std::vector<double> x = sine(8000.0, 440.0 + 100.0 * double(c), 800, 0.999);
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

TEST_F(SignalWav, Pcm16ClipsToFullScale) {
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

TEST_F(SignalWav, MultiChannelReadIsMixedToMono) {
  const std::string file = path("three.wav");
  write_wav(file, 16000.0, {{0.5, 0.25, -1.0}, {0.25, 0.25, 0.5}, {0.0, -0.5, 0.5}}, false);
  const Signal s = read_wav(file);
  ASSERT_EQ(s.samples.size(), 3u);
  EXPECT_DOUBLE_EQ(s.samples[0], 0.25);
  EXPECT_DOUBLE_EQ(s.samples[1], 0.0);
  EXPECT_DOUBLE_EQ(s.samples[2], 0.0);
}

TEST_F(SignalWav, MissingEmptyAndTextFilesThrowNamingThePath) {
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

TEST_F(SignalWav, ZeroFrameFileThrowsOnRead) {
  const std::string file = path("no_frames.wav");
  write_wav(file, 44100.0, {{}}, false);
  ASSERT_TRUE(fs::exists(file));
  expect_throws_naming(file);
}

TEST_F(SignalWav, NoPartialRemainsAfterWriteAndOverwriteWorks) {
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

TEST_F(SignalWav, WriteErrorsNameThePathAndLeaveNothing) {
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

// ---- resampling ------------------------------------------------------------------------------

struct RateCase {
  double from;
  double to;
};

class SignalResample : public ::testing::TestWithParam<RateCase> {};

TEST_P(SignalResample, SineMatchesAnalyticAwayFromTheEnds) {
  const auto [from, to] = GetParam();
  const double duration = 0.2;
  const auto n = static_cast<std::size_t>(std::round(duration * from));
  const Signal in{from, sine(from, 1000.0, n)};
  const Signal out = resample(in, to);
  EXPECT_EQ(out.rate, to);
  EXPECT_EQ(out.samples.size(), static_cast<std::size_t>(std::round(double(n) * to / from)));
  // The kernel reaches 32 / (2 * 0.45 * min rate) s (< 5 ms) either side; skip 10 ms at each end.
  const double err = max_error_between(out, 1000.0, 0.01, duration - 0.01);
  EXPECT_LT(err, 1e-3) << from << " -> " << to;
  EXPECT_LT(err, 1e-4) << from << " -> " << to << " (quality margin)";
}

INSTANTIATE_TEST_SUITE_P(SignalRates, SignalResample,
                         ::testing::Values(RateCase{48000.0, 44100.0}, RateCase{22050.0, 44100.0},
                                           RateCase{44100.0, 8000.0}, RateCase{8000.0, 44100.0},
                                           RateCase{44100.0, 44100.0 * 1.0001}));

TEST(SignalResampleBasics, EqualRatesCopy) {
  const Signal in{44100.0, {0.1, -0.2, 0.3, 0.7}};
  const Signal out = resample(in, 44100.0);
  EXPECT_EQ(out.rate, in.rate);
  EXPECT_EQ(out.samples, in.samples);
}

TEST(SignalResampleBasics, DownsamplingRemovesContentAboveTheNewBand) {
  // 15 kHz at 48 kHz, to 16 kHz (cut-off 7.2 kHz): must not alias into the output.
  const Signal in{48000.0, sine(48000.0, 15000.0, 9600)};
  const Signal out = resample(in, 16000.0);
  EXPECT_LT(rms(out.samples, 400, out.samples.size() - 400), 1e-4);
}

TEST(SignalResampleBasics, EmptyInputAndBadRates) {
  const Signal out = resample(Signal{48000.0, {}}, 44100.0);
  EXPECT_TRUE(out.samples.empty());
  EXPECT_EQ(out.rate, 44100.0);
  EXPECT_THROW(resample(Signal{48000.0, {1.0}}, 0.0), SignalError);
  EXPECT_THROW(resample(Signal{0.0, {1.0}}, 44100.0), SignalError);
  EXPECT_THROW(resample(Signal{48000.0, {1.0}}, std::nan("")), SignalError);
}

// ---- low-pass + decimation ---------------------------------------------------------------------

TEST(SignalLowpassDecimate, LowSinePassesUnchangedAndUndelayed) {
  const double rate = 441000.0;
  const int factor = 10;
  const std::size_t n = 44100;  // 0.1 s
  const double phase = 0.3;
  const Signal in{rate, sine(rate, 1000.0, n, 1.0, phase)};
  const Signal out = lowpass_decimate(in, factor, 20000.0);
  EXPECT_DOUBLE_EQ(out.rate, 44100.0);
  ASSERT_EQ(out.samples.size(), n / factor);
  double err = 0.0;
  for (std::size_t k = 100; k + 100 < out.samples.size(); ++k) {
    const double t = static_cast<double>(k) / out.rate;
    err = std::max(err, std::abs(out.samples[k] - std::sin(2.0 * kPi * 1000.0 * t + phase)));
  }
  EXPECT_LT(err, 1e-3);
  EXPECT_LT(err, 1e-4) << "quality margin";
}

TEST(SignalLowpassDecimate, SineAboveCutoffAttenuatedMoreThan40dB) {
  const double rate = 441000.0;
  const Signal in{rate, sine(rate, 30000.0, 44100)};
  for (int factor : {1, 10}) {
    const Signal out = lowpass_decimate(in, factor, 20000.0);
    const std::size_t edge = out.samples.size() / 10;
    const double gain = rms(out.samples, edge, out.samples.size() - edge) / std::sqrt(0.5);
    EXPECT_LT(20.0 * std::log10(gain), -40.0) << "factor " << factor;
    EXPECT_LT(20.0 * std::log10(gain), -80.0) << "factor " << factor << " (quality margin)";
  }
}

TEST(SignalLowpassDecimate, FactorOneKeepsLengthAndLowSignals) {
  const Signal in{48000.0, sine(48000.0, 500.0, 4800)};
  const Signal out = lowpass_decimate(in, 1, 10000.0);
  EXPECT_EQ(out.rate, 48000.0);
  ASSERT_EQ(out.samples.size(), in.samples.size());
  for (std::size_t i = 200; i + 200 < in.samples.size(); ++i) {
    ASSERT_NEAR(out.samples[i], in.samples[i], 1e-4) << i;
  }
}

TEST(SignalLowpassDecimate, OutputLengthAndEdges) {
  // Samples 0, f, 2f, ... are kept: ceil(n / factor) of them. A constant stays constant (unit DC
  // gain) away from the ends; at sample 0 the filter sees zeros before the signal, so it returns
  // 2 * (1/2 + h[0]/2) with h[0] = 2 cutoff / rate = 0.2.
  const Signal in{1000.0, std::vector<double>(2003, 2.0)};
  const Signal out = lowpass_decimate(in, 5, 100.0);
  EXPECT_EQ(out.samples.size(), 401u);
  EXPECT_DOUBLE_EQ(out.rate, 200.0);
  EXPECT_NEAR(out.samples.front(), 1.2, 1e-3);
  EXPECT_NEAR(out.samples[200], 2.0, 1e-12);
}

TEST(SignalLowpassDecimate, RejectsBadArguments) {
  const Signal in{1000.0, std::vector<double>(10, 1.0)};
  EXPECT_THROW(lowpass_decimate(in, 0, 100.0), SignalError);
  EXPECT_THROW(lowpass_decimate(in, -3, 100.0), SignalError);
  EXPECT_THROW(lowpass_decimate(in, 2, 0.0), SignalError);
  EXPECT_THROW(lowpass_decimate(in, 2, 500.0), SignalError);
  EXPECT_THROW(lowpass_decimate(in, 2, std::nan("")), SignalError);
  EXPECT_THROW(lowpass_decimate(Signal{0.0, {1.0}}, 2, 100.0), SignalError);
  EXPECT_TRUE(lowpass_decimate(Signal{1000.0, {}}, 2, 100.0).samples.empty());
}

// ---- built-in signals ----------------------------------------------------------------------

TEST(SignalBuiltin, ImpulseLengthAndValues) {
  const Signal s = make_impulse(48000.0, 0.5);
  EXPECT_EQ(s.rate, 48000.0);
  ASSERT_EQ(s.samples.size(), 24000u);
  EXPECT_EQ(s.samples[0], 1.0);
  EXPECT_TRUE(std::all_of(s.samples.begin() + 1, s.samples.end(), [](double v) { return v == 0; }));
  EXPECT_EQ(make_impulse(48000.0, 0.0).samples, std::vector<double>{1.0});  // at least one sample
  EXPECT_THROW(make_impulse(0.0, 1.0), SignalError);
  EXPECT_THROW(make_impulse(48000.0, -1.0), SignalError);
}

TEST(SignalBuiltin, SweepLengthEndsPeakAndPhase) {
  const double rate = 48000.0, duration = 1.0, f0 = 20.0, f1 = 20000.0;
  const Signal s = make_sweep(rate, duration, f0, f1);
  EXPECT_EQ(s.rate, rate);
  ASSERT_EQ(s.samples.size(), 48000u);
  EXPECT_EQ(s.samples.front(), 0.0);
  EXPECT_NEAR(s.samples.back(), 0.0, 1e-12);
  double peak = 0.0;
  for (double v : s.samples) peak = std::max(peak, std::abs(v));
  EXPECT_LE(peak, 1.0);
  EXPECT_GT(peak, 0.999);
  // Outside the 5 ms fades the samples are the Farina sweep itself.
  const double L = std::log(f1 / f0);
  for (std::size_t i : {240u, 1000u, 24000u, 47000u, 47759u}) {
    const double t = static_cast<double>(i) / rate;
    EXPECT_NEAR(s.samples[i],
                std::sin(2.0 * kPi * f0 * duration / L * (std::exp(t * L / duration) - 1.0)), 1e-9)
        << i;
  }
  // Inside the fade the magnitude is reduced.
  EXPECT_LT(std::abs(s.samples[10]), 0.01);
}

TEST(SignalBuiltin, ShortSweepHasShorterFades) {
  const Signal s = make_sweep(48000.0, 0.008, 1000.0, 2000.0);  // 8 ms: 2 ms fades
  ASSERT_EQ(s.samples.size(), 384u);
  EXPECT_EQ(s.samples.front(), 0.0);
  EXPECT_NEAR(s.samples.back(), 0.0, 1e-12);
  double peak = 0.0;
  for (std::size_t i = 96; i < 288; ++i) peak = std::max(peak, std::abs(s.samples[i]));
  EXPECT_GT(peak, 0.99);  // the unfaded middle reaches full scale
  EXPECT_EQ(make_sweep(48000.0, 0.0, 100.0, 1000.0).samples.size(), 1u);
}

TEST(SignalBuiltin, SweepRejectsBadFrequencies) {
  EXPECT_THROW(make_sweep(48000.0, 1.0, 0.0, 1000.0), SignalError);
  EXPECT_THROW(make_sweep(48000.0, 1.0, 20.0, 30000.0), SignalError);
  EXPECT_THROW(make_sweep(48000.0, 1.0, -5.0, 1000.0), SignalError);
  EXPECT_NO_THROW(make_sweep(48000.0, 1.0, 1000.0, 1000.0));  // constant tone
}

// ---- interpolation and normalisation ---------------------------------------------------------

TEST(SignalSampleAt, LinearInsideZeroOutside) {
  const Signal s{10.0, {1.0, 3.0, -1.0}};
  EXPECT_DOUBLE_EQ(sample_at(s, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(sample_at(s, 0.05), 2.0);
  EXPECT_DOUBLE_EQ(sample_at(s, 0.1), 3.0);
  EXPECT_DOUBLE_EQ(sample_at(s, 0.125), 2.0);
  EXPECT_DOUBLE_EQ(sample_at(s, 0.2), -1.0);
  EXPECT_EQ(sample_at(s, -1e-9), 0.0);
  EXPECT_EQ(sample_at(s, 0.2 + 1e-9), 0.0);
  EXPECT_EQ(sample_at(s, 5.0), 0.0);
  EXPECT_EQ(sample_at(s, std::nan("")), 0.0);
  EXPECT_EQ(sample_at(Signal{10.0, {}}, 0.0), 0.0);
  EXPECT_EQ(sample_at(Signal{10.0, {0.5}}, 0.0), 0.5);
}

TEST(SignalNormalize, MeanZeroPeakOne) {
  const std::vector<double> y = remove_dc_and_normalize({1.0, 2.0, 3.0, 10.0, -4.0});
  double mean = 0.0, peak = 0.0;
  for (double v : y) {
    mean += v;
    peak = std::max(peak, std::abs(v));
  }
  EXPECT_NEAR(mean / static_cast<double>(y.size()), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(peak, 1.0);
  EXPECT_DOUBLE_EQ(y[3], 1.0);  // 10 - 2.4 is the largest deviation

  EXPECT_EQ(remove_dc_and_normalize({0.0, 0.0, 0.0}), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(remove_dc_and_normalize({0.1, 0.1, 0.1}), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_TRUE(remove_dc_and_normalize({}).empty());
}

}  // namespace
}  // namespace sphreverb
