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

// m^3, the volume the geometric part's estimates use: the [room] box's, else a room mesh's
// (mesh_check.hpp), else the fill box's.
double hybrid_volume(const Scene& scene);

// m^2, the surface the rays' mean free path 4V/S uses: the [room] box's faces, else the plan's
// triangles (every mesh and [boundary] shape, one side each).
double hybrid_area(const Scene& scene, const HybridPlan& plan);

// Requires scene.hybrid.present. The surfaces: the [room] box, every [geometry.NAME] mesh (room
// and object, with its per-surface materials) and the [boundary.NAME] shapes (geometric/
// surfaces.hpp). Every material scatters at least [hybrid] scattering. The sources: every sounding
// source (plan.hpp), each with its drive high-pass (geometric/source_filter.hpp): the disc's
// [emitter] highpass with the acceleration drive (0 with the other drives), a monopole's own
// `highpass`. The receiver sphere radius is [hybrid] receiver_radius or 3 (V / rays)^(1/3) capped
// at 0.5 m, V = hybrid_volume.
HybridPlan make_hybrid_plan(const Scene& scene);

}  // namespace sphreverb
