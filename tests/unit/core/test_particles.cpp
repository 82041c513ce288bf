// The particle store's layout contracts (particles.hpp): owned entries first, copies after; the
// per-step results exist for the owned entries only; dropping copies and permuting the owned keep
// every field of a particle together; keys decode to the id and the reflection digits.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sphreverb/core/particles.hpp"

namespace sphreverb {
namespace {

// n owned particles whose every field encodes its id k: x = k, y = 10 k, ..., key = image_key(k).
Particles labelled(std::size_t n) {
  Particles p;
  p.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double d = static_cast<double>(k);
    p.x[k] = d, p.y[k] = 10 * d, p.z[k] = 100 * d;
    p.vx[k] = -d, p.vy[k] = -10 * d, p.vz[k] = -100 * d;
    p.rho[k] = 1.0 + d;
    p.ax[k] = 2 * d, p.ay[k] = 20 * d, p.az[k] = 200 * d, p.drho[k] = 3 * d;
    p.key[k] = image_key(static_cast<std::int64_t>(k), kRealImage);
  }
  p.n_owned = n;
  return p;
}

void expect_labelled(const Particles& p, std::size_t i, std::int64_t k) {
  const double d = static_cast<double>(k);
  EXPECT_EQ(p.id(i), k);
  EXPECT_EQ(p.position(i), (Vec3{d, 10 * d, 100 * d})) << "entry " << i;
  EXPECT_EQ(p.velocity(i), (Vec3{-d, -10 * d, -100 * d})) << "entry " << i;
  EXPECT_EQ(p.rho[i], 1.0 + d) << "entry " << i;
  if (i < p.n_owned) {
    EXPECT_EQ(p.ax[i], 2 * d);
    EXPECT_EQ(p.ay[i], 20 * d);
    EXPECT_EQ(p.az[i], 200 * d);
    EXPECT_EQ(p.drho[i], 3 * d);
  }
}

TEST(ParticleKeys, DecodeToTheIdAndTheReflectionDigits) {
  for (const std::int64_t id : {std::int64_t{0}, std::int64_t{1}, std::int64_t{123456789012}})
    for (int image = 0; image < 27; ++image) {
      Particles p;
      p.resize(1);
      p.key[0] = image_key(id, image);
      EXPECT_EQ(p.id(0), id) << "image " << image;
      EXPECT_EQ(p.key[0] % 27, image);
    }
  // Keys of different ids never interleave: every image of id sorts before every image of id + 1.
  EXPECT_LT(image_key(41, 26), image_key(42, 0));
}

TEST(ParticleStore, CopiesCarryTheSharedFieldsButNoPerStepResults) {
  Particles p = labelled(5);
  p.append_copies(3);
  p.n_halo = 2, p.n_ghost = 1;
  EXPECT_EQ(p.size(), 8u);
  for (const auto* v : {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.rho}) EXPECT_EQ(v->size(), 8u);
  EXPECT_EQ(p.key.size(), 8u);
  for (const auto* v : {&p.ax, &p.ay, &p.az, &p.drho}) EXPECT_EQ(v->size(), 5u);
  // New copies start zeroed; the owned are untouched.
  for (std::size_t i = 5; i < 8; ++i) EXPECT_EQ(p.position(i), (Vec3{}));
  for (std::size_t i = 0; i < 5; ++i) expect_labelled(p, i, static_cast<std::int64_t>(i));

  p.drop_copies();
  EXPECT_EQ(p.size(), 5u);
  EXPECT_EQ(p.n_owned, 5u);
  EXPECT_EQ(p.n_halo, 0u);
  EXPECT_EQ(p.n_ghost, 0u);
  for (std::size_t i = 0; i < 5; ++i) expect_labelled(p, i, static_cast<std::int64_t>(i));
}

TEST(ParticleStore, PermuteOwnedMovesEveryFieldTogether) {
  Particles p = labelled(6);
  const std::vector<std::size_t> order{3, 0, 5, 1, 4, 2};
  p.permute_owned(order);
  ASSERT_EQ(p.size(), 6u);
  for (std::size_t i = 0; i < order.size(); ++i)
    expect_labelled(p, i, static_cast<std::int64_t>(order[i]));
}

TEST(ParticleStore, CopyEntryFromAnotherStore) {
  const Particles a = labelled(4);
  Particles b = labelled(2);
  b.copy_entry_from(a, 3, 0);
  expect_labelled(b, 0, 3);
  expect_labelled(b, 1, 1);
  b.copy_entry(0, 1);
  expect_labelled(b, 1, 3);
}

}  // namespace
}  // namespace sphreverb
