#include "sphreverb/solver/covered_faces.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sphreverb/config/derived.hpp"
#include "sphreverb/model/boundary.hpp"

namespace sphreverb {

std::optional<FaceCover> plate_on_room_face(const Scene& s, const BoundarySpec& b) {
  const Vec3& lo = s.room.min;
  const Vec3& hi = s.room.max;
  const int face = room_face_under(s, b, kContactTolerance * std::max(1.0, norm(hi - lo)));
  if (face < 0) return std::nullopt;
  const int axis = face / 2, side = face % 2;
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  const double face_area = (hi[a1] - lo[a1]) * (hi[a2] - lo[a2]);
  double area = 0.0;
  if (b.shape == ShapeKind::Disc) {
    area = std::min(face_area, std::numbers::pi * b.radius * b.radius);
  } else {
    // The rectangle's in-plane axes are coordinate axes here (its normal is one): clip its
    // extent along each to the face.
    const WallShape w =
        WallShape::from(Shape{b.shape, b.center, b.normal, b.width, b.height, b.radius});
    area = 1.0;
    for (int a : {a1, a2}) {
      const double half = 0.5 * (std::abs(w.u[a]) * b.width + std::abs(w.v[a]) * b.height);
      const double from = std::max(lo[a], b.center[a] - half);
      const double to = std::min(hi[a], b.center[a] + half);
      area *= std::max(0.0, to - from);
    }
  }
  return FaceCover{2 * axis + side, area};
}

std::vector<SceneSurface> exposed_surfaces(const Scene& s) {
  std::vector<SceneSurface> out = scene_surfaces(s);
  if (!s.room.present) return out;
  // scene_surfaces: the six faces, then the boundaries in scene order.
  for (std::size_t i = 0; i < s.boundaries.size(); ++i) {
    const std::optional<FaceCover> c = plate_on_room_face(s, s.boundaries[i]);
    if (!c) continue;
    SceneSurface& face = out[static_cast<std::size_t>(c->face)];
    face.area = std::max(0.0, face.area - c->area);
    out[6 + i].area = c->area;  // the part of it beyond the face sees no air
    out[6 + i].sides = 1;
  }
  return out;
}

}  // namespace sphreverb
