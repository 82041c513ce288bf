#include "sphreverb/physics/material.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sphreverb {

namespace {
constexpr double kTwoPi = 6.283185307179586;

// alpha_st(zeta) for real zeta, closed form (material.hpp); the quadrature agrees (unit test).
double statistical_real(double z) {
  if (z <= 0.0) return 0.0;
  return 8.0 / (z * z) * (z - 2.0 * std::log1p(z) + z / (1.0 + z));
}

// The zeta of the maximum of statistical_real (about 1.5671), by golden-section search.
double statistical_peak() {
  double a = 1.0, b = 3.0;
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int i = 0; i < 100; ++i) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (statistical_real(c) > statistical_real(d))
      b = d;
    else
      a = c;
  }
  return 0.5 * (a + b);
}

double band_error(const WallImpedance& w, const std::array<double, 6>& alpha, double rho_c,
                  std::array<double, 6>* fitted) {
  double sum = 0.0;
  for (std::size_t b = 0; b < kOctaveBands.size(); ++b) {
    const double a = normal_absorption(w.at(kTwoPi * kOctaveBands[b]) / rho_c);
    if (fitted) (*fitted)[b] = a;
    sum += (a - alpha[b]) * (a - alpha[b]);
  }
  return sum;
}
}  // namespace

std::complex<double> WallImpedance::at(double omega) const {
  return {resistance, omega * mass - stiffness / omega};
}

double normal_absorption(std::complex<double> zeta) {
  const std::complex<double> r = (zeta - 1.0) / (zeta + 1.0);
  return 1.0 - std::norm(r);
}

double statistical_absorption(std::complex<double> zeta) {
  // alpha_st = int_0^1 alpha(zeta mu) 2 mu dmu (mu = cos theta), composite Simpson.
  constexpr int n = 2000;
  double sum = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double mu = static_cast<double>(i) / n;
    const double w = (i == 0 || i == n) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    const double a = mu > 0.0 ? normal_absorption(zeta * mu) : 0.0;
    sum += w * a * 2.0 * mu;
  }
  return sum / (3.0 * n);
}

double hard_resistance_ratio(double alpha) {
  if (!(alpha >= 0.0 && alpha < 1.0)) throw std::invalid_argument("alpha must be in [0, 1)");
  if (alpha == 0.0) return HUGE_VAL;
  const double r = std::sqrt(1.0 - alpha);
  return (1.0 + r) / (1.0 - r);
}

double resistance_ratio_for_statistical(double alpha_st) {
  if (!(alpha_st >= 0.0)) throw std::invalid_argument("alpha_st must be >= 0");
  static const double peak = statistical_peak();
  if (alpha_st >= statistical_real(peak)) return peak;
  if (alpha_st == 0.0) return HUGE_VAL;
  // statistical_real decreases on [peak, inf): bisection in log zeta.
  double lo = std::log(peak), hi = std::log(1e9);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (statistical_real(std::exp(mid)) > alpha_st)
      lo = mid;
    else
      hi = mid;
  }
  return std::exp(0.5 * (lo + hi));
}

WallImpedance wall_for_absorption(double alpha, double rho_c, double layer_mass) {
  WallImpedance w;
  w.resistance = hard_resistance_ratio(alpha) * rho_c;
  w.mass = layer_mass;
  w.stiffness = 0.02 * rho_c * kTwoPi * kLowestBandEdge;
  return w;
}

BandFit fit_bands(const std::array<double, 6>& alpha, double rho_c, double layer_mass,
                  double f0_max) {
  // Parameters in log space: zeta_r = R / rho c in [1, 1e4], resonance f0 in [10, f0_max] Hz,
  // M in [layer_mass, 1e3 layer_mass]; K = M (2 pi f0)^2.
  struct P {
    double lz, lf, lm;
  };
  const double lz_lo = 0.0, lz_hi = std::log(1e4);
  const double lf_lo = std::log(10.0), lf_hi = std::log(std::max(20.0, f0_max));
  const double lm_lo = std::log(layer_mass), lm_hi = std::log(1e3 * layer_mass);
  auto clamp = [&](P p) {
    p.lz = std::clamp(p.lz, lz_lo, lz_hi);
    p.lf = std::clamp(p.lf, lf_lo, lf_hi);
    p.lm = std::clamp(p.lm, lm_lo, lm_hi);
    return p;
  };
  auto wall = [&](const P& p) {
    WallImpedance w;
    w.resistance = std::exp(p.lz) * rho_c;
    w.mass = std::exp(p.lm);
    const double w0 = kTwoPi * std::exp(p.lf);
    w.stiffness = w.mass * w0 * w0;
    return w;
  };
  auto cost = [&](const P& p) { return band_error(wall(p), alpha, rho_c, nullptr); };

  // Coarse grid, then a compass (pattern) search with shrinking steps.
  constexpr int n = 20;
  P best{}, p{};
  double best_cost = HUGE_VAL;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        p.lz = lz_lo + (lz_hi - lz_lo) * i / (n - 1);
        p.lf = lf_lo + (lf_hi - lf_lo) * j / (n - 1);
        p.lm = lm_lo + (lm_hi - lm_lo) * k / (n - 1);
        const double c = cost(p);
        if (c < best_cost) best_cost = c, best = p;
      }
  double step = 0.5;
  while (step > 1e-7) {
    bool improved = false;
    for (int axis = 0; axis < 3; ++axis)
      for (double sign : {1.0, -1.0}) {
        P q = best;
        (axis == 0 ? q.lz : axis == 1 ? q.lf : q.lm) += sign * step;
        q = clamp(q);
        const double c = cost(q);
        if (c < best_cost) best_cost = c, best = q, improved = true;
      }
    if (!improved) step *= 0.5;
  }
  BandFit fit;
  fit.wall = wall(best);
  fit.rms_error = std::sqrt(band_error(fit.wall, alpha, rho_c, &fit.fitted) /
                            static_cast<double>(alpha.size()));
  return fit;
}

int tethered_layers(double h_over_dx) {
  return std::max(1, static_cast<int>(std::ceil(h_over_dx - 0.5 - 1e-12)));
}

}  // namespace sphreverb
