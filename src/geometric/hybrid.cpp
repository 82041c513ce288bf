#include "sphreverb/geometric/hybrid.hpp"

#include <algorithm>
#include <cmath>

#include "sphreverb/audio/crossover.hpp"
#include "sphreverb/audio/filters.hpp"
#include "sphreverb/geometric/counter_rng.hpp"

namespace sphreverb {
namespace {

double ratio_db(double a, double b) { return a > 0.0 && b > 0.0 ? 10.0 * std::log10(a / b) : 0.0; }

}  // namespace

std::vector<double> band_pass_zero_phase(const std::vector<double>& x, double rate, double lo,
                                         double hi) {
  const auto pad = static_cast<std::size_t>(std::ceil(8.0 * rate / lo));
  std::vector<double> y(pad, 0.0);
  y.insert(y.end(), x.begin(), x.end());
  y.resize(y.size() + pad, 0.0);
  y = lr4_lowpass(lr4_highpass(y, rate, lo), rate, hi);
  std::reverse(y.begin(), y.end());
  y = lr4_lowpass(lr4_highpass(y, rate, lo), rate, hi);
  std::reverse(y.begin(), y.end());
  return {y.begin() + static_cast<std::ptrdiff_t>(pad),
          y.begin() + static_cast<std::ptrdiff_t>(pad + x.size())};
}

namespace {

double sum_squares(const std::vector<double>& y, std::size_t first, std::size_t last) {
  double e = 0.0;
  for (std::size_t i = first; i < std::min(last, y.size()); ++i) e += y[i] * y[i];
  return e;
}

}  // namespace

double band_energy(const std::vector<double>& x, double rate, double lo, double hi,
                   std::size_t first, std::size_t last) {
  return sum_squares(band_pass_zero_phase(x, rate, lo, hi), first, last);
}

std::uint64_t realisation_seed(std::uint64_t seed, std::size_t k) {
  return k == 0 ? seed : splitmix64(seed ^ splitmix64(0x6A09E667F3BCC909ULL + k));
}

HybridResult join_hybrid(const std::vector<double>& sph, std::vector<double> geo,
                         const HybridParams& p, const std::vector<std::vector<double>>& more) {
  const std::size_t n = sph.size();
  geo.resize(n, 0.0);
  const double lo = 0.5 * p.crossover, hi = p.crossover;
  HybridResult r;
  const std::vector<double> sph_band = band_pass_zero_phase(sph, p.rate, lo, hi);
  const double e_sph = sum_squares(sph_band, 0, n);
  std::size_t split = std::min(n, static_cast<std::size_t>(std::llround(p.split * p.rate)));
  if (!(p.split > 0.0)) {  // the SPH band's -10 dB time: the last 10 % of its energy is late
    double tail = 0.0;
    split = n;
    while (split > 0 && tail + sph_band[split - 1] * sph_band[split - 1] <= 0.1 * e_sph)
      tail += sph_band[split - 1] * sph_band[split - 1], --split;
  }
  // The geometric band energies, early and late, averaged over the realisations.
  double geo_early = 0.0, geo_late = 0.0;
  auto add = [&](const std::vector<double>& x) {
    std::vector<double> y(x.begin(),
                          x.begin() + static_cast<std::ptrdiff_t>(std::min(n, x.size())));
    y.resize(n, 0.0);
    if (p.record_lowpass > 0.0)
      y = butterworth_lowpass(Signal{p.rate, std::move(y)}, p.record_lowpass, kRecordLowpassOrder)
              .samples;
    const std::vector<double> band = band_pass_zero_phase(y, p.rate, lo, hi);
    geo_early += sum_squares(band, 0, split) / static_cast<double>(1 + more.size());
    geo_late += sum_squares(band, split, n) / static_cast<double>(1 + more.size());
  };
  add(geo);
  for (const std::vector<double>& x : more) add(x);
  const double e_geo = geo_early + geo_late;
  r.split = static_cast<double>(split) / p.rate;
  r.mismatch_db = ratio_db(e_geo, e_sph);
  r.gain = e_sph > 0.0 && e_geo > 0.0 ? std::sqrt(e_sph / e_geo) : 1.0;
  const double g2 = r.gain * r.gain;
  r.early_db = ratio_db(g2 * geo_early, sum_squares(sph_band, 0, split));
  r.late_db = ratio_db(g2 * geo_late, sum_squares(sph_band, split, n));
  r.full = crossover_join(sph, std::move(geo), r.gain, p);
  return r;
}

std::vector<double> crossover_join(const std::vector<double>& sph, std::vector<double> geo,
                                   double gain, const HybridParams& p) {
  const std::size_t n = sph.size();
  // The SPH records carry the causal low-pass at f_max: the geometric part is delayed by its group
  // delay at the crossover, so that the two parts are in phase where they overlap.
  if (p.record_lowpass > 0.0) {
    const auto lag = static_cast<std::size_t>(
        std::llround(p.rate * butterworth_group_delay(p.crossover, p.record_lowpass,
                                                      kRecordLowpassOrder, p.rate)));
    geo.insert(geo.begin(), std::min(lag, n), 0.0);
  }
  geo.resize(n, 0.0);
  for (double& v : geo) v *= gain;
  std::vector<double> full = lr4_lowpass(sph, p.rate, p.crossover);
  const std::vector<double> high = lr4_highpass(geo, p.rate, p.crossover);
  for (std::size_t i = 0; i < n; ++i) full[i] += high[i];
  return full;
}

}  // namespace sphreverb
