#include "sphreverb/geometric/phased_images.hpp"

#include <fftw3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <numbers>
#include <utility>

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

constexpr std::size_t kBlock = 16;  // bins per block of the phase factors

// q^n by squaring (n >= 0), in real arithmetic: a face met n times in one image.
cplx power(cplx q, int n) {
  double r_re = 1.0, r_im = 0.0, b_re = q.real(), b_im = q.imag();
  for (; n > 0; n >>= 1) {
    if (n & 1) {
      const double t = r_re * b_re - r_im * b_im;
      r_im = r_re * b_im + r_im * b_re;
      r_re = t;
    }
    const double t = b_re * b_re - b_im * b_im;
    b_im = 2.0 * b_re * b_im;
    b_re = t;
  }
  return {r_re, r_im};
}

// An upper bound of one reflection's |rho Q| at frequency f in band b (face factors g, angle
// cosine c, k d): |Q| <= min(1, |R| + |1 - R| min(1, 1 / (2 s^2))), s = sqrt(k d / 2)
// (cos theta + 1 / zeta): |F(w)| is below 1 and 1 / (2 s^2) along arg w = pi / 4
// (spherical_reflection.hpp), and |Q| below 1 for a real zeta (checked on a grid of zeta 1 ...
// 200, every angle, k d 1e-3 ... 1e5).
double reflection_bound(const FaceFactors& g, std::size_t b, double c, double kd) {
  double q = std::abs(g.reflection[b]);
  const double zeta = g.impedance[b];
  if (zeta > 0.0) {
    const double r = (zeta * c - 1.0) / (zeta * c + 1.0);
    const double s = std::sqrt(0.5 * kd) * (c + 1.0 / zeta);
    q *= std::min(1.0, std::abs(r) + (1.0 - r) * std::min(1.0, 0.5 / std::max(s * s, 1e-300)));
  }
  return q;
}

// An upper bound of image im's amplitude at frequency f with the factors of band b: the product
// of its reflections' bounds (a box image: each face's bound at its axis' angle, to the power of
// its hits).
double amplitude_bound(const ImageSource& im, const std::vector<FaceFactors>& faces,
                       const BandValues& air, double sound_speed, std::size_t b, double f) {
  const double d = std::max(im.distance, 1e-9);
  const double kd = 2.0 * std::numbers::pi * f / sound_speed * d;
  double a = std::exp(-0.5 * air[b] * d) / (4.0 * std::numbers::pi * d);
  if (!im.reflections.empty()) {
    for (const Reflection& r : im.reflections)
      a *= reflection_bound(faces[r.face], b, r.cos_theta, kd);
    return a;
  }
  for (int face = 0; face < 6; ++face) {
    if (im.hits[face] == 0) continue;
    double q = reflection_bound(faces[face], b, std::abs(im.direction[face / 2]), kd);
    for (int n = im.hits[face]; n > 0; n >>= 1, q *= q)
      if (n & 1) a *= q;
  }
  return a;
}

