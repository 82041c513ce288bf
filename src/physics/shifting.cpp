#include "sphreverb/physics/shifting.hpp"

#include <cmath>
#include <cstdint>

#include "sphreverb/physics/kernel.hpp"

namespace sphreverb {

Shift compute_shift(const Particles& p, const NeighbourList& nl, const PairPhysics& phys,
                    double strength, double dt, double dx, const std::vector<char>& movable) {
  const std::size_t n = p.n_owned;
  Shift s;
  for (auto* f : {&s.dx, &s.dy, &s.dz, &s.drho, &s.dvx, &s.dvy, &s.dvz}) f->assign(n, 0.0);
  const double volume = phys.mass / phys.rest_density;
  const double limit = kShiftLimit * dx;
  // The lists read in place: particles of a stencil run have the neighbours i + stencil[k], the
  // others their explicit range (neighbour_list.hpp); both in key order.
  std::vector<char> on_stencil(n, 0);
  for (const NeighbourList::Run& run : nl.runs())
    for (std::uint32_t i = run.begin; i < run.end; ++i) on_stencil[i] = 1;
  const std::vector<std::int32_t>& stencil = nl.stencil();
  const std::vector<std::uint32_t>& offsets = nl.offsets();
  const std::vector<std::uint32_t>& index = nl.index();
  with_kernel(phys.kernel, phys.h, [&](const auto& kernel) {
    for (std::size_t i = 0; i < n; ++i) {
      const double speed = std::sqrt(p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i]);
      if (!movable[i] || !(speed > kShiftMinSpeed)) continue;
      double gc[3] = {0.0, 0.0, 0.0}, grho[3] = {0.0, 0.0, 0.0};
      // gv[b][a] = d v_b / d x_a
      double gv[3][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
      const std::size_t count = on_stencil[i] ? stencil.size() : offsets[i + 1] - offsets[i];
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t j =
            on_stencil[i] ? static_cast<std::size_t>(static_cast<std::int64_t>(i) + stencil[k])
                          : index[offsets[i] + k];
        const double r[3] = {p.x[i] - p.x[j], p.y[i] - p.y[j], p.z[i] - p.z[j]};
        const double f = volume * kernel.F(std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]));
        const double drho = p.rho[j] - p.rho[i];
        const double dv[3] = {p.vx[j] - p.vx[i], p.vy[j] - p.vy[i], p.vz[j] - p.vz[i]};
        for (int a = 0; a < 3; ++a) {
          const double g = r[a] * f;  // grad_i W_ij, component a, times the volume
          gc[a] += g;
          grho[a] += drho * g;
          for (int b = 0; b < 3; ++b) gv[b][a] += dv[b] * g;
        }
      }
      double d[3];
      for (int a = 0; a < 3; ++a) d[a] = -strength * phys.h * speed * dt * gc[a];
      const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      if (len > limit)
        for (double& c : d) c *= limit / len;
      s.dx[i] = d[0], s.dy[i] = d[1], s.dz[i] = d[2];
      s.drho[i] = d[0] * grho[0] + d[1] * grho[1] + d[2] * grho[2];
      s.dvx[i] = d[0] * gv[0][0] + d[1] * gv[0][1] + d[2] * gv[0][2];
      s.dvy[i] = d[0] * gv[1][0] + d[1] * gv[1][1] + d[2] * gv[1][2];
      s.dvz[i] = d[0] * gv[2][0] + d[1] * gv[2][1] + d[2] * gv[2][2];
    }
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
