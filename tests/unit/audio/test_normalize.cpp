// Tests of remove_dc_and_normalize (normalize.hpp): zero mean, unit peak, silence stays silent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sphreverb/audio/normalize.hpp"

namespace sphreverb {
namespace {

TEST(AudioNormalize, MeanZeroPeakOne) {
  const std::vector<double> y = remove_dc_and_normalize({1.0, 2.0, 3.0, 10.0, -4.0});
  double mean = 0.0, peak = 0.0;
  for (double v : y) {
    mean += v;
    peak = std::max(peak, std::abs(v));
  }
  EXPECT_NEAR(mean / static_cast<double>(y.size()), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(peak, 1.0);
  EXPECT_DOUBLE_EQ(y[3], 1.0);  // 10 - 2.4 is the largest deviation

  EXPECT_EQ(remove_dc_and_normalize({0.0, 0.0, 0.0}), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(remove_dc_and_normalize({0.1, 0.1, 0.1}), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_TRUE(remove_dc_and_normalize({}).empty());
}

}  // namespace
}  // namespace sphreverb
