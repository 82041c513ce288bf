// The scene turned into the geometric part's parameters ([hybrid], docs/theory/geometric.md).
#pragma once

#include "sphreverb/config/scene.hpp"
#include "sphreverb/geometric/plan.hpp"

namespace sphreverb {

// A material's geometric description: `absorption_octaves` (random-incidence, the same at every
// angle) when given, else the wall model the SPH part uses: for `absorption` and
// `absorption_bands` the real impedance zeta of each normal-incidence alpha (material.hpp eq. 3,
// 8 kHz taking the 4 kHz value) as GeoMaterial::impedance (angle-dependent reflection) with its
// random-incidence (Paris) absorption; for the spring form the random-incidence absorption of the
// impedance n_t (damping + j(w mass - stiffness / w)) at each centre (n_t = the tethered layers),
// the same at every angle; 0 for rigid.
GeoMaterial make_geo_material(const Scene& scene, const MaterialSpec& m);

// Requires scene.hybrid.present. Every material scatters at least [hybrid] scattering. The receiver
// sphere radius is [hybrid] receiver_radius or 3 (V / rays)^(1/3) capped at 0.5 m, V the room's (or
// the fill box's) volume. The synthesis carries the SPH source's drive high-pass
// (geometric/source_filter.hpp): the disc's [emitter] highpass with the acceleration drive, with a
// silent disc the first monopole's, else 0.
HybridPlan make_hybrid_plan(const Scene& scene);

}  // namespace sphreverb
