#include "sphreverb/physics/interactions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "physics/detail/pair_loop.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/pair_terms.hpp"

namespace sphreverb {

namespace {

using detail::pair_sums;
using detail::shape_of;
using detail::View;

// Momentum: a_i = -m sum_j ((P_i/rho_i^2 + P_j/rho_j^2) G_ij + Pi_ij F_ij) x_ij (pair_terms.hpp),
// with F = scale * shape and G = F (a + b r^2) the lattice-corrected gradient factor.
// Pi_ij = -alpha c h (v_ij . x_ij) / (rho_bar (r^2 + 0.01 h^2)), rho_bar = (rho_i + rho_j)/2
template <bool kViscosity, class Shape>
struct MomentumTerm {
  static constexpr int kSums = 3;
  View v;
  const double* __restrict por2;
  Shape shape;
  double visc, eta2, ga, gb;
  template <class I>
  void operator()(I i, I j, double (&t)[kSums]) const {
    const double dx = v.x[i] - v.x[j], dy = v.y[i] - v.y[j], dz = v.z[i] - v.z[j];
    const double r2 = dx * dx + dy * dy + dz * dz;
    double sum = (por2[i] + por2[j]) * (ga + gb * r2);
    if constexpr (kViscosity) {
      const double vdotx =
          (v.vx[i] - v.vx[j]) * dx + (v.vy[i] - v.vy[j]) * dy + (v.vz[i] - v.vz[j]) * dz;
      sum += visc * vdotx / ((v.rho[i] + v.rho[j]) * (r2 + eta2));
    }
    const double s = sum * shape(r2);
    t[0] = s * dx, t[1] = s * dy, t[2] = s * dz;
  }
};

template <bool kViscosity, class Shape>
void momentum_loop(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                   const Shape shape, const double* __restrict por2) {
  const MomentumTerm<kViscosity, Shape> term{View(p),
                                             por2,
                                             shape,
                                             -2.0 * phys.viscosity * phys.eos.c0 * phys.h,
                                             0.01 * phys.h * phys.h,
                                             phys.gradient.a,
                                             phys.gradient.b};
  const double factor = -phys.mass * shape.scale;
  double* __restrict ax = p.ax.data();
  double* __restrict ay = p.ay.data();
  double* __restrict az = p.az.data();
  pair_sums(nl, static_cast<std::uint32_t>(p.n_owned), term,
            [&](std::uint32_t i, const double(&sum)[3]) {
              ax[i] = factor * sum[0], ay[i] = factor * sum[1], az[i] = factor * sum[2];
            });
}

// Continuity: drho_i/dt = m sum_j (v_ij . x_ij) G_ij  [+ delta-SPH diffusion
//   -2 delta h c sum_j (rho_j - rho_i) F_ij r^2/(r^2 + eta^2) m/rho_j, with the plain F].
template <bool kDiffusion, class Shape>
struct ContinuityTerm {
  static constexpr int kSums = kDiffusion ? 2 : 1;
  View v;
  Shape shape;
  double eta2, ga, gb;
  template <class I>
  void operator()(I i, I j, double (&t)[kSums]) const {
    const double dx = v.x[i] - v.x[j], dy = v.y[i] - v.y[j], dz = v.z[i] - v.z[j];
    const double r2 = dx * dx + dy * dy + dz * dz;
    const double vdotx =
        (v.vx[i] - v.vx[j]) * dx + (v.vy[i] - v.vy[j]) * dy + (v.vz[i] - v.vz[j]) * dz;
    const double F = shape(r2);
    t[0] = vdotx * F * (ga + gb * r2);
    if constexpr (kDiffusion)
      t[kSums - 1] = (v.rho[j] - v.rho[i]) * F * r2 / ((r2 + eta2) * v.rho[j]);
  }
};

template <bool kDiffusion, class Shape>
void continuity_loop(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                     const Shape shape) {
  const ContinuityTerm<kDiffusion, Shape> term{View(p), shape, 0.01 * phys.h * phys.h,
                                               phys.gradient.a, phys.gradient.b};
  const double factor = phys.mass * shape.scale;
  const double diffusion =
      -2.0 * phys.density_diffusion * phys.h * phys.eos.c0 * phys.mass * shape.scale;
  double* __restrict drho = p.drho.data();
  pair_sums(nl, static_cast<std::uint32_t>(p.n_owned), term,
            [&](std::uint32_t i, const double(&sum)[ContinuityTerm<kDiffusion, Shape>::kSums]) {
              double rate = factor * sum[0];
              if constexpr (kDiffusion) rate += diffusion * sum[1];
              drho[i] = rate;
            });
}

// The SPH Laplacian L(f)_i = 2 (m / rho0) sum_j (f_i - f_j) F_ij (plain F).
template <class Shape>
struct LaplacianTerm {
  static constexpr int kSums = 1;
  View v;
  const double* __restrict f;
  Shape shape;
  template <class I>
  void operator()(I i, I j, double (&t)[kSums]) const {
    const double dx = v.x[i] - v.x[j], dy = v.y[i] - v.y[j], dz = v.z[i] - v.z[j];
    t[0] = (f[i] - f[j]) * shape(dx * dx + dy * dy + dz * dz);
  }
};

// The same for three fields at once (the pair geometry computed once).
template <class Shape>
struct Laplacian3Term {
  static constexpr int kSums = 3;
  View v;
  const double* __restrict fx;
  const double* __restrict fy;
  const double* __restrict fz;
  Shape shape;
  template <class I>
  void operator()(I i, I j, double (&t)[kSums]) const {
    const double dx = v.x[i] - v.x[j], dy = v.y[i] - v.y[j], dz = v.z[i] - v.z[j];
    const double F = shape(dx * dx + dy * dy + dz * dz);
    t[0] = (fx[i] - fx[j]) * F, t[1] = (fy[i] - fy[j]) * F, t[2] = (fz[i] - fz[j]) * F;
  }
};

}  // namespace

void compute_laplacian(const Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                       const double* const (&f)[3], double* const (&out)[3]) {
  with_kernel(phys.kernel, phys.h, [&](const auto& kernel) {
    const auto shape = shape_of(kernel);
    const Laplacian3Term<decltype(shape)> term{View(p), f[0], f[1], f[2], shape};
    const double factor = 2.0 * phys.mass / phys.rest_density * shape.scale;
    pair_sums(nl, static_cast<std::uint32_t>(p.n_owned), term,
              [&](std::uint32_t i, const double(&sum)[3]) {
                for (int a = 0; a < 3; ++a) out[a][i] = factor * sum[a];
              });
  });
}

void compute_laplacian(const Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                       const double* f, double* out) {
  with_kernel(phys.kernel, phys.h, [&](const auto& kernel) {
    const auto shape = shape_of(kernel);
    const LaplacianTerm<decltype(shape)> term{View(p), f, shape};
    const double factor = 2.0 * phys.mass / phys.rest_density * shape.scale;
    pair_sums(nl, static_cast<std::uint32_t>(p.n_owned), term,
              [&](std::uint32_t i, const double(&sum)[1]) { out[i] = factor * sum[0]; });
  });
}

void compute_momentum(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                      std::vector<double>& scratch) {
  scratch.resize(p.size());
  for (std::size_t j = 0; j < p.size(); ++j)
    scratch[j] = (phys.eos.pressure(p.rho[j]) + phys.background_pressure) / (p.rho[j] * p.rho[j]);
  with_kernel(phys.kernel, phys.h, [&](const auto& kernel) {
    if (phys.viscosity > 0.0)
      momentum_loop<true>(p, nl, phys, shape_of(kernel), scratch.data());
    else
      momentum_loop<false>(p, nl, phys, shape_of(kernel), scratch.data());
  });
}

void compute_continuity(Particles& p, const NeighbourList& nl, const PairPhysics& phys) {
  with_kernel(phys.kernel, phys.h, [&](const auto& kernel) {
    if (phys.density_diffusion > 0.0)
      continuity_loop<true>(p, nl, phys, shape_of(kernel));
    else
      continuity_loop<false>(p, nl, phys, shape_of(kernel));
  });
}

}  // namespace sphreverb
