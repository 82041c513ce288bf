#include "sphreverb/config/object_walls.hpp"

#include <memory>

#include "sphreverb/model/path.hpp"
#include "sphreverb/model/rotation_path.hpp"

namespace sphreverb {

Wall object_wall(const BoundarySpec& b) {
  Wall w;
  w.shape = WallShape::from(Shape{b.shape, b.center, b.normal, b.width, b.height, b.radius});
  if (b.path.size() > 1) w.path = Path(b.path, b.interpolation);
  if (b.rotation.size() > 1)
    w.rotation = RotationPath(b.rotation, b.interpolation, b.axis, b.pivot);
  return w;
}

Wall object_wall(const GeometrySpec& g) {
  Wall w;
  const Vec3 reference = g.path.empty() ? g.turn_pivot : g.path.front().x;
  w.shape = WallShape::mesh(std::make_shared<const MeshBody>(g.mesh, reference));
  if (g.path.size() > 1) w.path = Path(g.path, g.interpolation);
  if (g.turn.size() > 1)
    w.rotation = RotationPath(g.turn, g.interpolation, g.turn_axis, g.turn_pivot);
  return w;
}

}  // namespace sphreverb
