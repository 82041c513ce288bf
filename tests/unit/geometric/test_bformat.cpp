// Directions in the geometric part: the ray tracer's directional moments, the first-order
// B-format synthesis (W the omnidirectional response, the direction weights of taps and tail) and
// the join of every channel with the omnidirectional gain.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sphreverb/geometric/hybrid.hpp"
#include "sphreverb/geometric/image_sources.hpp"
#include "sphreverb/geometric/ray_tracer.hpp"
#include "sphreverb/geometric/surfaces.hpp"
#include "sphreverb/geometric/synthesis.hpp"

namespace sphreverb {
namespace {

constexpr double kRate = 44100.0;

Mesh cube(double size) {
  Mesh m;
  add_box(m, {0, 0, 0}, {size, size, size}, {0, 0, 0, 0, 0, 0});
  return m;
}

double angle_deg(const Vec3& a, const Vec3& b) {
  return std::acos(std::clamp(dot(a, b) / (norm(a) * norm(b)), -1.0, 1.0)) * 180.0 /
         std::numbers::pi;
}

// A box's image sources to 20 ms and a traced histogram with its moments (receiver 0).
struct Geometric {
  std::vector<ImageSource> taps;
  std::vector<std::vector<double>> energy;
  std::vector<std::vector<BinMoments>> moments;
};

Geometric small_room() {
  Geometric g;
  BoxImageParams ip;
  ip.lo = {0, 0, 0}, ip.hi = {2, 2, 2};
  ip.source = {0.7, 0.8, 0.9}, ip.receiver = {1.4, 1.1, 1.2};
  for (auto& f : ip.reflection) f = {0.9, 0.9, 0.85, 0.8, 0.8, 0.7, 0.6};
  ip.max_delay = 0.02;
  g.taps = box_image_sources(ip);
  RayTracer tracer(cube(2.0), {GeoMaterial{{0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4}, 0.5}});
  RayTraceParams p;
  p.source = ip.source, p.receivers = {ip.receiver};
  p.receiver_radius = 0.2, p.rays = 2000, p.bins = 60, p.specular_until = 0.02;
  const EnergyHistogram h = tracer.trace(p);
  for (std::size_t b = 0; b < kGeoBandCount; ++b) {
    g.energy.push_back(h.series(0, b));
    g.moments.push_back(h.moment_series(0, b));
  }
  return g;
}

TEST(Bformat, WIsTheOmnidirectionalResponseSampleForSample) {
  const Geometric g = small_room();
  const SynthesisParams sp{kRate, 2646, 1e-3, 3};
  const auto omni = synthesize_response(g.taps, g.energy, sp);
  const auto b = synthesize_bformat(g.taps, g.energy, g.moments, sp);
  ASSERT_EQ(b.size(), 4u);
  for (std::size_t i = 0; i < omni.size(); ++i) ASSERT_EQ(b[0][i], omni[i]) << i;
  double e_dir = 0.0;
  for (std::size_t c = 1; c < 4; ++c)
    for (double v : b[c]) e_dir += v * v;
  EXPECT_GT(e_dir, 0.0);
}

TEST(Bformat, ATapIsWeightedByTheDirectionItComesFrom) {
  ImageSource tap;
  tap.delay = 300.0 / kRate, tap.amplitude = {1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4};
  tap.direction = {0.6, 0.0, -0.8};
  const auto b = synthesize_bformat({tap}, {}, {}, {kRate, 1000, 1e-3, 1});
  for (std::size_t i = 0; i < 1000; ++i) {  // W Y Z X = W (1, u_y, u_z, u_x)
    EXPECT_NEAR(b[1][i], 0.0, 1e-15);
    EXPECT_NEAR(b[2][i], -0.8 * b[0][i], 1e-14);
    EXPECT_NEAR(b[3][i], 0.6 * b[0][i], 1e-14);
  }
}

TEST(Bformat, TheTailHasItsBinsIntensityAndSpread) {
  // Equal bands: the zero-phase split sums to its input, so the channels are the per-bin noise
  // itself. Bin k: E = 1e-3, first moments E (0.3, -0.2, 0), second E (0.2, 0.3, 0.5). W is
  // exact; the axes to the independent streams' chance correlation, standard deviation
  // 1 / sqrt(samples) = 0.0034 of E.
  const std::size_t bins = 2000;
  std::vector<std::vector<double>> energy(kGeoBandCount, std::vector<double>(bins, 1e-3));
  std::vector<std::vector<BinMoments>> moments(
      kGeoBandCount, std::vector<BinMoments>(bins, {3e-4, -2e-4, 0.0, 2e-4, 3e-4, 5e-4}));
  const auto b = synthesize_bformat({}, energy, moments, {kRate, 88200, 1e-3, 5});
  auto sum = [&](std::size_t c1, std::size_t c2) {
    double s = 0.0;
    for (std::size_t i = 0; i < b[0].size(); ++i) s += b[c1][i] * b[c2][i];
    return s;
  };
  const double e = 1e-3 * bins;
  EXPECT_NEAR(sum(0, 0) / e, 1.0, 1e-6);
  EXPECT_NEAR(sum(0, 3) / e, 0.3, 0.012);   // X: sum W X = sum M_x
  EXPECT_NEAR(sum(0, 1) / e, -0.2, 0.012);  // Y
  EXPECT_NEAR(sum(0, 2) / e, 0.0, 0.012);   // Z
  EXPECT_NEAR(sum(3, 3) / e, 0.2, 0.012);   // sum a^2 = Q_a
  EXPECT_NEAR(sum(1, 1) / e, 0.3, 0.012);
  EXPECT_NEAR(sum(2, 2) / e, 0.5, 0.012);
  EXPECT_NEAR(sum(1, 3) / e, -0.06, 0.012);  // sum X Y: the mean directions' product M_x M_y / E
}

TEST(Bformat, DirectSoundMomentsPointAtTheSource) {
  // Rays only (no image sources): the direct sound's bins hold energy from the source's
  // direction, -x seen from the receiver, and nothing across it.
  RayTracer tracer(cube(200.0), {GeoMaterial{}});
  RayTraceParams p;
  p.source = {100, 100, 100};
  p.receivers = {{103, 100, 100}};
  p.receiver_radius = 0.5;
  p.rays = 100000;
  p.bins = 30;
  const EnergyHistogram h = tracer.trace(p);
  Vec3 m;
  double e = 0.0, qx = 0.0;
  for (std::size_t k = 0; k < p.bins; ++k) {
    const auto mom = h.moment_series(0, 3)[k];
    m = m + Vec3{mom[0], mom[1], mom[2]};
    e += h.at(0, 3, k), qx += mom[3];
  }
  ASSERT_GT(e, 0.0);
  EXPECT_LT(angle_deg(m, {-1, 0, 0}), 0.5);
  EXPECT_NEAR(norm(m) / e, 1.0, 0.02);  // rays within r / d of the axis
  EXPECT_NEAR(qx / e, 1.0, 0.02);
}

TEST(Bformat, DiffuseTailHasNoMeanDirectionAndAnIsotropicSpread) {
  // A cube with Lambert walls: after a few reflections the energy arrives from all directions
  // alike, |sum e u| << sum e and sum e u_a^2 = E / 3 per axis.
  RayTracer tracer(cube(2.0), {GeoMaterial{{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 1.0}});
  RayTraceParams p;
  p.source = {0.7, 0.8, 0.9}, p.receivers = {{1.2, 1.1, 1.0}};
  p.receiver_radius = 0.3, p.rays = 4000, p.bins = 120;
  const EnergyHistogram h = tracer.trace(p);
  Vec3 m;
  double e = 0.0, q[3] = {0, 0, 0};
  for (std::size_t k = 30; k < p.bins; ++k) {
    const auto mom = h.moment_series(0, 0)[k];
    m = m + Vec3{mom[0], mom[1], mom[2]};
    e += h.at(0, 0, k);
    for (int a = 0; a < 3; ++a) q[a] += mom[3 + a];
  }
  ASSERT_GT(e, 0.0);
  EXPECT_LT(norm(m) / e, 0.05);
  for (double v : q) EXPECT_NEAR(v / e, 1.0 / 3.0, 0.03);
}

TEST(Bformat, MomentsSumInBlockOrderToTheSameTotal) {
  RayTracer tracer(cube(2.0), {GeoMaterial{{0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4}, 0.3}});
  RayTraceParams p;
  p.source = {0.7, 0.8, 0.9}, p.receivers = {{1.4, 1.1, 1.2}};
  p.receiver_radius = 0.2, p.rays = 3000, p.block_rays = 500, p.bins = 60;
  const EnergyHistogram total = tracer.trace(p);
  std::vector<EnergyHistogram> blocks(RayTracer::block_count(p));
  for (std::uint64_t b = blocks.size(); b-- > 0;) blocks[b] = tracer.trace_block(p, b);
  EnergyHistogram sum(1, p.bins);
  for (const auto& b : blocks) add_histogram(sum, b);
  ASSERT_EQ(sum.moments.size(), total.moments.size());
  for (std::size_t i = 0; i < sum.moments.size(); ++i) ASSERT_EQ(sum.moments[i], total.moments[i]);
}

TEST(Bformat, JoiningWithTheOmnidirectionalGainGivesTheJoinedOmniResponse) {
  const Geometric g = small_room();
  const SynthesisParams sp{kRate, 2646, 1e-3, 3};
  const auto b = synthesize_bformat(g.taps, g.energy, g.moments, sp);
  std::vector<double> sph(sp.samples, 0.0);  // a decaying 300 Hz tone as the SPH part
  for (std::size_t i = 0; i < sph.size(); ++i) {
    const double t = static_cast<double>(i) / kRate;
    sph[i] = 0.02 * std::exp(-t / 0.01) * std::sin(2.0 * std::numbers::pi * 300.0 * t);
  }
  const HybridParams hp{kRate, 700.0, 0.0};
  const HybridResult omni = join_hybrid(sph, synthesize_response(g.taps, g.energy, sp), hp);
  const std::vector<double> w = crossover_join(sph, b[0], omni.gain, hp);
  ASSERT_EQ(w.size(), omni.full.size());
  for (std::size_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], omni.full[i]) << i;
}

}  // namespace
}  // namespace sphreverb
