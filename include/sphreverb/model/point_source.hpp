// Monopole point sources in the air: a volume velocity Q(t) (m^3/s) spread over the particles by
// a normalised Gaussian and added to the continuity equation as a mass source,
//
//     drho_i/dt += rho0 Q(t) g(|x_i - x_s(t)|),   g(r) = exp(-r^2 / (2 s^2)) / ((2 pi)^(3/2) s^3)
//
// (g in 1/m^3, integral 1; sampled on the lattice, sum_i g(x_i) dx^3 = 1 within exp(-2 pi^2
// s^2 / dx^2), 3e-9 at s = dx). Linearised: (1/c^2) p_tt - lap p = rho0 dq/dt with q = Q g, so
// at r >> s the pressure is that of a point monopole,
//
//     p(r, t) = rho0 Q'(t - r/c) / (4 pi r),
//
// times the Gaussian's spectrum exp(-k^2 s^2 / 2): at the lattice's short-wave branch (k dx near
// pi) that is exp(-pi^2 s^2 / (2 dx^2)), 1.5e-5 at s = 1.5 dx, so the source does not excite it.
// The calibration (assembly.cpp): Q' = 4 pi (1 m) L s(t) / rho0 for an input s and a level L
// (Pa at 1 m), so the free-field pressure at 1 m is L s(t - 1 m / c) below f_max.
//
// The source term acts on owned particles only (their drho, before the density update), each
// particle's term a function of its own position: the sums are independent of the rank count.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/audio/signal.hpp"
#include "sphreverb/core/particles.hpp"
#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/emitter.hpp"
#include "sphreverb/model/path.hpp"

namespace sphreverb {

struct PointSourceParams {
  Path path;                  // where the source is (a fixed point: one keyframe)
  double sigma = 0.0;         // m, the Gaussian's standard deviation s
  double rest_density = 0.0;  // kg/m^3, rho0
  // Cut-off radius of the Gaussian: 5 s (the mass outside is 1.5e-5 of the total).
  double cutoff() const { return 5.0 * sigma; }
};

// How far a source's injected volume pushes the air at its Gaussian, relative to its width. A
// volume V(t) = integral of Q spread by g moves the air outwards, incompressibly near the source
// (r << c x the pulse's duration), by xi(r) = V F(r/s) / (4 pi r^2), F the Gaussian's mass within
// r; xi peaks at r = 1.3688 s at 0.017030 V / s^2. The returned ratio max_r xi / s =
// 0.017030 V_peak / s^3, V_peak = max |V(t)| over the drive. Measured in the V5 box
// (docs/validation.md, V14): the record departs from linear in the level by 0.5 to 1.3 times this
// ratio over its first 5 to 25 ms, more later, and from about 0.02 the particles around the
// source can leave their lattice sites until the record is lost.
inline constexpr double kSourceDisplacementPeak = 0.01702951;  // max_u F(u) / (4 pi u^2)
inline constexpr double kSourceDisplacementWarn = 0.01;        // ratio above which check warns

// max |V(t)| (m^3) of a source's volume drive (make_source_drive_params: `shift` is the injected
// volume) over `steps` acoustic steps of its input.
double source_peak_volume(const Signal& input, const DriveParams& drive, std::int64_t steps);
// max_r xi(r) / s for a peak volume V (m^3) and a Gaussian width s (m).
double source_displacement_ratio(double peak_volume, double sigma);

class PointSources {
 public:
  PointSources() = default;
  explicit PointSources(std::vector<PointSourceParams> sources);

  std::size_t size() const { return sources_.size(); }
  const PointSourceParams& source(std::size_t k) const { return sources_[k]; }

  // Local: the owned particles within cutoff + margin (m) of each fixed source, from the current
  // positions; the candidates stay valid while no particle moves more than `margin`. Moving
  // sources scan every owned particle at each step.
  void rebuild(const Particles& p, double margin);
  // Local: drho_i += rho0 Q_k g(|x_i - x_k(t)|) for every source k, Q in m^3/s, t in s (stage-2
  // time), on the owned particles. Sources are added in order, each particle's terms in that
  // order.
  void add_to_continuity(Particles& p, const std::vector<double>& volume_velocity, double t) const;

 private:
  std::vector<PointSourceParams> sources_;
  std::vector<std::vector<std::uint32_t>> candidates_;  // per fixed source
};

}  // namespace sphreverb
