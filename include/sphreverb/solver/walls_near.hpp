// The walls of a scene near a point, by the names the scene gives them: the faces of the [room]
// box ("[room] x_min" ... "[room] z_max"), the [boundary.NAME] shapes, and the surfaces of the
// [geometry.NAME] meshes ("[geometry.NAME] GROUP"). Diagnostics name with it where something
// happens in the air (the energy watch of an unstable run, simulation.cpp).
#pragma once

#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/core/vec3.hpp"

namespace sphreverb {

struct NamedWall {
  std::string name;
  double distance = 0.0;  // m, from the point to the nearest point of the wall
};

// Every wall whose nearest point lies within `range` (m) of x, nearest first. A moving
// [boundary] is taken where it starts. Pre: the scene's meshes are loaded (in metres, placed).
std::vector<NamedWall> walls_near(const Scene& scene, const Vec3& x, double range);

// "A, B and C" for the names of `walls` ("" if empty).
std::string wall_list(const std::vector<NamedWall>& walls);

}  // namespace sphreverb
