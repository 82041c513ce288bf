// Quantities derived from the scene's keys (Scene::derived: smoothing length, particle mass,
// time-step bounds, substeps, wall parameters from absorption, highest usable frequency), and
// the small pure functions they are computed with.
#pragma once

#include <array>
#include <optional>

namespace sphreverb {

struct Scene;
struct BoundarySpec;

// The smallest n >= 1 with 1 / (rate n) <= dt_bound (a relative tolerance of 1e-12 absorbs
// rounding); nullopt when n would exceed max_substeps (also for a bound so small that n is not
// finite). rate in Hz, dt_bound in s.
std::optional<int> smallest_substeps(double rate, double dt_bound, int max_substeps);

// The first substep count the search above would consider, ceil(1 / (rate dt_bound)) (inf or
// beyond 2^53 for absurd bounds): the count a message quotes when there are too many.
double substeps_estimate(double rate, double dt_bound);

// m, the distance from each [room] face (RoomSpec::face_material order: x_min, x_max, y_min,
// ..., z_max) to the nearest lattice layer, with the lattice placed as model/lattice.cpp places
// it (n = floor(L / dx) sites per axis, centred in the fill box). dx / 2 on every face when each
// room side is a multiple of dx and the fill box is the room.
std::array<double, 6> room_face_gaps(const Scene& s);

// A [room] face lies off the lattice: it is nearer the last lattice layer than the kernel's
// support 2h (its walls act on the air) and not dx/2 beyond it within kRoomFaceTolerance dx, where
// mirror walls are exact (`walls = auto` builds ghost walls then). A face beyond the support (a
// fill box that stops short of it) acts on no particle.
inline constexpr double kRoomFaceTolerance = 0.01;
bool room_face_off_lattice(const Scene& s, double gap);
bool room_faces_on_lattice(const Scene& s);

// The [room] face (2 axis + side, as room_face_key) a fixed [boundary] rectangle or disc lies on:
// its unit normal along the face's axis (within 1e-9) and its centre on the face's plane within
// `tolerance` (m); -1 for any other boundary (a cylinder, a moving one, one off the faces) and
// without a [room].
int room_face_under(const Scene& s, const BoundarySpec& b, double tolerance);

}  // namespace sphreverb
