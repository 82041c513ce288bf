// The assembly: the one place where the scene becomes the parameters of the parts below it.
// Physics and model code take small parameter structs and know nothing of the scene file; each
// function here reads the keys and derived quantities (config/scene.hpp) that one part needs.
// All are local and deterministic: every rank builds the same values.
#pragma once

#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/emitter.hpp"
#include "sphreverb/model/ghost_walls.hpp"
#include "sphreverb/model/lattice.hpp"
#include "sphreverb/model/mirror_walls.hpp"
#include "sphreverb/model/point_source.hpp"
#include "sphreverb/model/receiver.hpp"
#include "sphreverb/model/solid_geometry.hpp"
#include "sphreverb/physics/eos.hpp"
#include "sphreverb/physics/interactions.hpp"

namespace sphreverb {

// The equation of state the [fluid] keys describe.
Eos make_eos(const FluidSpec& fluid);

// The pair terms' parameters: kernel, h, particle mass, EOS, dissipation, lattice gradient.
PairPhysics make_pair_physics(const Scene& scene);

// The air lattice filling [fluid] fill_min .. fill_max at [fluid] spacing.
Lattice make_lattice(const Scene& scene);

// The force walls: the [room] faces unless the room has mirror walls (six rectangles, face order
// 2 axis + side), the [boundary.NAME] objects with wall = tethered in file order, and the emitter
// disc last (moving).
// A material given as rigid gets the stiffness derived from the resolution.
std::vector<Wall> make_walls(const Scene& scene);

// The mirror walls of the [room] box (disabled when the room has force walls): ghosts within the
// halo width, each face's admittance, the EOS, the lattice (its first layers) and the emitter
// disc as the piston of the face it lies on (Derived::emitter_face).
MirrorWalls make_mirror_walls(const Scene& scene, const Lattice& lattice);

// The [geometry.NAME] meshes and the `wall = ghost` boundaries (solid_sheet.hpp, to a depth of
// halo_width + dx) as solids, each surface's admittance 1/R from its material (0 = rigid). Empty
// without either.
SolidGeometry make_solid_geometry(const Scene& scene);

// The ghost walls of the meshes for the lattice sites whose coordinate along `axis` lies in
// [lo, hi] (m): reach support + skin, the EOS, the emitter disc as the piston. A site is air
// when no force wall excludes it (is_air_site) and the geometry says so.
GhostWalls make_ghost_walls(const Scene& scene, const SolidGeometry& geometry,
                            const Lattice& lattice, const std::vector<Wall>& walls, int axis,
                            double lo, double hi);

// Whether the emitter disc lies on a face of the geometry (its centre within a spacing of a face
// parallel to it): that face's ghosts then move with the disc (ghost_walls.hpp) and the disc
// tethers no particles.
bool emitter_on_ghost_wall(const Scene& scene, const SolidGeometry& geometry);

// The emitter's drive at the run's time step.
DriveParams make_drive_params(const Scene& scene);

// The [emitter.NAME] monopoles: paths, Gaussian widths (m), rest density.
PointSources make_point_sources(const Scene& scene);

// The drive of source k: its volume velocity Q (m^3/s, the drive's "speed") from the input s by
// Q' = 4 pi (1 m) level gain s / rho0 (point_source.hpp), high-passed at its `highpass`.
DriveParams make_source_drive_params(const Scene& scene, std::size_t k);

// The receivers at their [receiver.NAME] positions, in file order (the output order).
Receivers make_receivers(const Scene& scene);

}  // namespace sphreverb
