// The scene's surfaces as a list (name, material, area) and as triangles: what `check` reports,
// what the diffuse-field reverberation estimate (reverberation.hpp) sums over, and what the run
// writes for ParaView (io/surface_file.hpp). The [room] box gives six faces ("room.x_min" ...),
// each [boundary.NAME] one surface ("boundary.NAME"); a source of surfaces only has to append to
// these lists.
#pragma once

#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/model/mesh.hpp"
#include "sphreverb/physics/reverberation.hpp"

namespace sphreverb {

struct SceneSurface {
  std::string name;      // "room.x_min", "boundary.table", ...
  std::string material;  // a [material.NAME] name or "rigid"
  double area = 0.0;     // m^2 of one side
  int sides = 1;         // sides facing the room's air: 2 for a plate (rectangle, disc) inside it
};

// Every surface of the scene, in order: the six room faces (2 axis + side), then the
// [boundary.NAME] sections in scene order. The emitter disc is not listed.
std::vector<SceneSurface> scene_surfaces(const Scene& scene);

// The volume of the room's air, m^3: the [room] box (the fill box without one), less the inside
// of every cylinder (its air is a cavity of its own).
double air_volume(const Scene& scene);

// Random-incidence absorption of a material at kOctaveBands: rigid 0; a material given by its
// absorption: its wall model's normal-incidence coefficient at the band centres (what
// summary.json reports as model_absorption_at_bands) through random_incidence_absorption; false
// if the material is given by stiffness and damping (no absorption to report).
bool material_random_absorption(const Scene& scene, const std::string& material,
                                std::array<double, 6>& alpha_st);

// The diffuse-field estimate of the scene (reverberation.hpp) over scene_surfaces, each counted
// with its sides; `known` is false (and the estimate empty) if a surface's material has no
// absorption to report.
Reverberation scene_reverberation(const Scene& scene, bool& known);

// Every surface as triangles: surface index = the material's position in surface_names (one
// name per material used, in order of first use).
Mesh scene_surface_mesh(const Scene& scene);

}  // namespace sphreverb
