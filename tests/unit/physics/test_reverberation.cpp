// Sabine and Eyring reverberation times against a box computed by hand, and the random-incidence
// conversion against Paris' closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "sphreverb/physics/reverberation.hpp"

namespace sphreverb {
namespace {

// A 5 x 4 x 3 m box (V = 60 m^3, S = 94 m^2): floor 20 m^2 at alpha 0.3, the other 74 m^2 at
// 0.1 in every band, except 0 for the walls in the first band.
TEST(Reverberation, BoxByHand) {
  std::vector<AbsorbingSurface> s(2);
  s[0].area = 20.0, s[0].alpha_st.fill(0.3);
  s[1].area = 74.0, s[1].alpha_st.fill(0.1);
  s[1].alpha_st[0] = 0.0;
  const Reverberation r = diffuse_field_t60(60.0, s, 343.0);
  EXPECT_DOUBLE_EQ(r.area, 94.0);
  // Band 2: A = 20 * 0.3 + 74 * 0.1 = 13.4 m^2, a = 13.4 / 94 = 0.142553...
  // Sabine 55.262 * 60 / (343 * 13.4) = 0.72141 s; Eyring 55.262 * 60 / (343 * 94 * 0.153796)
  // = 0.66867 s (-ln(1 - 0.142553) = 0.153796).
  EXPECT_NEAR(r.mean_alpha[2], 13.4 / 94.0, 1e-15);
  EXPECT_NEAR(r.sabine[2], 0.72141, 5e-5);
  EXPECT_NEAR(r.eyring[2], 0.66867, 5e-5);
  EXPECT_NEAR(r.sabine[2], 0.161 * 60.0 / 13.4, 0.002);  // the textbook constant at 343 m/s
  // Band 0: A = 6 m^2: Sabine 1.6111 s, Eyring 55.262 * 60 / (343 * 94 * 0.065958) = 1.5592 s.
  EXPECT_NEAR(r.sabine[0], 1.6111, 5e-4);
  EXPECT_NEAR(r.eyring[0], 1.5592, 5e-4);
  for (int b = 0; b < 6; ++b) EXPECT_LT(r.eyring[b], r.sabine[b]);  // Eyring < Sabine, a > 0
}

TEST(Reverberation, RigidAndFullyAbsorbingLimits) {
  std::vector<AbsorbingSurface> s(1);
  s[0].area = 6.0;
  Reverberation r = diffuse_field_t60(1.0, s, 343.0);
  EXPECT_EQ(r.sabine[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.eyring[0], std::numeric_limits<double>::infinity());
  s[0].alpha_st.fill(1.0);
  r = diffuse_field_t60(1.0, s, 343.0);
  EXPECT_EQ(r.eyring[3], 0.0);                                             // nothing comes back
  EXPECT_NEAR(r.sabine[3], 24.0 * std::log(10.0) / (343.0 * 6.0), 1e-12);  // Sabine's known flaw
}

// Paris' formula for a real zeta: (8/zeta^2)[zeta - 2 ln(1 + zeta) + zeta/(1 + zeta)], with
// zeta = (1 + sqrt(1 - alpha_n)) / (1 - sqrt(1 - alpha_n)) (postproc's report does the same).
TEST(Reverberation, RandomIncidenceIsParisOnTheHardBranch) {
  for (double an : {0.01, 0.1, 0.3, 0.6, 0.9}) {
    const double r = std::sqrt(1.0 - an), z = (1.0 + r) / (1.0 - r);
    const double paris = 8.0 / (z * z) * (z - 2.0 * std::log1p(z) + z / (1.0 + z));
    EXPECT_NEAR(random_incidence_absorption(an), paris, 1e-6) << an;
  }
  EXPECT_EQ(random_incidence_absorption(0.0), 0.0);
  EXPECT_NEAR(random_incidence_absorption(1.0), 8.0 * (1.5 - 2.0 * std::log(2.0)), 1e-6);
}

}  // namespace
}  // namespace sphreverb
