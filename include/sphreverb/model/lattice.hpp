// The initial air lattice: a simple cubic lattice of spacing dx filling [fill_min, fill_max],
// centred in the box (sites at dx/2 from the faces when the box is a multiple of dx), minus the
// sites within dx/2 of a wall surface. Site (i, j, k) has the global id i + nx (j + ny k), so ids
// are the same whatever the rank count.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/solid_geometry.hpp"

namespace sphreverb {

struct Lattice {
  Vec3 origin;      // m, position of site (0, 0, 0)
  double dx = 0.0;  // m
  int n[3] = {0, 0, 0};

  // The lattice of spacing dx (m) filling the box [lo, hi] (m): floor(length / dx) sites per
  // axis, centred in the box. A length within a relative 1e-6 (at least 1e-6 spacings) below a
  // whole number of spacings counts as that number: a box from a mesh's corners (single precision,
  // 6e-8 relative) that is a whole number of spacings keeps its faces dx/2 beyond the lattice.
  static Lattice filling(const Vec3& lo, const Vec3& hi, double dx);
  std::int64_t sites() const { return std::int64_t{n[0]} * n[1] * n[2]; }
  Vec3 site(int i, int j, int k) const {
    return {origin.x + i * dx, origin.y + j * dx, origin.z + k * dx};
  }
  std::int64_t id(int i, int j, int k) const {
    return i + std::int64_t{n[0]} * (j + std::int64_t{n[1]} * k);
  }
  // Id step of one site along axis a, and the site index of an id along it.
  std::int64_t stride(int a) const {
    return a == 0 ? 1 : (a == 1 ? std::int64_t{n[0]} : std::int64_t{n[0]} * n[1]);
  }
  int index(std::int64_t id, int a) const {
    return static_cast<int>(a == 2 ? id / stride(2) : id % stride(a + 1) / stride(a));
  }
  // The site of an id: a particle's rest position (the same bits as fill_lattice placed it at).
  Vec3 site_of(std::int64_t id) const { return site(index(id, 0), index(id, 1), index(id, 2)); }
  // Coordinate of lattice plane p along axis.
  double plane(int axis, int p) const { return origin[axis] + p * dx; }
};

// Air sites per lattice plane along `axis` (the same on every rank; no communication). With a
// geometry, a site must also be in its air (SolidGeometry::is_air).
std::vector<std::int64_t> air_sites_per_plane(const Lattice&, const std::vector<Wall>&, int axis,
                                              const SolidGeometry* geometry = nullptr);

// Appends, as owned particles at rest with density rho0, the air sites whose plane along `axis`
// lies in [lo, hi). Particles are appended in id order.
void fill_lattice(Particles&, const Lattice&, const std::vector<Wall>&, int axis, double lo,
                  double hi, double rho0, const SolidGeometry* geometry = nullptr);

}  // namespace sphreverb
