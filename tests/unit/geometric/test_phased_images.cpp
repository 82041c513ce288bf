// Phased image sources (geometric/phased_images.hpp): the spherical-wave reflection factor
// against values of an independent implementation (scipy's wofz), its limits, a single image as
// an exact delayed tap, and a rigid box's phased sum against its octave-band taps.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "sphreverb/audio/filters.hpp"
#include "sphreverb/geometric/image_sources.hpp"
#include "sphreverb/geometric/phased_images.hpp"
#include "sphreverb/geometric/spherical_reflection.hpp"
#include "sphreverb/geometric/synthesis.hpp"

namespace sphreverb {
namespace {

TEST(SphericalReflection, MatchesAnIndependentFaddeevaImplementation) {
  // (zeta, cos theta, k r) -> Q from scipy.special.wofz: near grazing (libcerf) and far from it
  // (the asymptotic series, |w| > 6).
  struct Case {
    double zeta, cos_theta, kr;
    std::complex<double> q;
  };
  const Case cases[] = {
      {5.3, 0.05, 10.0, {0.11278844097837548, 0.4308171207162083}},
      {5.3, 0.3, 50.0, {0.24142896259195754, 0.0595850527602931}},
      {5.3, 0.9, 200.0, {0.6533980440191369, 0.0014618690738884578}},
      {30.0, 0.02, 5.0, {0.8687475984448616, 0.11526947904105422}},
      {5.3, 0.01, 2000.0, {-0.8984260629356177, 0.024001064712895}},
      {5.3, 0.2, 1.0, {0.6843842612757559, 0.21226037540383816}},
  };
  for (const Case& c : cases) {
    const std::complex<double> q = spherical_reflection(c.zeta, c.cos_theta, c.kr);
    EXPECT_NEAR(q.real(), c.q.real(), 1e-6) << c.zeta << " " << c.cos_theta << " " << c.kr;
    EXPECT_NEAR(q.imag(), c.q.imag(), 1e-6) << c.zeta << " " << c.cos_theta << " " << c.kr;
  }
}

TEST(SphericalReflection, TheTabulatedGroundWaveMatchesBetweenItsNodes) {
  // Values of s = |w| between the table's nodes (0.01 apart) and across the asymptotic switch
  // at 6, against scipy's wofz: the cubic Hermite interpolation is good to 1e-8.
  struct Case {
    double zeta, cos_theta, kr;
    std::complex<double> q;
  };
  const Case cases[] = {
      {5.3, 0.1, 0.437, {0.7824090083722766, 0.17746309635690924}},     // s = 0.13494
      {12.0, 0.03, 3.3333, {0.7352667669077915, 0.21242490381009455}},  // s = 0.14631
      {2.0, 0.4, 17.77, {-0.0969920156484838, 0.07270677441157823}},    // s = 2.68269
      {8.0, 0.0, 123.4, {-0.6063248451422147, 0.4697681902149625}},     // s = 0.98187
      {3.0, 0.7, 0.001, {0.981326428222621, 0.018004387363382297}},     // s = 0.02311
  };
  for (const Case& c : cases) {
    const std::complex<double> q = spherical_reflection(c.zeta, c.cos_theta, c.kr);
    EXPECT_NEAR(q.real(), c.q.real(), 1e-8) << c.zeta << " " << c.cos_theta << " " << c.kr;
    EXPECT_NEAR(q.imag(), c.q.imag(), 1e-8) << c.zeta << " " << c.cos_theta << " " << c.kr;
  }
}

TEST(SphericalReflection, RigidIsOneAndFarFromGrazingIsThePlaneWaveFactor) {
  EXPECT_EQ(spherical_reflection(0.0, 0.3, 10.0), std::complex<double>(1.0, 0.0));
  const double zeta = 4.0, c = 0.8;
  const std::complex<double> q = spherical_reflection(zeta, c, 1e6);
  EXPECT_NEAR(q.real(), (zeta * c - 1.0) / (zeta * c + 1.0), 1e-5);
  EXPECT_NEAR(q.imag(), 0.0, 1e-5);
  // At grazing incidence close to the source the plane-wave factor is -1, Q near +1.
  EXPECT_GT(spherical_reflection(zeta, 0.0, 0.01).real(), 0.9);
}

TEST(PhasedImages, ADirectSoundOnASampleIsOneTapOfOneOverFourPiD) {
  const double rate = 48000.0, c = 343.0, d = 343.0 * 100.0 / rate;  // 100 samples away
  ImageSource direct;
  direct.distance = d, direct.delay = d / c, direct.direction = {1.0, 0.0, 0.0};
  BoxImageParams box;
  box.sound_speed = c;
  const auto y = phased_image_response({direct}, box, rate, 400);
  ASSERT_EQ(y.size(), 1u);
  for (std::size_t i = 0; i < y[0].size(); ++i)
    EXPECT_NEAR(y[0][i], i == 100 ? 1.0 / (4.0 * std::numbers::pi * d) : 0.0, 1e-12) << i;
  // B-format: X = W for a sound from +x, Y = Z = 0.
  const auto b = phased_image_response({direct}, box, rate, 400, true);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_NEAR(b[3][100], b[0][100], 1e-12);
  EXPECT_NEAR(b[1][100], 0.0, 1e-12);
}

TEST(PhasedImages, ARigidBoxIsItsTapsBandLimited) {
  // Rigid faces (Q = 1, reflection 1): the phased sum is the taps' sum with exact delays, so
  // their energies agree and the two responses low-passed far below the rate match closely.
  BoxImageParams box;
  box.lo = {0, 0, 0}, box.hi = {1.2, 0.9, 0.7};
  box.source = {0.3, 0.4, 0.35}, box.receiver = {0.8, 0.5, 0.3};
  for (auto& f : box.reflection) f.fill(1.0);
  box.max_delay = 0.02;
  const double rate = 44100.0;
  const std::size_t n = static_cast<std::size_t>(0.025 * rate);
  const auto images = box_image_sources(box);
  const auto phased = phased_image_response(images, box, rate, n)[0];
  const auto taps = synthesize_response(images, {}, {rate, n, 1e-3, 1});
  const auto low = [&](const std::vector<double>& x) {
    return butterworth_lowpass(Signal{rate, x}, 2000.0, 8).samples;
  };
  const auto a = low(phased), b = low(taps);
  double e_a = 0.0, e_b = 0.0, e_d = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    e_a += a[i] * a[i], e_b += b[i] * b[i], e_d += (a[i] - b[i]) * (a[i] - b[i]);
  EXPECT_NEAR(10.0 * std::log10(e_a / e_b), 0.0, 0.05);
  // The taps' delays are rounded to half a sample: below 2 kHz that is a phase error under
  // 8 degrees, a difference 20 dB below the signal.
  EXPECT_LT(e_d / e_b, 0.01);
}

TEST(PhasedImages, TheWeightIsOneBelowHalfTheLimitAndZeroAtIt) {
  const double limit = 6400.0;
  EXPECT_EQ(phased_weight(100.0, limit), 1.0);
  EXPECT_EQ(phased_weight(3200.0, limit), 1.0);
  EXPECT_NEAR(phased_weight(3200.0 * std::numbers::sqrt2, limit), 0.5, 1e-12);
  EXPECT_EQ(phased_weight(6400.0, limit), 0.0);
  EXPECT_EQ(phased_weight(20000.0, 0.0), 1.0);
}

TEST(PhasedImages, BelowTheLimitPlusTheComplementIsTheFullBand) {
  // An absorbing box: the phased sum below a limit plus the full-band sum through the
  // complement is the full-band sum (the weights add to 1), up to the images each leaves out
  // (kCullFraction per band and millisecond).
  BoxImageParams box;
  box.lo = {0, 0, 0}, box.hi = {1.2, 0.9, 0.7};
  box.source = {0.3, 0.4, 0.35}, box.receiver = {0.8, 0.5, 0.3};
  for (auto& f : box.reflection) f.fill(std::sqrt(0.9));
  box.impedance[5].fill(5.3);
  box.max_delay = 0.03;
  const double rate = 44100.0;
  const std::size_t n = static_cast<std::size_t>(0.035 * rate);
  const auto images = box_image_sources(box);
  const auto full = phased_image_response(images, box, rate, n)[0];
  const double limit = 4000.0;
  auto sum = phased_image_response(images, box, rate, n, false, limit)[0];
  auto rest = full;
  phased_complement(rest, rate, limit);
  double e = 0.0, e_d = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    e += full[i] * full[i], e_d += (sum[i] + rest[i] - full[i]) * (sum[i] + rest[i] - full[i]);
  EXPECT_LT(e_d / e, 1e-3);
  // The part below the limit holds some of the energy, not all of it.
  double e_band = 0.0;
  for (double x : sum) e_band += x * x;
  EXPECT_LT(e_band / e, 0.9);
  EXPECT_GT(e_band / e, 0.01);
}

TEST(ButterworthGroupDelay, MatchesTheDigitalFilter) {
  // scipy.signal.group_delay of butter(4, 857.5, fs=44100) at 600 and 300 Hz: 0.651149 and
  // 0.512902 ms.
  EXPECT_NEAR(butterworth_group_delay(600.0, 857.5, 4, 44100.0), 0.651149e-3, 2e-6);
  EXPECT_NEAR(butterworth_group_delay(300.0, 857.5, 4, 44100.0), 0.512902e-3, 2e-6);
}

}  // namespace
}  // namespace sphreverb