// The images the phased sum keeps: per kCullBin of delay and per band below `top`, the weakest
// images (by amplitude_bound at the band's lower edge) whose energies add up to at most
// kCullFraction of the bin's are dropped from it; an image dropped from every band is left out.
std::vector<const ImageSource*> strong_images(const std::vector<ImageSource>& images,
                                              const std::vector<FaceFactors>& faces,
                                              const BandValues& air, double sound_speed, double low,
                                              double top) {
  const std::vector<double> edges = geo_band_edges();
  std::vector<std::size_t> bands;
  std::vector<double> lower;
  for (std::size_t b = 0; b < kGeoBandCount; ++b) {
    const double upper = b + 1 < kGeoBandCount ? edges[b] : top;
    const double f = std::max(low, b == 0 ? 0.0 : edges[b - 1]);
    if (f < top && upper > low) bands.push_back(b), lower.push_back(f);
  }
  std::vector<std::vector<std::size_t>> bins;
  for (std::size_t i = 0; i < images.size(); ++i) {
    const auto k = static_cast<std::size_t>(std::max(images[i].delay, 0.0) / kCullBin);
    if (k >= bins.size()) bins.resize(k + 1);
    bins[k].push_back(i);
  }
  std::vector<char> keep(images.size(), 0);
  std::vector<std::pair<double, std::size_t>> e;
  for (const auto& bin : bins) {
    for (std::size_t j = 0; j < bands.size(); ++j) {
      e.clear();
      double total = 0.0;
      for (std::size_t i : bin) {
        const double a = amplitude_bound(images[i], faces, air, sound_speed, bands[j], lower[j]);
        e.emplace_back(a * a, i);
        total += a * a;
      }
      std::sort(e.begin(), e.end());
      double dropped = 0.0;
      for (const auto& [energy, i] : e) {
        dropped += energy;
        if (dropped > kCullFraction * total) keep[i] = 1;
      }
    }
  }
  std::vector<const ImageSource*> out;
  for (std::size_t i = 0; i < images.size(); ++i)
    if (keep[i]) out.push_back(&images[i]);
  return out;
}

std::size_t fft_length(std::size_t samples) {
  std::size_t n = 2;
  while (n < 2 * std::max<std::size_t>(samples, 1)) n *= 2;
  return n;
}

}  // namespace

double phased_weight(double f, double limit) {
  if (limit <= 0.0 || f <= 0.5 * limit) return 1.0;
  if (f >= limit) return 0.0;
  const double c = std::cos(0.5 * std::numbers::pi * std::log2(2.0 * f / limit));
  return c * c;
}

std::vector<std::vector<double>> phased_image_response(const std::vector<ImageSource>& images,
                                                       const BoxImageParams& box, double rate,
                                                       std::size_t samples, bool bformat,
                                                       double limit,
                                                       const std::function<void(double)>& poll) {
  std::vector<FaceFactors> faces(6);
  for (int f = 0; f < 6; ++f) faces[f] = {box.reflection[f], box.impedance[f]};
  return phased_image_response(images, faces, box.air, box.sound_speed, rate, samples, bformat,
                               limit, poll);
}

