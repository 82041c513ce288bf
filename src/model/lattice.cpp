#include "sphreverb/model/lattice.hpp"

#include <algorithm>
#include <cmath>

namespace sphreverb {

Lattice Lattice::filling(const Vec3& lo, const Vec3& hi, double dx) {
  Lattice l;
  l.dx = dx;
  for (int a = 0; a < 3; ++a) {
    const double length = hi[a] - lo[a];
    const double spacings = length / l.dx;
    l.n[a] = static_cast<int>(std::floor(spacings + 1e-6 * std::max(1.0, spacings)));
    l.origin[a] = lo[a] + 0.5 * (length - l.n[a] * l.dx) + 0.5 * l.dx;
  }
  return l;
}

namespace {
// Calls f(i, j, k, position) for every air site whose index along `axis` is in [p0, p1).
template <class Fn>
void for_air_sites(const Lattice& l, const std::vector<Wall>& walls, int axis, int p0, int p1,
                   const SolidGeometry* geometry, Fn&& f) {
  int lo[3] = {0, 0, 0}, hi[3] = {l.n[0], l.n[1], l.n[2]};
  lo[axis] = p0, hi[axis] = p1;
  for (int k = lo[2]; k < hi[2]; ++k)
    for (int j = lo[1]; j < hi[1]; ++j)
      for (int i = lo[0]; i < hi[0]; ++i) {
        const Vec3 p = l.site(i, j, k);
        if (is_air_site(walls, p, l.dx) && (geometry == nullptr || geometry->is_air(p)))
          f(i, j, k, p);
      }
}
}  // namespace

std::vector<std::int64_t> air_sites_per_plane(const Lattice& l, const std::vector<Wall>& walls,
                                              int axis, const SolidGeometry* geometry) {
  std::vector<std::int64_t> count(l.n[axis], 0);
  for_air_sites(l, walls, axis, 0, l.n[axis], geometry, [&](int i, int j, int k, const Vec3&) {
    const int ijk[3] = {i, j, k};
    ++count[ijk[axis]];
  });
  return count;
}

void fill_lattice(Particles& p, const Lattice& l, const std::vector<Wall>& walls, int axis,
                  double lo, double hi, double rho0, const SolidGeometry* geometry) {
  const int p0 = std::max(0, static_cast<int>(std::ceil((lo - l.origin[axis]) / l.dx - 1e-9)));
  const int p1 =
      std::min(l.n[axis], static_cast<int>(std::ceil((hi - l.origin[axis]) / l.dx - 1e-9)));
  for_air_sites(l, walls, axis, p0, p1, geometry, [&](int i, int j, int k, const Vec3& s) {
    p.x.push_back(s.x), p.y.push_back(s.y), p.z.push_back(s.z);
    p.key.push_back(image_key(l.id(i, j, k), kRealImage));
  });
  p.n_owned = p.x.size();
  p.vx.resize(p.n_owned), p.vy.resize(p.n_owned), p.vz.resize(p.n_owned);
  p.rho.resize(p.n_owned, rho0);
  p.ax.resize(p.n_owned), p.ay.resize(p.n_owned), p.az.resize(p.n_owned);
  p.drho.resize(p.n_owned);
}

}  // namespace sphreverb
