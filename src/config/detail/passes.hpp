// The passes of parse_scene after the readers (internal to src/config): derived quantities
// (derived.cpp) and the checks that involve several keys (checks.cpp). Each throws SceneError
// naming the file, the line and the key.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "reader.hpp"
#include "sphreverb/config/scene.hpp"

namespace sphreverb::config_detail {

// Distances compared with dx/2 (a receiver, the disc's centre from a face) are allowed to fall
// short of it by this many dx: a face written at dx/2 and read back through decimal rounding or
// a mesh's single precision is at dx/2.
inline constexpr double kDistanceTolerance = 1e-6;

// Every name a section uses refers to a defined material.
void check_materials(const Reader& r, const Scene& s);
// Fills s.derived and the materials' wall parameters (derived.cpp).
void derive(const Reader& r, Scene& s);
// The fill box is thick enough for the halo (needs s.derived).
void check_fill_box(const Reader& r, const Scene& s);
// A material a ghost wall carries: rigid, one broadband alpha or six octave-band alphas
// (geometry.cpp).
bool ghost_wall_material(const MaterialSpec& m);
// Where a [boundary] rectangle or disc has fill-box air behind it: the point 1.5 dx behind its
// centre, if that lies in the fill box at least dx/2 from its faces (checks.cpp). A ghost-walled
// plate there leaves that air seeing its front's ghosts. Always empty for a cylinder.
std::optional<Vec3> air_behind(const Scene& s, const BoundarySpec& b);
// Every [boundary]'s `wall`: the key as given, else (auto) ghost for a fixed shape with a ghost
// wall material that is a cylinder with no receiver or emitter inside, or a rectangle or disc
// with no air behind it; else tethered. Sets wall and wall_reason (needs the fill box, the
// materials, the receivers and the emitter; checks.cpp).
void resolve_boundary_walls(Scene& s);
// The [emitter] disc meant for a wall: within dx of a [room] face, a fixed [boundary] rectangle
// or disc, or a fixed mesh's face, parallel to it (normals within 1e-6) and facing away from it
// (its normal into the air), yet closer to it than dx/2: its centre is moved along the face's
// normal to dx/2 from it, and s.notes says so (emitter_placement.cpp).
void place_emitter(const Reader& r, Scene& s);
// The fill box's face `face` (2 axis + side, as room_face_key) sampled on a grid of dx (at most
// 512 points a side: coarser on larger faces) at the
// first lattice layer's depth (dx/2 inside it): `open` of `samples` points have air (inside any
// room mesh, outside every object) and no wall within dx ([room] face, [boundary] shape, mesh,
// the disc); `first` is one of them (fill_box_cover.cpp).
struct FaceCoverage {
  int samples = 0;
  int open = 0;
  std::optional<Vec3> first;
};
FaceCoverage fill_box_face_coverage(const Scene& s, int face);
// Each face of the fill box closed by walls: an error naming the first face whose air faces
// nothing over part of it, and that part's share.
void check_fill_box_closed(const Reader& r, const Scene& s);
// The NAME of the first ghost-walled [boundary] rectangle or disc lying on a face of the [room]
// box (room_face_under within 1e-6 dx); "" if none (derived.cpp; needs the resolved walls).
std::string panel_on_room_face(const Scene& s);
// Receivers and emitter against the fill box, the boundaries and each other; warnings into
// s.warnings (checks.cpp).
void check_geometry(const Reader& r, Scene& s);
// Every receiver's position or path and every monopole's position or path against every fixed
// solid (room meshes, object meshes, [boundary] shapes), the emitter disc's centre against the
// meshes (check_emitter_uncut takes the disc against the shapes): in its air
// (inside a room mesh, outside an object mesh, not in the solid behind a ghost-walled shape) and
// at least dx/2 from its surface. A path is sampled at least every dx/8 of its travel; errors
// name the section, the key, the keyframe or segment, the time and the solid
// (solid_clearance.cpp). The moving solids are checked along their motion by check_geometry.
void check_clear_of_solids(const Reader& r, const Scene& s);

// [geometry.NAME] (geometry.cpp): reads, transforms and checks each mesh (needs s.room).
void read_geometries(const Reader& r, Scene& s);
// The bounding box of the room mesh, if there is one (the default fill box).
std::optional<std::pair<Vec3, Vec3>> room_mesh_box(const Scene& s);
// A material for every mesh surface (needs s.materials): material.GROUP, else material; and
// the materials of ghost-walled boundaries checked (rigid or broadband).
void assign_geometry_materials(const Reader& r, Scene& s);
// Receivers and the emitter inside the room mesh, outside every object, dx/2 from surfaces.
void check_in_mesh_air(const Reader& r, const Scene& s);
// Every fixed object mesh lies in the room ([room] box or room mesh), up to dx/2 beyond its
// faces: one wholly outside, or reaching further out, fails naming the object and the room's box.
void check_objects_in_room(const Reader& r, const Scene& s);

}  // namespace sphreverb::config_detail