std::vector<std::vector<double>> phased_image_response(
    const std::vector<ImageSource>& images, const std::vector<FaceFactors>& faces,
    const BandValues& air_rate, double sound_speed, double rate, std::size_t samples, bool bformat,
    double limit, const std::function<void(double)>& poll) {
  const std::size_t channels = bformat ? 4 : 1;
  std::vector<std::vector<double>> out(channels, std::vector<double>(samples, 0.0));
  if (samples == 0 || images.empty()) return out;
  const std::size_t n = fft_length(samples), bins = n / 2 + 1;
  const double df = rate / static_cast<double>(n), c = sound_speed;
  const double top = limit > 0.0 ? std::min(limit, 0.5 * rate) : 0.5 * rate;
  // Bins 0 .. used - 1 carry the sum; the weight is 0 above.
  const std::size_t used = std::min(bins, static_cast<std::size_t>(std::ceil(top / df)) + 1);

  // The grid: log-spaced from the first bin above 0 Hz to `top`.
  const double f0 = std::min(df, 0.5 * top);
  const double f1 = top;
  const auto points = std::max<std::size_t>(
      2, static_cast<std::size_t>(std::ceil(kGridPerOctave * std::log2(f1 / f0))) + 1);
  std::vector<double> grid(points);
  for (std::size_t g = 0; g < points; ++g)
    grid[g] = f0 * std::exp2(std::log2(f1 / f0) * static_cast<double>(g) /
                             static_cast<double>(points - 1));
  std::vector<BandPoint> where(points);
  const std::size_t nf = faces.size();
  std::vector<std::vector<double>> zeta(nf), rho(nf);
  std::vector<double> air(points);
  for (std::size_t f = 0; f < nf; ++f) zeta[f].resize(points), rho[f].resize(points);
  for (std::size_t g = 0; g < points; ++g) {
    where[g] = band_point(grid[g]);
    air[g] = at(air_rate, where[g]);
    for (std::size_t f = 0; f < nf; ++f) {
      zeta[f][g] = impedance_at(faces[f].impedance, where[g]);
      rho[f][g] = at(faces[f].reflection, where[g]);
    }
  }
  // Box images (hits): the two faces of an axis with the same impedance and factor share their Q.
  std::array<bool, 3> twin{};
  if (nf >= 6)
    for (int a = 0; a < 3; ++a)
      twin[a] = zeta[2 * a] == zeta[2 * a + 1] && rho[2 * a] == rho[2 * a + 1];
  // Each bin's grid interval and the weights of its two ends, times phased_weight (bin 0, DC,
  // takes the first grid point).
  const std::size_t padded = (used + kBlock - 1) / kBlock * kBlock;
  std::vector<std::size_t> cell(padded, 0);
  std::vector<double> w_lo(padded, 0.0), w_hi(padded, 0.0);
  for (std::size_t k = 0, g = 0; k < used; ++k) {
    const double f = std::max(static_cast<double>(k) * df, f0);
    while (g + 2 < points && grid[g + 1] < f) ++g;
    cell[k] = g;
    const double t = std::clamp(std::log(f / grid[g]) / std::log(grid[g + 1] / grid[g]), 0.0, 1.0);
    const double taper = phased_weight(static_cast<double>(k) * df, limit);
    w_lo[k] = (1.0 - t) * taper, w_hi[k] = t * taper;
  }

  // The spectrum as separate real and imaginary parts per channel (the loop below vectorises).
  std::vector<std::vector<double>> re(channels, std::vector<double>(padded, 0.0)),
      im_part(channels, std::vector<double>(padded, 0.0));
  std::vector<cplx> a(points);
  std::vector<double> a_re(points), a_im(points);
  std::array<double, kBlock> base_re{}, base_im{}, s_re{}, s_im{};
  const std::vector<const ImageSource*> kept = strong_images(images, faces, air_rate, c, f0, top);
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (poll && i % kPollImages == 0)
      poll(static_cast<double>(i) / static_cast<double>(kept.size()));
    const ImageSource& im = *kept[i];
    const double d = std::max(im.distance, 1e-9);
    const double cos_axis[3] = {std::abs(im.direction.x), std::abs(im.direction.y),
                                std::abs(im.direction.z)};
    for (std::size_t g = 0; g < points; ++g) {
      const double kd = 2.0 * std::numbers::pi * grid[g] / c * d;
      cplx r = std::exp(-0.5 * air[g] * d) / (4.0 * std::numbers::pi * d);
      // A polyhedral image: each reflection with its own angle.
      for (const Reflection& ref : im.reflections)
        r *= rho[ref.face][g] *
             std::conj(spherical_reflection(zeta[ref.face][g], ref.cos_theta, kd));
      for (int ax = 0; ax < 3 && im.reflections.empty(); ++ax) {
        const int lo = im.hits[2 * ax], hi = im.hits[2 * ax + 1];
        if (lo + hi == 0) continue;
        const auto factor = [&](int f) {
          return rho[f][g] * std::conj(spherical_reflection(zeta[f][g], cos_axis[ax], kd));
        };
        if (twin[ax]) {
          r *= power(factor(2 * ax), lo + hi);
          continue;
        }
        if (lo > 0) r *= power(factor(2 * ax), lo);
        if (hi > 0) r *= power(factor(2 * ax + 1), hi);
      }
      a[g] = r;
    }
    // v = the factors interpolated to the bins, times exp(-i 2 pi f d / c): the exponential in
    // blocks of kBlock bins, exp(-i phi (m kBlock + j)) = block_m base_j, so that the inner loop
    // has no recurrence (it vectorises) and the recurrence runs once per block.
    for (std::size_t g = 0; g < points; ++g) a_re[g] = a[g].real(), a_im[g] = a[g].imag();
    const double phi = 2.0 * std::numbers::pi * df * d / c;
    for (std::size_t j = 0; j < kBlock; ++j) {
      base_re[j] = std::cos(phi * static_cast<double>(j));
      base_im[j] = -std::sin(phi * static_cast<double>(j));
    }
    const double step_re = std::cos(phi * kBlock), step_im = -std::sin(phi * kBlock);
    double block_re = 1.0, block_im = 0.0;
    const double weights[4] = {1.0, im.direction.y, im.direction.z, im.direction.x};
    for (std::size_t k0 = 0; k0 < padded; k0 += kBlock) {
      for (std::size_t j = 0; j < kBlock; ++j) {
        const std::size_t k = k0 + j, g = cell[k];
        const double v_re = w_lo[k] * a_re[g] + w_hi[k] * a_re[g + 1];
        const double v_im = w_lo[k] * a_im[g] + w_hi[k] * a_im[g + 1];
        const double t_re = block_re * base_re[j] - block_im * base_im[j];
        const double t_im = block_re * base_im[j] + block_im * base_re[j];
        s_re[j] = v_re * t_re - v_im * t_im;
        s_im[j] = v_re * t_im + v_im * t_re;
      }
      for (std::size_t ch = 0; ch < channels; ++ch) {
        double* out_re = re[ch].data() + k0;
        double* out_im = im_part[ch].data() + k0;
        const double w = weights[ch];
        for (std::size_t j = 0; j < kBlock; ++j) out_re[j] += w * s_re[j], out_im[j] += w * s_im[j];
      }
      const double t = block_re * step_re - block_im * step_im;
      block_im = block_re * step_im + block_im * step_re;
      block_re = t;
    }
  }

  std::vector<double> x(n);
  std::vector<cplx> h(bins);
  fftw_plan plan = fftw_plan_dft_c2r_1d(
      static_cast<int>(n), reinterpret_cast<fftw_complex*>(h.data()), x.data(), FFTW_ESTIMATE);
  for (std::size_t ch = 0; ch < channels; ++ch) {
    std::fill(h.begin(), h.end(), cplx{});
    for (std::size_t k = 0; k < used; ++k) h[k] = {re[ch][k], im_part[ch][k]};
    h[0] = h[0].real();
    h[bins - 1] = h[bins - 1].real();
    fftw_execute_dft_c2r(plan, reinterpret_cast<fftw_complex*>(h.data()), x.data());
    for (std::size_t i = 0; i < samples; ++i) out[ch][i] = x[i] / static_cast<double>(n);
  }
  fftw_destroy_plan(plan);
  return out;
}

