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

// The per-step densities of `receivers` (steps + 1 records at the step rate sample_rate *
// substeps) become audio: deflection from the t = 0 reference, low-passed at f_max by a causal
// 4th-order Butterworth (if f_max < 0.45 sample_rate), then anti-alias filtered at 0.45
// sample_rate and decimated to the sample rate (audio/filters.hpp).
std::vector<ReceiverOutput> write_receiver_wavs(const Scene& scene, const Receivers& receivers,
                                                const std::string& dir,
                                                io::StagedFiles* staged = nullptr);

// The groups' multi-channel WAVs, from the receivers' outputs (in scene order).
std::vector<GroupOutput> write_group_wavs(const Scene& scene,
                                          const std::vector<ReceiverOutput>& receivers,
                                          const std::string& dir,
                                          io::StagedFiles* staged = nullptr);

// energy.csv's text: time_s, kinetic_J, potential_J, total_J, one line per record.
std::string energy_csv(const std::vector<AcousticEnergy>& series);

// Low-pass cut-off applied to the receivers (Hz).
double output_cutoff(const Scene& scene);

}  // namespace sphreverb
