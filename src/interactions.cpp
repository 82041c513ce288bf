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

template <class Kernel>
void momentum_loop(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                   const Kernel& kernel, const std::vector<double>& por2) {
  const auto& off = nl.offsets();
  const auto& idx = nl.index();
  const double m = phys.mass, alpha = phys.viscosity, c = phys.eos.c0, h = phys.h;
  const double scale = phys.gradient_scale;
  const double r2max = kernel.support() * kernel.support();
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const double xi = p.x[i], yi = p.y[i], zi = p.z[i];
    const double vxi = p.vx[i], vyi = p.vy[i], vzi = p.vz[i], rhoi = p.rho[i], pi = por2[i];
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (std::uint32_t k = off[i]; k < off[i + 1]; ++k) {
      const std::uint32_t j = idx[k];
      const double dx = xi - p.x[j], dy = yi - p.y[j], dz = zi - p.z[j];
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= r2max) continue;
      const double F = scale * kernel.F(std::sqrt(r2));
      double visc = 0.0;
      if (alpha > 0.0) {
        const double vdotx = (vxi - p.vx[j]) * dx + (vyi - p.vy[j]) * dy + (vzi - p.vz[j]) * dz;
        visc = pair::artificial_viscosity(alpha, c, h, vdotx, r2, 0.5 * (rhoi + p.rho[j]));
      }
      const double s = pair::momentum(m, pi, por2[j], visc, F);
      ax += s * dx, ay += s * dy, az += s * dz;
    }
    p.ax[i] = ax, p.ay[i] = ay, p.az[i] = az;
  }
}

template <class Kernel>
void continuity_loop(Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                     const Kernel& kernel) {
  const auto& off = nl.offsets();
  const auto& idx = nl.index();
  const double m = phys.mass, delta = phys.density_diffusion, c = phys.eos.c0, h = phys.h;
  const double scale = phys.gradient_scale;
  const double r2max = kernel.support() * kernel.support();
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const double xi = p.x[i], yi = p.y[i], zi = p.z[i];
    const double vxi = p.vx[i], vyi = p.vy[i], vzi = p.vz[i], rhoi = p.rho[i];
    double drho = 0.0;
    for (std::uint32_t k = off[i]; k < off[i + 1]; ++k) {
      const std::uint32_t j = idx[k];
      const double dx = xi - p.x[j], dy = yi - p.y[j], dz = zi - p.z[j];
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= r2max) continue;
      const double F = kernel.F(std::sqrt(r2));
      const double vdotx = (vxi - p.vx[j]) * dx + (vyi - p.vy[j]) * dy + (vzi - p.vz[j]) * dz;
      drho += pair::continuity(m, vdotx, scale * F);
      if (delta > 0.0)
        drho += pair::density_diffusion(delta, h, c, rhoi, p.rho[j], r2, F, m / p.rho[j]);
    }
    p.drho[i] = drho;
  }
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
