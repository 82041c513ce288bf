// Audio signals: WAV input and output through libsndfile, the built-in test signals, band-limited
// resampling, and the low-pass + decimation that turns a receiver's per-step record into audio.
// Pure functions of their arguments apart from the file I/O; no MPI.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace sphreverb {

// Thrown for unreadable, empty or malformed audio files and bad arguments; the message names the
// file and what is wrong, e.g. "input.wav: not a sound file libsndfile can read (...)".
class SignalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A mono signal: samples at `rate` Hz.
struct Signal {
  double rate = 0.0;
  std::vector<double> samples;
};

// Reads any format libsndfile reads; multi-channel files are mixed down to mono (mean of the
// channels). Integer formats are scaled to [-1, 1]. Throws SignalError if the file is missing,
// unreadable, not audio, or has no frames.
Signal read_wav(const std::string& path);

// Writes `channels` (one vector per channel, equal lengths) as a WAV file. `pcm16`: 16-bit PCM,
// samples clipped to [-1, 1]; otherwise 32-bit float with the values as given. The file is written
// to PATH.partial and renamed to PATH only when complete, so a PATH that exists is whole.
void write_wav(const std::string& path, double rate,
               const std::vector<std::vector<double>>& channels, bool pcm16);

// Band-limited resampling from in.rate to `rate` (windowed-sinc interpolation; the cut-off is
// 0.45 * min(in.rate, rate) so nothing aliases). Identity (a copy) when the rates are equal.
Signal resample(const Signal& in, double rate);

// Built-in inputs at `rate` lasting `duration` seconds (at least one sample).
// impulse: a single-sample click, s[0] = 1, zero after.
// sweep: exponential sine sweep (Farina) from f0 to f1 Hz over the whole duration, amplitude 1,
//        with 5 ms raised-cosine fades at both ends.
Signal make_impulse(double rate, double duration);
Signal make_sweep(double rate, double duration, double f0, double f1);

// Value of the signal at time t (s) by linear interpolation between samples; 0 outside
// [0, (n-1)/rate]. Used to drive the emitter at sub-sample times.
double sample_at(const Signal& s, double t);

// Low-pass (windowed-sinc FIR, zero phase: the output is not delayed) at `cutoff` Hz and keep every
// `factor`-th sample, starting with sample 0: out[k] = lowpassed[k * factor]. in.rate / factor is
// the output rate. factor = 1 still filters. Requires 0 < cutoff < in.rate / 2.
Signal lowpass_decimate(const Signal& in, int factor, double cutoff);

// Causal Butterworth low-pass of even `order` (2, 4, 6, 8) at `cutoff` Hz, as cascaded biquads
// from the bilinear transform (cut-off pre-warped): -3 dB at the cut-off, no pre-ringing (the
// response starts with the input), group delay ~ order / (4 pi cutoff) at low frequencies.
// Requires 0 < cutoff < in.rate / 2.
Signal butterworth_lowpass(const Signal& in, double cutoff, int order);

// Removes the mean (DC) and scales so the peak magnitude is 1 (the seed's normalisation); an
// all-zero signal stays zero.
std::vector<double> remove_dc_and_normalize(const std::vector<double>& x);

}  // namespace sphreverb
