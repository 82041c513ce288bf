// The scene's surfaces as a list (name, material, area) and as triangles: what `check` reports,
// what the diffuse-field reverberation estimate (reverberation.hpp) sums over, and what the run
// writes for ParaView (io/surface_file.hpp). The [room] box gives six faces ("room.x_min" ...),
// each [boundary.NAME] one surface ("boundary.NAME"), each surface GROUP of a [geometry.NAME]
// mesh one surface ("geometry.NAME.GROUP"); a source of surfaces only has to append to these
// lists.
//
// Areas are the areas the air sees. An object mesh's triangle whose centroid lies on the room's
// boundary (a pillar's foot on the floor, within kContactTolerance) touches the room there: it is
// not counted, and its area is taken from the room surface under it. A triangle whose centroid
// lies outside the room is not counted either. An object's volume is taken from the room's in
// full: objects are meant to lie in the room (touching its walls is fine).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/model/mesh.hpp"
#include "sphreverb/physics/reverberation.hpp"

namespace sphreverb {

// m per m of the room's bounding-box diagonal (at least 1 m): how far from the room's boundary
// an object triangle's centroid still counts as touching it (meshes are read in single
// precision: 6e-8 relative).
inline constexpr double kContactTolerance = 1e-6;

struct SceneSurface {
  std::string name;      // "room.x_min", "boundary.table", "geometry.hall.floor", ...
  std::string material;  // a [material.NAME] name or "rigid"
  double area = 0.0;     // m^2 of one side
  int sides = 1;         // sides facing the room's air: 2 for a plate (rectangle, disc) inside it
};

// Every surface of the scene, in order: the six room faces (2 axis + side), the [boundary.NAME]
// sections in scene order, then each [geometry.NAME] mesh's surfaces (in the order of its
// Mesh::surface_names) in scene order. The emitter disc is not listed.
std::vector<SceneSurface> scene_surfaces(const Scene& scene);

// The volume of the room's air, m^3: the room mesh's enclosed volume, else the [room] box, else
// the fill box; less the inside of every cylinder (its air is a cavity of its own) and every
// object mesh's enclosed volume.
double air_volume(const Scene& scene);

// Random-incidence absorption of a material at kOctaveBands: rigid 0; a material given by its
// absorption: its wall model's normal-incidence coefficient at the band centres (what
// summary.json reports as model_absorption_at_bands) through random_incidence_absorption; false
// if the material is given by stiffness and damping (no absorption to report).
bool material_random_absorption(const Scene& scene, const std::string& material,
                                std::array<double, 6>& alpha_st);

// The diffuse-field estimate of the scene (reverberation.hpp) over the surfaces the air sees
// (covered_faces.hpp: exposed_surfaces, a plate on a room face replacing the face there), each
// counted with its sides; `known` is false (and the estimate empty) if a surface's material has no
// absorption to report.
Reverberation scene_reverberation(const Scene& scene, bool& known);

// The same estimate from the materials' tables rather than the SPH's fitted walls: the
// random-incidence `absorption_octaves` (125 Hz ... 4 kHz of them) where given, else Paris'
// coefficient of the given normal-incidence `absorption_bands` or `absorption` (the reference of
// the geometric part above the crossover); `known` as above.
Reverberation table_reverberation(const Scene& scene, bool& known);

// Every surface as triangles: surface index = the material's position in surface_names (one
// name per material used, in order of first use). Every triangle winds with its right-hand
// normal into the air (room faces and room meshes inwards, objects and cylinders outwards;
// plates along their normal); a mesh's triangles are all there, in the scene's frame (after its
// units, scale, rotation and translation).
Mesh scene_surface_mesh(const Scene& scene);

// Hard walls oblique to the lattice: fixed mesh faces and ghost-walled plates whose normal lies
// more than kAlignedDegrees off every axis, rigid or with a normal-incidence absorption below
// kHardAlpha in some band. Such walls can feed the lattice's short waves (docs/limitations.md,
// "Oblique mesh walls"); measured, the worst (a rigid box turned 30 degrees, 1 cm) gains energy
// as if its walls absorbed -kObliqueGain, and the room's own absorption outweighs a little of
// it (an octagonal plaster pillar in the furnished room decays). Their area (one side, m^2) and
// sections ("[geometry.box]", "[boundary.plate]"), in scene order.
inline constexpr double kAlignedDegrees = 0.1;
inline constexpr double kHardAlpha = 0.1;
inline constexpr double kObliqueGain = 0.13;
inline constexpr double kObliqueWarnAfter = 0.03;  // s
struct ObliqueWalls {
  double area = 0.0;
  std::vector<std::string> sections;
};
ObliqueWalls oblique_hard_walls(const Scene& scene);

// Whether they would make the air's energy grow over the record (whatever the hyperviscosity):
// the record is longer than kObliqueWarnAfter and kObliqueGain times their area exceeds the
// room's absorption area (the smallest over the octaves of scene_reverberation's mean alpha times
// its surface; 0 where a material has no absorption to report).
struct ObliqueGrowth {
  ObliqueWalls walls;
  double absorption = 0.0;  // m^2
  bool grows = false;
};
ObliqueGrowth oblique_growth(const Scene& scene);

// [fluid] hyperviscosity as the run applies it: the number given, or for `auto`
// kAutoHyperviscosity where oblique_growth says the walls grow (0 elsewhere), capped at 0.9 of
// the filter's stability limit at the scene's dt.
inline constexpr double kAutoHyperviscosity = 0.005;
double hyperviscosity_of(const Scene& scene);

// What `check` and the run log say of them, or "": with `auto` where it turned the filter on, a
// note naming the walls; with the filter off by the scene's own `hyperviscosity = 0`, a warning.
struct ObliqueMessage {
  std::string text;
  bool warning = false;
};
ObliqueMessage oblique_wall_message(const Scene& scene);

// Area per material over exposed_surfaces (each surface counted with its sides), m^2, in order of
// first use.
std::vector<std::pair<std::string, double>> area_per_material(const Scene& scene);

}  // namespace sphreverb
