// An n^3 cube of air particles on the lattice of spacing dx, at rest at density rho0, all owned,
// keys their lattice ids (index order = key order, as the solver keeps its owned particles): the
// free lattice block of the physics tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sphreverb/core/particles.hpp"

namespace sphreverb::test_support {

inline Particles lattice_cube(int n, double dx, double rho0) {
  Particles p;
  p.resize(static_cast<std::size_t>(n) * n * n);
  p.n_owned = p.size();
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const auto id = static_cast<std::size_t>((k * n + j) * n + i);
        p.x[id] = dx * i, p.y[id] = dx * j, p.z[id] = dx * k;
        p.rho[id] = rho0;
        p.key[id] = image_key(static_cast<std::int64_t>(id), kRealImage);
      }
  return p;
}

}  // namespace sphreverb::test_support
