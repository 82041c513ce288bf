// Component-wise comparison of two vectors for the model tests. Header-only, included by the
// tests of this folder.
#pragma once

#include <gtest/gtest.h>

#include "sphreverb/core/vec3.hpp"

namespace sphreverb::test {

// Each component of a within tol (absolute) of b's.
inline void expect_vec_near(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

}  // namespace sphreverb::test
