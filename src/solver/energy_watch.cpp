#include "sphreverb/solver/energy_watch.hpp"

#include <algorithm>

namespace sphreverb {

bool EnergyWatch::observe(double t, double energy) {
  if (t <= drive_end_ || !has_reference_) {
    reference_ = has_reference_ ? std::max(reference_, energy) : energy;
    has_reference_ = true;
    return false;
  }
  if (reported_ || !(energy > kGrowth * reference_)) return false;
  reported_ = true;
  return true;
}

}  // namespace sphreverb
