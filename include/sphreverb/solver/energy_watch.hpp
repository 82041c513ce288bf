// A watch on the air's acoustic energy in stage 2 for the growth no passive room allows.
//
// While a source plays (the emitter's input, the monopoles' inputs, and a settling time after
// them for the drive's high-pass and the room's response) the energy may rise; after that, with
// rigid or absorbing walls and nothing moving, it can only stay or fall. A run whose energy rises
// above kGrowth times the largest it reached while driven is unstable (docs/limitations.md,
// "Growing energy"; the warning names where the energy sits: energy.hpp, energy_region). The
// watch reports that once; it changes
// nothing in the run. A restart that resumes after the drive has ended takes its first
// observation as the reference.
#pragma once

namespace sphreverb {

class EnergyWatch {
 public:
  static constexpr double kGrowth = 10.0;

  EnergyWatch() = default;
  // drive_end: the stage-2 time (s) until which the energy may rise.
  explicit EnergyWatch(double drive_end) : drive_end_(drive_end) {}

  // The energy (J) at stage-2 time t (s), in increasing t. True exactly once: at the first
  // observation after the drive at which the energy exceeds kGrowth times the reference.
  bool observe(double t, double energy);

  double reference() const { return reference_; }  // J, the largest energy while driven
  double drive_end() const { return drive_end_; }  // s

 private:
  double drive_end_ = 0.0;
  double reference_ = 0.0;
  bool has_reference_ = false;
  bool reported_ = false;
};

}  // namespace sphreverb
