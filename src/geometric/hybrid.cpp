#include "sphreverb/geometric/hybrid.hpp"

#include <algorithm>
#include <cmath>

#include "sphreverb/audio/crossover.hpp"

namespace sphreverb {
namespace {

double ratio_db(double a, double b) { return a > 0.0 && b > 0.0 ? 10.0 * std::log10(a / b) : 0.0; }

}  // namespace

double band_energy(const std::vector<double>& x, double rate, double lo, double hi,
                   std::size_t first, std::size_t last) {
  const std::vector<double> y = lr4_lowpass(lr4_highpass(x, rate, lo), rate, hi);
  double e = 0.0;
  for (std::size_t i = first; i < std::min(last, y.size()); ++i) e += y[i] * y[i];
  return e;
}

HybridResult join_hybrid(const std::vector<double>& sph, std::vector<double> geo,
                         const HybridParams& p) {
  const std::size_t n = sph.size();
  geo.resize(n, 0.0);
  const double lo = 0.5 * p.crossover, hi = p.crossover;
  const auto split = std::min(n, static_cast<std::size_t>(std::llround(p.split * p.rate)));
  HybridResult r;
  const double e_sph = band_energy(sph, p.rate, lo, hi, 0, n);
  const double e_geo = band_energy(geo, p.rate, lo, hi, 0, n);
  r.mismatch_db = ratio_db(e_geo, e_sph);
  r.gain = e_sph > 0.0 && e_geo > 0.0 ? std::sqrt(e_sph / e_geo) : 1.0;
  for (double& v : geo) v *= r.gain;
  r.early_db = ratio_db(band_energy(geo, p.rate, lo, hi, 0, split),
                        band_energy(sph, p.rate, lo, hi, 0, split));
  r.late_db = ratio_db(band_energy(geo, p.rate, lo, hi, split, n),
                       band_energy(sph, p.rate, lo, hi, split, n));
  r.full = lr4_lowpass(sph, p.rate, p.crossover);
  const std::vector<double> high = lr4_highpass(geo, p.rate, p.crossover);
  for (std::size_t i = 0; i < n; ++i) r.full[i] += high[i];
  return r;
}

}  // namespace sphreverb
