// WAV input and output through libsndfile's C++ handle (sndfile.hh), see wav.hpp.
#include "sphreverb/audio/wav.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sndfile.hh>
#include <system_error>

namespace sphreverb {
namespace {

namespace fs = std::filesystem;

constexpr sf_count_t kReadBlockFrames = 65536;
constexpr std::size_t kWriteBlockFrames = 16384;

// "KEY = PATH: " or "PATH: ", the start of every message about the file.
std::string prefix(const std::string& path, const std::string& key) {
  return (key.empty() ? path : key + " = " + path) + ": ";
}

// The checks libsndfile's own message would make obscure.
void require_plain_file(const std::string& path, const std::string& where) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw SignalError(where + "no such file");
  if (fs::is_directory(path, ec)) throw SignalError(where + "is a directory, not a sound file");
  if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) == 0 && !ec) {
    throw SignalError(where + "file is empty (0 bytes)");
  }
}

// Throws unless every value of the interleaved block is finite; `first_frame` is the block's
// first frame in the file.
void require_finite(const std::vector<double>& block, sf_count_t frames, std::size_t channels,
                    sf_count_t first_frame, const std::string& where) {
  const auto n = static_cast<std::size_t>(frames) * channels;
  const auto bad = std::find_if(block.begin(), block.begin() + static_cast<std::ptrdiff_t>(n),
                                [](double v) { return !std::isfinite(v); });
  if (bad == block.begin() + static_cast<std::ptrdiff_t>(n)) return;
  const auto at = static_cast<std::size_t>(bad - block.begin());
  const auto frame = static_cast<std::size_t>(first_frame) + at / channels;
  std::string what = "sample " + std::to_string(frame);
  if (channels > 1) {
    what +=
        " (channel " + std::to_string(at % channels + 1) + " of " + std::to_string(channels) + ")";
  }
  throw SignalError(where + what + " is " + (std::isnan(*bad) ? "NaN" : "infinite") +
                    " (0-based frame index); an input signal must be finite");
}

// Conversion to 16-bit PCM with the same scale that libsndfile's normalised reading uses
// (x = s / 32768), so a value read back is within 1/32768 of the value written (clipped to
// [-1, 1]); NaN becomes 0.
short to_pcm16(double x) {
  if (std::isnan(x)) return 0;
  const double s = std::clamp(std::nearbyint(x * 32768.0), -32768.0, 32767.0);
  return static_cast<short>(s);
}

std::string num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

void require(bool ok, const std::string& what) {
  if (!ok) throw SignalError(what);
}

// Checks the arguments of write_wav; returns the rate in whole Hz.
int checked_rate(const std::string& path, double rate,
                 const std::vector<std::vector<double>>& channels) {
  require(!channels.empty(), path + ": cannot write a WAV file with no channels");
  require(channels.size() <= 1024,
          path + ": too many channels (" + std::to_string(channels.size()) + ")");
  const std::size_t frames = channels.front().size();
  for (std::size_t c = 1; c < channels.size(); ++c) {
    require(channels[c].size() == frames, path + ": channels differ in length (channel 0 has " +
                                              std::to_string(frames) + " samples, channel " +
                                              std::to_string(c) + " has " +
                                              std::to_string(channels[c].size()) + ")");
  }
  const double whole_rate = std::round(rate);
  require(std::isfinite(rate) && whole_rate >= 1.0 && whole_rate <= INT_MAX &&
              std::abs(rate - whole_rate) <= 1e-6,
          path + ": a WAV sample rate must be a whole number of Hz >= 1, got " + num(rate));
  return static_cast<int>(whole_rate);
}

// Writes all frames of `channels` to the open `file` in interleaved blocks; returns "" or what
// went wrong.
std::string write_frames(SndfileHandle& file, const std::vector<std::vector<double>>& channels,
                         bool pcm16) {
  const std::size_t nch = channels.size(), frames = channels.front().size();
  std::vector<double> block_f(pcm16 ? 0 : kWriteBlockFrames * nch);
  std::vector<short> block_s(pcm16 ? kWriteBlockFrames * nch : 0);
  for (std::size_t start = 0; start < frames; start += kWriteBlockFrames) {
    const std::size_t count = std::min(kWriteBlockFrames, frames - start);
    for (std::size_t f = 0; f < count; ++f) {
      for (std::size_t c = 0; c < nch; ++c) {
        const double x = channels[c][start + f];
        if (pcm16) {
          block_s[f * nch + c] = to_pcm16(x);
        } else {
          block_f[f * nch + c] = x;
        }
      }
    }
    const auto want = static_cast<sf_count_t>(count);
    const sf_count_t wrote =
        pcm16 ? file.writef(block_s.data(), want) : file.writef(block_f.data(), want);
    if (wrote != want) {
      return "write failed after " + std::to_string(start) + " frames (" + file.strError() + ")";
    }
  }
  return "";
}

}  // namespace

