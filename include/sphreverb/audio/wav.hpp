// WAV (and any other format libsndfile reads) input and output. The only audio file I/O of the
// program; no MPI: the caller runs it on one rank.
#pragma once

#include <string>
#include <vector>

#include "sphreverb/audio/signal.hpp"

namespace sphreverb {

// Reads any format libsndfile reads; multi-channel files are mixed down to mono (mean of the
// channels). Integer formats are scaled to [-1, 1]. `key` names where the path came from (e.g.
// "[emitter] input"); when not empty every message starts "KEY = PATH: ", else "PATH: ".
// Throws SignalError if the file is missing, unreadable, not audio, has no frames, or holds a
// NaN or infinite sample (the message gives the first such frame, 0-based, and its channel).
Signal read_wav(const std::string& path, const std::string& key = {});

// The channels of a file as written (no mix-down; float files give their values exactly, as
// doubles), and its rate in `rate`. Throws SignalError as read_wav does.
std::vector<std::vector<double>> read_wav_channels(const std::string& path, double& rate);

// Writes `channels` (one vector per channel, equal lengths) as a WAV file. `pcm16`: 16-bit PCM,
// samples clipped to [-1, 1], NaN written as 0; otherwise 32-bit float with the values as given.
// `rate` must be a whole number of Hz. The file is written to PATH.partial and renamed to PATH
// only when complete, so a PATH that exists is whole; no PEAK chunk (it carries a time stamp), so
// the same samples always give the same bytes. A non-empty `comment` is stored as the file's
// comment (the WAV LIST/INFO ICMT chunk). Throws SignalError naming PATH.
void write_wav(const std::string& path, double rate,
               const std::vector<std::vector<double>>& channels, bool pcm16,
               const std::string& comment = {});

}  // namespace sphreverb
