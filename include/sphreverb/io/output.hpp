// The run's files in the output directory (rank 0 only): per receiver NAME.wav (DC removed,
// normalised, 16-bit; the seed's output) and NAME.raw.wav (32-bit float, acoustic pressure
// p' = c0^2 (rho - rho_ref) in Pa, calibrated), per receiver group GROUP.wav and GROUP.raw.wav,
// and energy.csv. Names: run_dir.hpp. Given a StagedFiles, the WAVs are written under temporary
// names that the caller commits once every output is written; without one, each file is
// committed on its own.
#pragma once

#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/io/run_dir.hpp"
#include "sphreverb/model/receiver.hpp"
#include "sphreverb/parallel/energy.hpp"

namespace sphreverb {

struct ReceiverOutput {
  std::string name, wav, raw_wav;  // file names in the output directory
  std::size_t samples = 0;
  double peak_pascal = 0.0;        // max |p'| of the raw signal
  double reference_density = 0.0;  // kg/m^3, rho_ref at t = 0
  std::vector<double> audio;       // p' (Pa) at the sample rate, as written to raw_wav
};

// A group of receivers written together ([receiver.NAME] group = GROUP): GROUP.wav (16-bit;
// normalised with one gain for all channels, or 100 Pa full scale) and GROUP.raw.wav (float, Pa),
// one channel per member in scene-file order. Each channel's raw samples are bit for bit those
// of the member's NAME.raw.wav.
struct GroupOutput {
  std::string name, wav, raw_wav;
  std::vector<std::string> channels;  // member receiver names, channel order
};

// An ambisonic receiver's B-format ([receiver.NAME] type = ambisonic): NAME.amb.raw.wav (float,
// Pa) and NAME.amb.wav (16-bit, one gain for all four channels, or 100 Pa full scale), ambiX:
// ACN order W Y Z X, SN3D. W = p' is the receiver's mono record bit for bit; (X, Y, Z) =
// -rho0 c0 v, so a plane wave arriving from direction u (the source at +u) gives
// (X, Y, Z) = W u. Every channel is filtered and decimated like the mono record.
struct AmbisonicOutput {
  std::string name, wav, raw_wav;
  std::string binaural_wav;                   // NAME.binaural.wav, or "" (binaural = false)
  double peak_pascal = 0.0;                   // max |sample| over the four raw channels
  std::vector<std::vector<double>> channels;  // W, Y, Z, X (Pa) at the sample rate, as written
};

// The per-step densities of `receivers` (steps + 1 records at the step rate sample_rate *
// substeps) become audio: deflection from the t = 0 reference, low-passed at f_max by a causal
// 4th-order Butterworth (if f_max < 0.45 sample_rate), then anti-alias filtered at 0.45
// sample_rate and decimated to the sample rate (audio/filters.hpp).
std::vector<ReceiverOutput> write_receiver_wavs(const Scene& scene, const Receivers& receivers,
                                                const std::string& dir,
                                                io::StagedFiles* staged = nullptr);

// The B-format WAVs of the ambisonic receivers, in scene order; `outs` are the receivers' mono
// outputs (W). A receiver with binaural = true also gets NAME.binaural.wav (16-bit, left and
// right, one gain for both; audio/binaural.hpp with the HRTF set hrtf_path(scene), n + L - 1
// samples for an HRIR of L taps). Throws SignalError if the SOFA file cannot be read.
std::vector<AmbisonicOutput> write_ambisonic_wavs(const Scene& scene, const Receivers& receivers,
                                                  const std::vector<ReceiverOutput>& outs,
                                                  const std::string& dir,
                                                  io::StagedFiles* staged = nullptr);

// A receiver record at the step rate (any quantity) as audio: low-passed at f_max by a causal
// 4th-order Butterworth (if [output] lowpass and f_max < 0.45 sample_rate), anti-alias filtered at
// 0.45 sample_rate, decimated to the sample rate and cut to the run's sample count.
Signal record_to_audio(const Scene& scene, Signal record);

// The groups' multi-channel WAVs, from the receivers' outputs (in scene order).
std::vector<GroupOutput> write_group_wavs(const Scene& scene,
                                          const std::vector<ReceiverOutput>& receivers,
                                          const std::string& dir,
                                          io::StagedFiles* staged = nullptr);

// energy.csv's text: time_s, kinetic_J, potential_J, total_J, one line per record.
std::string energy_csv(const std::vector<AcousticEnergy>& series);

// The SOFA file of the binaural receivers: [output] hrtf, or libmysofa's default.sofa.
std::string hrtf_path(const Scene& scene);

// The comments (WAV LIST/ICMT) of the B-format and the binaural files.
inline constexpr const char* kAmbixComment =
    "ambiX first-order B-format: channel order ACN (W Y Z X), normalisation SN3D";
std::string binaural_comment(const Scene& scene);

// Common-gain 16-bit channels of a multi-channel file: DC removed per channel and one gain for
// all (normalize), or p' / 100 Pa.
std::vector<std::vector<double>> common_gain_pcm(const Scene& scene,
                                                 const std::vector<std::vector<double>>& raw);

// Low-pass cut-off applied to the receivers (Hz).
double output_cutoff(const Scene& scene);

}  // namespace sphreverb