std::vector<std::vector<double>> read_wav_channels(const std::string& path, double& rate) {
  const std::string where = prefix(path, {});
  require_plain_file(path, where);
  SndfileHandle file(path);
  if (file.rawHandle() == nullptr)
    throw SignalError(where + "not a sound file libsndfile can read (" + file.strError() + ")");
  if (file.channels() < 1 || file.samplerate() < 1)
    throw SignalError(where + "malformed header (" + std::to_string(file.channels()) +
                      " channels at " + std::to_string(file.samplerate()) + " Hz)");
  const auto channels = static_cast<std::size_t>(file.channels());
  std::vector<double> block(static_cast<std::size_t>(kReadBlockFrames) * channels);
  std::vector<std::vector<double>> out(channels);
  rate = static_cast<double>(file.samplerate());
  for (sf_count_t done = 0;;) {
    const sf_count_t got = file.readf(block.data(), kReadBlockFrames);
    if (got <= 0) break;
    require_finite(block, got, channels, done, where);
    for (sf_count_t f = 0; f < got; ++f)
      for (std::size_t c = 0; c < channels; ++c)
        out[c].push_back(block[static_cast<std::size_t>(f) * channels + c]);
    done += got;
  }
  if (const int err = file.error(); err != SF_ERR_NO_ERROR)
    throw SignalError(where + "read error (" + sf_error_number(err) + ")");
  if (out[0].empty()) throw SignalError(where + "contains no audio frames");
  return out;
}

Signal read_wav(const std::string& path, const std::string& key) {
  const std::string where = prefix(path, key);
  require_plain_file(path, where);

  SndfileHandle file(path);
  if (file.rawHandle() == nullptr) {
    throw SignalError(where + "not a sound file libsndfile can read (" + file.strError() + ")");
  }
  if (file.channels() < 1 || file.samplerate() < 1) {
    throw SignalError(where + "malformed header (" + std::to_string(file.channels()) +
                      " channels at " + std::to_string(file.samplerate()) + " Hz)");
  }

  // Read in blocks until the end, so that a wrong frame count in the header does not matter.
  const auto channels = static_cast<std::size_t>(file.channels());
  std::vector<double> block(static_cast<std::size_t>(kReadBlockFrames) * channels);
  Signal out;
  out.rate = static_cast<double>(file.samplerate());
  if (file.frames() > 0 && file.frames() < (sf_count_t{1} << 40)) {
    out.samples.reserve(static_cast<std::size_t>(file.frames()));
  }
  const double inv_channels = 1.0 / static_cast<double>(channels);
  for (sf_count_t done = 0;;) {
    const sf_count_t got = file.readf(block.data(), kReadBlockFrames);
    if (got <= 0) break;
    require_finite(block, got, channels, done, where);
    for (sf_count_t f = 0; f < got; ++f) {
      const double* frame = block.data() + static_cast<std::size_t>(f) * channels;
      double sum = 0.0;
      for (std::size_t c = 0; c < channels; ++c) sum += frame[c];
      out.samples.push_back(channels == 1 ? sum : sum * inv_channels);
    }
    done += got;
  }
  if (const int err = file.error(); err != SF_ERR_NO_ERROR) {
    throw SignalError(where + "read error (" + sf_error_number(err) + ")");
  }
  if (out.samples.empty()) throw SignalError(where + "contains no audio frames");
  return out;
}

void write_wav(const std::string& path, double rate,
               const std::vector<std::vector<double>>& channels, bool pcm16,
               const std::string& comment) {
  const int whole_rate = checked_rate(path, rate, channels);
  const std::string partial = path + ".partial";
  auto fail = [&](const std::string& what) {
    std::error_code ignored;
    fs::remove(partial, ignored);
    throw SignalError(path + ": " + what);
  };

  const int format = SF_FORMAT_WAV | (pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT);
  SndfileHandle file(partial, SFM_WRITE, format, static_cast<int>(channels.size()), whole_rate);
  if (file.rawHandle() == nullptr) {
    fail(std::string("cannot open for writing (") + file.strError() + ")");
  }
  file.command(SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);
  if (!comment.empty() && file.setString(SF_STR_COMMENT, comment.c_str()) != 0)
    fail("cannot store the comment");
  if (const std::string why = write_frames(file, channels, pcm16); !why.empty()) {
    file = SndfileHandle();  // closes the partial file before it is removed
    fail(why);
  }
  // Closed here rather than by the handle, to see whether the header and data reached the disk.
  if (sf_close(file.takeOwnership()) != 0) fail("closing the file failed (data may be incomplete)");

  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    const std::string why = std::generic_category().message(errno);
    fail("cannot rename " + partial + " to the final name (" + why + ")");
  }
}

}  // namespace sphreverb
