// Binaural rendering of first-order Ambisonics through a head-related transfer function (HRTF)
// set read with libmysofa. The B-format (ambiX: ACN order W Y Z X, SN3D) is decoded to eight
// virtual loudspeakers at the corners of a cube with the max-rE first-order decoder
//     g_i = (W + sqrt(3) u_i . (X, Y, Z)) / 8,    u_i = (+-1, +-1, +-1) / sqrt(3)
// (the first-order weight 1/sqrt(3) is the largest root of P_2, i.e. max-rE; see
// docs/theory/emitter-receivers.md), and each feed is convolved with the head-related impulse
// response (HRIR) pair of its direction. Directions are in the listener's frame: x to the front,
// y to the left, z up (the SOFA convention).
#pragma once

#include <string>
#include <vector>

#include "sphreverb/audio/signal.hpp"

struct MYSOFA_EASY;

namespace sphreverb {

// The HRTF set libmysofa's Debian package ships (MIT KEMAR, normal pinna).
inline constexpr const char* kDefaultSofaPath = "/usr/share/libmysofa/default.sofa";

// The HRIR pair of one direction at the rendering rate.
struct HrirPair {
  std::vector<double> left, right;
};

// A SOFA file opened for lookups at `rate` Hz. Throws SignalError naming the file if libmysofa
// cannot read it, `rate` is not finite and > 0, or its data is no HRIR set: a sample rate outside
// [1 kHz, 1 MHz], other than two receivers, no measurement or tap, NaN or infinite taps, or every
// tap zero.
class HrtfSet {
 public:
  HrtfSet(const std::string& path, double rate);
  ~HrtfSet();
  HrtfSet(const HrtfSet&) = delete;
  HrtfSet& operator=(const HrtfSet&) = delete;

  // The pair towards (x, y, z) (any length > 0), interpolated between the neighbouring
  // measurements by libmysofa, its per-ear delays applied as whole samples, resampled from the
  // file's rate to the rendering rate when they differ (audio/resample.hpp).
  HrirPair at(double x, double y, double z);
  double file_rate() const { return file_rate_; }  // Hz, the file's Data.SamplingRate
  double rate() const { return rate_; }            // Hz, the rendering rate

 private:
  MYSOFA_EASY* easy_ = nullptr;
  int length_ = 0;  // taps per HRIR at the file's rate
  double file_rate_ = 0.0, rate_ = 0.0;
  std::string path_;
};

// The two ears {left, right} of `bformat` (four channels W Y Z X of equal length n, at
// hrtf.rate()): the decode above, n + L - 1 samples, L the longest HRIR.
std::vector<std::vector<double>> render_binaural(const std::vector<std::vector<double>>& bformat,
                                                 HrtfSet& hrtf);

}  // namespace sphreverb
