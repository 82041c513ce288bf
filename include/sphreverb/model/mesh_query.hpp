// Geometric queries on a checked mesh (check_mesh() found nothing): which side of the surface a
// point lies on, and the closest surface point with its outward normal. What a ghost-particle
// wall needs: a lattice site on the solid side finds its mirror point across the nearest surface,
// x_mirror = 2 closest.point - x. The CGAL structures (an AABB tree of the triangles) are built
// once in the constructor, O(n log n) for n triangles; each query is O(log n) on average.
#pragma once

#include <cstddef>
#include <memory>

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

enum class MeshSide { Inside, Boundary, Outside };

struct ClosestPoint {
  Vec3 point;                // m, the nearest point of the surface
  Vec3 normal;               // unit outward normal of `triangle`
  std::size_t triangle = 0;  // index into Mesh::triangles
  std::size_t surface = 0;   // index into Mesh::surface_names
  double distance = 0.0;     // m, |x - point| (unsigned; side() tells the side)
};

class MeshQuery {
 public:
  // Throws MeshError when the mesh is not closed and 2-manifold (check_mesh first).
  explicit MeshQuery(const Mesh& mesh);
  ~MeshQuery();
  MeshQuery(MeshQuery&&) noexcept;
  MeshQuery& operator=(MeshQuery&&) noexcept;

  // Exact predicate (CGAL Side_of_triangle_mesh, ray parity with exact orientation tests):
  // Boundary when x lies on a triangle.
  MeshSide side(const Vec3& x) const;
  bool inside(const Vec3& x) const { return side(x) == MeshSide::Inside; }
  // The nearest surface point. On an edge or a corner several triangles are nearest; the one
  // reported is the same for the same mesh and point on every rank.
  ClosestPoint closest(const Vec3& x) const;
  // False only if no triangle comes within `radius` (m) of x: an exact test of the triangles
  // against the cube of half-size radius (1 + 1e-9) around x, which holds the ball. True may be
  // a false alarm (a triangle in the cube's corners). Much cheaper than closest() where the
  // surface is far, so a test "closest(x).distance <= radius" can ask near() first and give the
  // same answer.
  bool near(const Vec3& x, double radius) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sphreverb