void phased_complement(std::vector<double>& x, double rate, double limit) {
  if (limit <= 0.0) {
    std::fill(x.begin(), x.end(), 0.0);
    return;
  }
  if (x.empty()) return;
  const std::size_t n = fft_length(x.size()), bins = n / 2 + 1;
  std::vector<double> y(n, 0.0);
  std::copy(x.begin(), x.end(), y.begin());
  std::vector<cplx> h(bins);
  fftw_plan fwd = fftw_plan_dft_r2c_1d(static_cast<int>(n), y.data(),
                                       reinterpret_cast<fftw_complex*>(h.data()), FFTW_ESTIMATE);
  fftw_plan inv = fftw_plan_dft_c2r_1d(
      static_cast<int>(n), reinterpret_cast<fftw_complex*>(h.data()), y.data(), FFTW_ESTIMATE);
  fftw_execute(fwd);
  const double df = rate / static_cast<double>(n);
  for (std::size_t k = 0; k < bins; ++k)
    h[k] *= (1.0 - phased_weight(static_cast<double>(k) * df, limit)) / static_cast<double>(n);
  fftw_execute(inv);
  fftw_destroy_plan(fwd);
  fftw_destroy_plan(inv);
  std::copy(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(x.size()), x.begin());
}

}  // namespace sphreverb
