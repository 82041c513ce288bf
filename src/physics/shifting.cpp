#include "sphreverb/physics/shifting.hpp"

#include <cmath>
#include <cstdint>

#include "physics/detail/pair_loop.hpp"
#include "sphreverb/physics/kernel.hpp"

namespace sphreverb {

namespace {

using detail::pair_sums;
using detail::pair_sums_of;
using detail::shape_of;
using detail::View;

// grad C_i / (V scale) = sum_j x_ij shape_ij, the concentration gradient (V = m / rho0).
template <class Shape>
struct ConcentrationTerm {
  static constexpr int kSums = 3;
  View v;
  Shape shape;
  template <class I>
  void operator()(I i, I j, double (&t)[kSums]) const {
    const double dx = v.x[i] - v.x[j], dy = v.y[i] - v.y[j], dz = v.z[i] - v.z[j];
    const double s = shape(dx * dx + dy * dy + dz * dz);
    t[0] = s * dx, t[1] = s * dy, t[2] = s * dz;
  }
};

// The derivatives along the shift d_i of rho and v, over V scale: sum_j (f_j - f_i) (d_i . x_ij)
// shape_ij (zero where d_i = 0).
template <class Shape>
struct AlongShiftTerm {
  static constexpr int kSums = 4;
  View v;
  const double* __restrict sx;
  const double* __restrict sy;
  const double* __restrict sz;
  Shape shape;
  template <class I>
  void operator()(I i, I j, double (&t)[kSums]) const {
    const double dx = v.x[i] - v.x[j], dy = v.y[i] - v.y[j], dz = v.z[i] - v.z[j];
    const double g = (sx[i] * dx + sy[i] * dy + sz[i] * dz) * shape(dx * dx + dy * dy + dz * dz);
    t[0] = (v.rho[j] - v.rho[i]) * g;
    t[1] = (v.vx[j] - v.vx[i]) * g;
    t[2] = (v.vy[j] - v.vy[i]) * g;
    t[3] = (v.vz[j] - v.vz[i]) * g;
  }
};

// The passes run over every particle where more than 1 / kAllShare of them move.
constexpr std::size_t kAllShare = 4;

}  // namespace

// Two passes of the pair loop over the particles that move: the concentration gradient, then the
// shift's directional derivatives of rho and v, sum_j (f_j - f_i) (d . grad_i W_ij) V = d . grad f.
// Where most particles move, the passes run over all (the vectorised form; the others get d = 0,
// hence exact zeros); else over those alone. A particle's sums have the same bits either way.
Shift compute_shift(const Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                    double strength, double dt, double dx, const std::vector<char>& movable) {
  const std::size_t n = p.n_owned;
  Shift s;
  for (auto* f : {&s.dx, &s.dy, &s.dz, &s.drho, &s.dvx, &s.dvy, &s.dvz}) f->assign(n, 0.0);
  const double volume = phys.mass / phys.rest_density;
  const double limit = kShiftLimit * dx;
  std::vector<double> speed(n, 0.0);
  std::vector<std::uint32_t> moving;
  for (std::size_t i = 0; i < n; ++i) {
    speed[i] = std::sqrt(p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i]);
    if (movable[i] && speed[i] > kShiftMinSpeed) moving.push_back(static_cast<std::uint32_t>(i));
  }
  if (moving.empty()) return s;
  const bool all = moving.size() * kAllShare > n;
  const auto owned = static_cast<std::uint32_t>(n);
  with_kernel(phys.kernel, phys.h, [&](const auto& kernel) {
    const auto shape = shape_of(kernel);
    const double factor = volume * shape.scale;
    const auto run = [&](const auto& term, auto&& finish) {
      if (all)
        pair_sums(nl, owned, term, finish);
      else
        pair_sums_of(nl, moving, term, finish);
    };
    run(ConcentrationTerm<decltype(shape)>{View(p), shape},
        [&](std::uint32_t i, const double(&gc)[3]) {
          if (!movable[i] || !(speed[i] > kShiftMinSpeed)) return;
          double d[3];
          for (int a = 0; a < 3; ++a) d[a] = -strength * phys.h * speed[i] * dt * factor * gc[a];
          const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
          if (len > limit)
            for (double& c : d) c *= limit / len;
          s.dx[i] = d[0], s.dy[i] = d[1], s.dz[i] = d[2];
        });
    run(AlongShiftTerm<decltype(shape)>{View(p), s.dx.data(), s.dy.data(), s.dz.data(), shape},
        [&](std::uint32_t i, const double(&sum)[4]) {
          s.drho[i] = factor * sum[0];
          s.dvx[i] = factor * sum[1], s.dvy[i] = factor * sum[2], s.dvz[i] = factor * sum[3];
        });
  });
  return s;
}

void apply_shift(Particles& p, const Shift& s) {
  for (std::size_t i = 0; i < s.dx.size(); ++i) {
    p.x[i] += s.dx[i], p.y[i] += s.dy[i], p.z[i] += s.dz[i];
    p.rho[i] += s.drho[i];
    p.vx[i] += s.dvx[i], p.vy[i] += s.dvy[i], p.vz[i] += s.dvz[i];
  }
}

}  // namespace sphreverb
