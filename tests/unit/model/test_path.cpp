// Tests of keyframed paths (path.hpp) and the monopole's source term (point_source.hpp): linear
// paths hit their keyframes and move at constant speed; smooth ones are C1 (velocity continuous
// at inner keyframes, at rest at both ends) and their velocity is the derivative of their
// position; the Gaussian source distribution sums to one on the lattice, so a source adds
// rho0 Q dx^-3 in total mass rate; the level check's estimate of how far a source pushes the air
// (its peak injected volume, the Gaussian's largest outward displacement).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/model/path.hpp"
#include "sphreverb/model/point_source.hpp"

namespace sphreverb {
namespace {

const std::vector<Keyframe> kKeys = {
    {0.0, {0, 0, 0}}, {1.0, {1, 0, 0}}, {3.0, {1, 2, 0}}, {4.0, {0, 2, 1}}};

TEST(Path, LinearHitsKeyframesAtConstantSpeed) {
  const Path p(kKeys, PathInterpolation::Linear);
  for (const Keyframe& k : kKeys) EXPECT_EQ(p.position(k.t), k.x);
  EXPECT_EQ(p.position(-1.0), kKeys.front().x);
  EXPECT_EQ(p.position(9.0), kKeys.back().x);
  EXPECT_NEAR(p.position(2.0).y, 1.0, 1e-15);
  EXPECT_NEAR(norm(p.velocity(2.5) - Vec3{0, 1, 0}), 0.0, 1e-15);
  int seg = -1;
  EXPECT_NEAR(p.max_speed(&seg), std::sqrt(2.0), 1e-12);
  EXPECT_EQ(seg, 2);
}

TEST(Path, SmoothIsC1AndAtRestAtBothEnds) {
  const Path p(kKeys, PathInterpolation::Smooth);
  for (const Keyframe& k : kKeys) EXPECT_NEAR(norm(p.position(k.t) - k.x), 0.0, 1e-14);
  EXPECT_NEAR(norm(p.velocity(1e-9)), 0.0, 1e-6);
  EXPECT_NEAR(norm(p.velocity(4.0 - 1e-9)), 0.0, 1e-6);
  for (double t : {1.0, 3.0}) {  // inner keyframes: both sides agree
    const Vec3 jump = p.velocity(t + 1e-9) - p.velocity(t - 1e-9);
    EXPECT_LT(norm(jump), 1e-6) << t;
  }
  for (double t : {0.3, 1.7, 2.9, 3.5}) {  // velocity = d position / dt
    const double e = 1e-6;
    const Vec3 fd = (p.position(t + e) - p.position(t - e)) * (0.5 / e);
    EXPECT_LT(norm(fd - p.velocity(t)), 1e-7) << t;
  }
}

TEST(PointSource, GaussianSumsToOneOnTheLattice) {
  const double dx = 0.01, rho0 = 1.2, q = 1e-3;
  Particles p;
  const int n = 21;
  p.resize(static_cast<std::size_t>(n * n * n));
  p.n_owned = p.size();
  std::size_t i = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int c = 0; c < n; ++c, ++i)
        p.x[i] = (a + 0.5) * dx, p.y[i] = (b + 0.5) * dx, p.z[i] = (c + 0.5) * dx;
  for (const bool moving : {false, true}) {
    // Off the lattice sites, s = 1.5 dx: the cut-off 5 s fits in the block.
    std::vector<Keyframe> keys = {{0.0, {0.1043, 0.0987, 0.1011}}};
    if (moving) keys.push_back({1.0, {0.1043, 0.0987, 0.1011}});
    PointSources src({{Path(keys, PathInterpolation::Linear), 1.5 * dx, rho0}});
    src.rebuild(p, 0.002);
    std::fill(p.drho.begin(), p.drho.end(), 0.0);
    src.add_to_continuity(p, {q}, 0.5);
    double total = 0.0;
    for (double d : p.drho) total += d * dx * dx * dx;
    EXPECT_NEAR(total / (rho0 * q), 1.0, 2e-5) << "moving " << moving;  // mass rate rho0 Q
  }
}

// xi(r) = V F(r/s) / (4 pi r^2), F(u) = erf(u / sqrt 2) - sqrt(2 / pi) u exp(-u^2 / 2) the
// Gaussian's mass within r = u s: the constant is its maximum over a fine scan of u.
TEST(PointSource, DisplacementRatioIsTheLargestOutwardDisplacement) {
  double peak = 0.0, at = 0.0;
  for (double u = 0.01; u < 5.0; u += 1e-5) {
    const double f = (std::erf(u / std::numbers::sqrt2) -
                      std::sqrt(2.0 / std::numbers::pi) * u * std::exp(-0.5 * u * u)) /
                     (4.0 * std::numbers::pi * u * u);
    if (f > peak) peak = f, at = u;
  }
  EXPECT_NEAR(kSourceDisplacementPeak / peak, 1.0, 1e-6);
  EXPECT_NEAR(at, 1.3688, 1e-3);
  const double v = 4.1e-6, s = 0.0225;  // V14's pulse at 1 Pa, s = 1.5 x 1.5 cm
  EXPECT_NEAR(source_displacement_ratio(v, s), peak * v / (s * s * s),
              1e-6 * peak * v / (s * s * s));
}

// An acceleration drive of sin(2 pi t / T) over one period T (no leak): the volume is the double
// integral k fs^2 (T / 2 pi) (t - (T / 2 pi) sin(2 pi t / T)), rising to k fs^2 T^2 / (2 pi) at
// the pulse's end and constant after it.
TEST(PointSource, PeakVolumeIsTheDoubleIntegralOfTheInput) {
  const double fs = 44100.0, k = 1e-9;
  const int n = 132;  // T = 3 ms
  Signal in{fs, {}};
  for (int i = 0; i <= n; ++i) in.samples.push_back(std::sin(2.0 * std::numbers::pi * i / n));
  const double t = n / fs, expected = k * fs * fs * t * t / (2.0 * std::numbers::pi);
  const DriveParams drive{Drive::Acceleration, k, 0.5 / fs, 0.0};
  EXPECT_NEAR(source_peak_volume(in, drive, 4 * n) / expected, 1.0, 1e-3);
  // Halfway: the last of n steps is at (n - 1) dt, the pulse's time one sample (two steps) less.
  const double u = (n - 3) / (2.0 * n);
  EXPECT_NEAR(source_peak_volume(in, drive, n) / expected,
              u - std::sin(2.0 * std::numbers::pi * u) / (2.0 * std::numbers::pi), 1e-3);
  EXPECT_EQ(source_peak_volume(in, drive, 0), 0.0);
}

}  // namespace
}  // namespace sphreverb
