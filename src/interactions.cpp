#include "sphreverb/interactions.hpp"

#include <cmath>

#include "sphreverb/kernel.hpp"
#include "sphreverb/pair_terms.hpp"

namespace sphreverb {

PairPhysics PairPhysics::from(const Scene& s) {
  PairPhysics p;
  p.kernel = s.fluid.kernel;
  p.h = s.derived.h;
  p.mass = s.derived.particle_mass;
  p.eos = make_eos(s.fluid);
  p.viscosity = s.fluid.viscosity;
  p.density_diffusion = s.fluid.density_diffusion;
  p.background_pressure = s.fluid.background_pressure;
  p.gradient_scale =
      s.fluid.gradient_correction ? lattice_gradient_scale(s.fluid.kernel, s.fluid.h_over_dx) : 1.0;
  return p;
}

double lattice_gradient_scale(KernelKind kind, double h_over_dx) {
  // In units of dx = 1: M = -(1/3) sum_j r_j^2 F(r_j) over lattice offsets j != 0.
  return with_kernel(kind, h_over_dx, [](const auto& kernel) {
    const int reach = static_cast<int>(std::ceil(kernel.support()));
    double moment = 0.0;
    for (int i = -reach; i <= reach; ++i)
      for (int j = -reach; j <= reach; ++j)
        for (int k = -reach; k <= reach; ++k) {
          const double r2 = double(i * i + j * j + k * k);
          if (r2 > 0.0) moment -= r2 * kernel.F(std::sqrt(r2)) / 3.0;
        }
    return 1.0 / moment;
  });
}

namespace {

// Geometry of one pair: x_ij, r^2 and F = (dW/dr)/r.
struct Pair {
  double dx, dy, dz, r2, F;
};

// The one neighbour loop: for each owned i, acc = start(i); then add(acc, i, j, pair) for every
// neighbour j within the kernel support, in the list's (key) order; then finish(i, acc).
template <class Kernel, class Start, class Add, class Finish>
void for_each_pair(const Particles& p, const NeighbourList& nl, const Kernel& kernel, Start&& start,
                   Add&& add, Finish&& finish) {
  const auto& off = nl.offsets();
  const auto& idx = nl.index();
  const double r2max = kernel.support() * kernel.support();
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    auto acc = start(i);
    const double xi = p.x[i], yi = p.y[i], zi = p.z[i];
    for (std::uint32_t k = off[i]; k < off[i + 1]; ++k) {
      const std::uint32_t j = idx[k];
      const double dx = xi - p.x[j], dy = yi - p.y[j], dz = zi - p.z[j];
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= r2max) continue;
      add(acc, i, j, Pair{dx, dy, dz, r2, kernel.F(std::sqrt(r2))});
    }
    finish(i, acc);
  }
}

// Velocity and density of particle i, read once per particle rather than once per pair.
struct Self {
  double vx, vy, vz, rho;
  Self(const Particles& p, std::size_t i) : vx(p.vx[i]), vy(p.vy[i]), vz(p.vz[i]), rho(p.rho[i]) {}
  double vdotx(const Particles& p, std::uint32_t j, const Pair& q) const {
    return (vx - p.vx[j]) * q.dx + (vy - p.vy[j]) * q.dy + (vz - p.vz[j]) * q.dz;
  }
};

template <class Kernel>
void momentum_loop(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                   const Kernel& kernel, const std::vector<double>& por2) {
  const double m = phys.mass, alpha = phys.viscosity, c = phys.eos.c0, h = phys.h;
  const double scale = phys.gradient_scale;
  struct Acc : Self {
    double p_over_rho2;
    double ax = 0.0, ay = 0.0, az = 0.0;
  };
  for_each_pair(
      p, nl, kernel,
      [&](std::size_t i) {
        return Acc{Self(p, i), por2[i]};
      },
      [&](Acc& a, std::size_t, std::uint32_t j, const Pair& q) {
        const double visc = alpha > 0.0 ? pair::artificial_viscosity(alpha, c, h, a.vdotx(p, j, q),
                                                                     q.r2, 0.5 * (a.rho + p.rho[j]))
                                        : 0.0;
        const double s = pair::momentum(m, a.p_over_rho2, por2[j], visc, scale * q.F);
        a.ax += s * q.dx, a.ay += s * q.dy, a.az += s * q.dz;
      },
      [&](std::size_t i, const Acc& a) { p.ax[i] = a.ax, p.ay[i] = a.ay, p.az[i] = a.az; });
}

template <class Kernel>
void continuity_loop(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                     const Kernel& kernel) {
  const double m = phys.mass, delta = phys.density_diffusion, c = phys.eos.c0, h = phys.h;
  const double scale = phys.gradient_scale;
  struct Acc : Self {
    double drho = 0.0;
  };
  for_each_pair(
      p, nl, kernel, [&](std::size_t i) { return Acc{Self(p, i)}; },
      [&](Acc& a, std::size_t, std::uint32_t j, const Pair& q) {
        a.drho += pair::continuity(m, a.vdotx(p, j, q), scale * q.F);
        if (delta > 0.0)
          a.drho += pair::density_diffusion(delta, h, c, a.rho, p.rho[j], q.r2, q.F, m / p.rho[j]);
      },
      [&](std::size_t i, const Acc& a) { p.drho[i] = a.drho; });
}

}  // namespace

void compute_momentum(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                      std::vector<double>& scratch) {
  scratch.resize(p.size());
  for (std::size_t j = 0; j < p.size(); ++j)
    scratch[j] = (phys.eos.pressure(p.rho[j]) + phys.background_pressure) / (p.rho[j] * p.rho[j]);
  with_kernel(phys.kernel, phys.h,
              [&](const auto& kernel) { momentum_loop(p, nl, phys, kernel, scratch); });
}

void compute_continuity(Particles& p, const NeighbourList& nl, const PairPhysics& phys) {
  with_kernel(phys.kernel, phys.h,
              [&](const auto& kernel) { continuity_loop(p, nl, phys, kernel); });
}

}  // namespace sphreverb
