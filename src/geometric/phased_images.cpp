#include "sphreverb/geometric/phased_images.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "sphreverb/geometric/spherical_reflection.hpp"

namespace sphreverb {

namespace {

using cplx = std::complex<double>;

// Where frequency f lies among the octave centres: the band below, the band above and the
// weight of the upper one (log-linear; clamped at the ends).
struct BandPoint {
  std::size_t lo = 0, hi = 0;
  double t = 0.0;
};

BandPoint band_point(double f) {
  if (f <= kGeoBands.front()) return {0, 0, 0.0};
  if (f >= kGeoBands.back()) return {kGeoBandCount - 1, kGeoBandCount - 1, 0.0};
  std::size_t b = 0;
  while (kGeoBands[b + 1] < f) ++b;
  return {b, b + 1, std::log2(f / kGeoBands[b]) / std::log2(kGeoBands[b + 1] / kGeoBands[b])};
}

double at(const BandValues& v, const BandPoint& p) { return (1.0 - p.t) * v[p.lo] + p.t * v[p.hi]; }

// A face's impedance at p: interpolated where both bands have one, else the nearer band's (0:
// angle-independent).
double impedance_at(const BandValues& z, const BandPoint& p) {
  if (z[p.lo] > 0.0 && z[p.hi] > 0.0) return at(z, p);
  return p.t < 0.5 ? z[p.lo] : z[p.hi];
}

std::size_t fft_length(std::size_t samples) {
  std::size_t n = 2;
  while (n < 2 * std::max<std::size_t>(samples, 1)) n *= 2;
  return n;
}

}  // namespace

std::vector<std::vector<double>> phased_image_response(const std::vector<ImageSource>& images,
                                                       const BoxImageParams& box, double rate,
                                                       std::size_t samples, bool bformat) {
  const std::size_t channels = bformat ? 4 : 1;
  std::vector<std::vector<double>> out(channels, std::vector<double>(samples, 0.0));
  if (samples == 0 || images.empty()) return out;
  const std::size_t n = fft_length(samples), bins = n / 2 + 1;
  const double df = rate / static_cast<double>(n), c = box.sound_speed;

  // The grid: log-spaced from the first bin above 0 Hz to the Nyquist frequency.
  const double f0 = df, f1 = 0.5 * rate;
  const auto points = static_cast<std::size_t>(std::ceil(kGridPerOctave * std::log2(f1 / f0))) + 1;
  std::vector<double> grid(points);
  for (std::size_t g = 0; g < points; ++g)
    grid[g] = f0 * std::exp2(std::log2(f1 / f0) * static_cast<double>(g) /
                             static_cast<double>(points - 1));
  std::vector<BandPoint> where(points);
  std::array<std::vector<double>, 6> zeta, rho;
  std::vector<double> air(points);
  for (int f = 0; f < 6; ++f) zeta[f].resize(points), rho[f].resize(points);
  for (std::size_t g = 0; g < points; ++g) {
    where[g] = band_point(grid[g]);
    air[g] = at(box.air, where[g]);
    for (int f = 0; f < 6; ++f) {
      zeta[f][g] = impedance_at(box.impedance[f], where[g]);
      rho[f][g] = at(box.reflection[f], where[g]);
    }
  }
  // Each bin's grid interval and weight (bin 0, DC, takes the first grid point).
  std::vector<std::size_t> cell(bins);
  std::vector<double> weight(bins);
  for (std::size_t k = 0, g = 0; k < bins; ++k) {
    const double f = std::max(static_cast<double>(k) * df, f0);
    while (g + 2 < points && grid[g + 1] < f) ++g;
    cell[k] = g;
    weight[k] = std::clamp(std::log(f / grid[g]) / std::log(grid[g + 1] / grid[g]), 0.0, 1.0);
  }

  std::vector<std::vector<cplx>> spectrum(channels, std::vector<cplx>(bins, 0.0));
  std::vector<cplx> a(points);
  for (const ImageSource& im : images) {
    const double d = std::max(im.distance, 1e-9);
    const double cos_axis[3] = {std::abs(im.direction.x), std::abs(im.direction.y),
                                std::abs(im.direction.z)};
    for (std::size_t g = 0; g < points; ++g) {
      const double kd = 2.0 * std::numbers::pi * grid[g] / c * d;
      cplx r = std::exp(-0.5 * air[g] * d) / (4.0 * std::numbers::pi * d);
      for (int f = 0; f < 6; ++f) {
        if (im.hits[f] == 0) continue;
        const cplx q = rho[f][g] * std::conj(spherical_reflection(zeta[f][g], cos_axis[f / 2], kd));
        for (int h = 0; h < im.hits[f]; ++h) r *= q;
      }
      a[g] = r;
    }
    const double weights[4] = {1.0, im.direction.y, im.direction.z, im.direction.x};
    const cplx step = std::polar(1.0, -2.0 * std::numbers::pi * df * d / c);
    cplx turn = 1.0;
    for (std::size_t k = 0; k < bins; ++k, turn *= step) {
      const cplx v = ((1.0 - weight[k]) * a[cell[k]] + weight[k] * a[cell[k] + 1]) * turn;
      for (std::size_t ch = 0; ch < channels; ++ch) spectrum[ch][k] += weights[ch] * v;
    }
  }

  std::vector<double> x(n);
  std::vector<cplx> h(bins);
  fftw_plan plan = fftw_plan_dft_c2r_1d(
      static_cast<int>(n), reinterpret_cast<fftw_complex*>(h.data()), x.data(), FFTW_ESTIMATE);
  for (std::size_t ch = 0; ch < channels; ++ch) {
    h = spectrum[ch];
    h[0] = h[0].real();
    h[bins - 1] = h[bins - 1].real();
    fftw_execute_dft_c2r(plan, reinterpret_cast<fftw_complex*>(h.data()), x.data());
    for (std::size_t i = 0; i < samples; ++i) out[ch][i] = x[i] / static_cast<double>(n);
  }
  fftw_destroy_plan(plan);
  return out;
}

}  // namespace sphreverb
