// Air sites per lattice plane without visiting every site: the exact counts of
// air_sites_per_plane (lattice.hpp), in time proportional to the walls' surfaces, not the volume.
//
// A site is air unless it lies within dx/2 of a fixed wall inside the wall's extent
// (is_air_site, boundary.hpp). For a rectangle whose normal and in-plane axes are coordinate
// axes (the room's faces, axis-aligned panels), that test is a product of three one-dimensional
// tests on the site's indices, evaluated with the same arithmetic as WallProbe (the dot products
// with a unit axis are exact): its excluded sites in a plane are a product of two index sets, and
// the union over such walls is counted per distinct set of walls crossing the plane. Every other
// wall (tilted rectangles, discs, cylinders) is handled by testing is_air_site on the sites of its
// bounding box only.
#pragma once

#include <cstdint>
#include <vector>

#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/lattice.hpp"

namespace sphreverb {

// The same counts as air_sites_per_plane(lattice, walls, axis), bit for bit.
std::vector<std::int64_t> count_air_per_plane(const Lattice& lattice,
                                              const std::vector<Wall>& walls, int axis);

}  // namespace sphreverb
