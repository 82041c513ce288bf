#include "sphreverb/geometric/join_check.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sphreverb/geometric/decay.hpp"

namespace sphreverb {
namespace {

// The squared samples of x in the octave [centre / sqrt 2, centre sqrt 2] (band_pass_zero_phase).
std::vector<double> octave_energy(const std::vector<double>& x, double rate, double centre) {
  std::vector<double> e =
      band_pass_zero_phase(x, rate, centre / std::sqrt(2.0), centre * std::sqrt(2.0));
  for (double& v : e) v *= v;
  return e;
}

// Whether the energy decay curve of e reaches `lowest` dB within the first kReachedBy of the
// record: a record cut off in the middle of its decay has an EDC that falls to -inf at its end
// whatever the decay, and its last part says nothing.
constexpr double kReachedBy = 0.8;
bool reaches(const std::vector<double>& e, double lowest) {
  const std::vector<double> edc = schroeder_db(e);
  const auto last = static_cast<std::size_t>(kReachedBy * static_cast<double>(edc.size()));
  for (std::size_t i = 0; i < last; ++i)
    if (edc[i] < lowest) return true;
  return false;
}

// T30 of both curves where both reach -35 dB in time, else T20 where both reach -25 dB, else
// none.
void decay_times(const std::vector<double>& sph, const std::vector<double>& full, double dt,
                 OctaveDecay& d) {
  d.sph = d.full = 0.0;
  for (const double lowest : {-35.0, -25.0}) {
    if (!reaches(sph, lowest) || !reaches(full, lowest)) continue;
    d.sph = decay_time(sph, dt, lowest), d.full = decay_time(full, dt, lowest);
    d.t20 = lowest > -35.0;
    return;
  }
}

std::string db(double v) {
  std::ostringstream o;
  o.setf(std::ios::showpos | std::ios::fixed);
  o.precision(2);
  o << v << " dB";
  return o.str();
}

}  // namespace

double octave_holding(double f) {
  return 1000.0 * std::exp2(std::round(std::log2(std::max(f, 1e-3) / 1000.0)));
}

OctaveDecay join_octave_decay(const std::vector<double>& sph, const std::vector<double>& geo,
                              const std::vector<std::vector<double>>& more, double gain,
                              const HybridParams& p) {
  OctaveDecay d;
  d.centre = octave_holding(p.crossover);
  const double dt = 1.0 / p.rate;
  const std::vector<double> e_sph = octave_energy(sph, p.rate, d.centre);
  std::vector<double> e_full(sph.size(), 0.0);
  const double share = 1.0 / static_cast<double>(1 + more.size());
  auto add = [&](const std::vector<double>& x) {
    const std::vector<double> e = octave_energy(crossover_join(sph, x, gain, p), p.rate, d.centre);
    for (std::size_t i = 0; i < e_full.size(); ++i) e_full[i] += share * e[i];
  };
  add(geo);
  for (const std::vector<double>& x : more) add(x);
  decay_times(e_sph, e_full, dt, d);
  return d;
}

JoinVerdict judge_join(const std::vector<ReceiverJoin>& receivers, double crossover,
                       double schroeder, const JoinCriteria& c) {
  JoinVerdict v;
  const double n = static_cast<double>(std::max<std::size_t>(receivers.size(), 1));
  double measured = 0.0;
  for (const ReceiverJoin& r : receivers) {
    v.early_db += r.early_db / n, v.late_db += r.late_db / n;
    v.octave = r.decay.centre;
    if (r.decay.sph > 0.0 && r.decay.full > 0.0) {
      v.t_sph += r.decay.sph, v.t_full += r.decay.full, measured += 1.0;
      v.t20 = v.t20 || r.decay.t20;
    }
  }
  std::ostringstream advice;
  advice.precision(3);
  if (schroeder > 0.0 && crossover < 2.0 * schroeder)
    advice
        << "; the overlap octave " << 0.5 * crossover << "-" << crossover
        << " Hz lies below twice the room's Schroeder frequency (~" << schroeder
        << " Hz), where the SPH response is a few modes and the ray tail a diffuse field: a finer "
           "spacing raises the crossover";
  v.levels_ok =
      std::abs(v.early_db) <= c.level_tolerance_db && std::abs(v.late_db) <= c.level_tolerance_db;
  if (!v.levels_ok) {
    std::ostringstream o;
    o.precision(3);
    o << "the join fails V19's level criterion: the geometric part's overlap-octave level against "
         "the SPH part's is early "
      << db(v.early_db) << ", late " << db(v.late_db) << " (mean of the receivers; within +-"
      << c.level_tolerance_db << " dB passes)" << advice.str();
    v.warnings.push_back(o.str());
  }
  v.decay_measured = measured > 0.0;
  if (v.decay_measured) {
    v.t_sph /= measured, v.t_full /= measured;
    const double change = v.t_full / v.t_sph - 1.0;
    v.decay_ok = std::abs(change) <= c.t30_tolerance;
    if (!v.decay_ok) {
      std::ostringstream o;
      o.precision(3);
      o << "the join fails V19's decay criterion: in the " << v.octave << " Hz octave the full "
        << "response's " << (v.t20 ? "T20" : "T30") << " is " << 1e3 * v.t_full
        << " ms against the SPH response's " << 1e3 * v.t_sph << " ms (" << std::showpos
        << 100.0 * change << std::noshowpos << " %; within +-" << 100.0 * c.t30_tolerance
        << " % passes)" << advice.str();
      v.warnings.push_back(o.str());
    }
  }
  return v;
}

}  // namespace sphreverb
