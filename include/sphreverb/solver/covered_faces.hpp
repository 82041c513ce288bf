// [boundary] plates lying on a [room] face: a door or a window drawn as a rectangle on a wall.
// The air sees the plate there, not the face under it, so the diffuse-field estimate
// (reverberation.hpp) counts the plate's material on the covered area (one side: the other faces
// the wall) and the face's material on the rest of the face, never both:
//
//     A = sum_faces (S_f - S_covered,f) alpha_f + sum_plates on faces S_p alpha_p + the rest
//
// scene_surfaces (surfaces.hpp) lists every surface as it is; exposed_surfaces is that list with
// the covered area taken off and such plates counted on their front only. The diffuse-field
// estimates and the area per material (surfaces.hpp) use it, as does postproc's report (report.py,
// with_face_plates).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/physics/reverberation.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {

struct FaceCover {
  int face = 0;       // 2 axis + side, as room_face_key and box_faces
  double area = 0.0;  // m^2 of the face the plate covers (its part within the face's rectangle)
};

// The room face a fixed [boundary] rectangle or disc lies on: its normal along the face's axis
// (within 1e-9 of it), its centre on the face's plane within kContactTolerance of the room's
// diagonal (at least 1 m), and the area of the face it covers (a rectangle clipped to the face;
// a disc's full area, at most the face's). nullopt for any other boundary, for a moving one and
// without a [room].
std::optional<FaceCover> plate_on_room_face(const Scene& scene, const BoundarySpec& plate);

// scene_surfaces with every plate_on_room_face's covered area taken off its face (never below
// 0) and the plate counted with that area (what lies beyond the face sees no air) and one side.
std::vector<SceneSurface> exposed_surfaces(const Scene& scene);

}  // namespace sphreverb
