// MeshQuery and the self-intersection test with CGAL: exact predicates, inexact constructions
// (Epick), a Surface_mesh holding the triangles in the mesh's order, an AABB tree over its faces
// shared by the closest-point queries and Side_of_triangle_mesh. This is the only translation
// unit that includes CGAL (it takes the longest to compile).
#include "sphreverb/model/mesh_query.hpp"

#include <CGAL/AABB_face_graph_triangle_primitive.h>
#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Side_of_triangle_mesh.h>
#include <CGAL/Surface_mesh.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "model/detail/mesh_cgal.hpp"

namespace sphreverb {

namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using SurfaceMesh = CGAL::Surface_mesh<Point>;
using FaceIndex = SurfaceMesh::Face_index;
using Side = CGAL::Side_of_triangle_mesh<SurfaceMesh, Kernel>;
using Tree = Side::AABB_tree;

// The mesh's triangles as a Surface_mesh whose face i is triangle i. Throws MeshError when a
// triangle cannot be added (the mesh is not an oriented 2-manifold).
SurfaceMesh to_surface_mesh(const Mesh& mesh) {
  SurfaceMesh sm;
  using Size = SurfaceMesh::size_type;
  sm.reserve(Size(mesh.vertices.size()), Size(3 * mesh.triangles.size() / 2),
             Size(mesh.triangles.size()));
  std::vector<SurfaceMesh::Vertex_index> vi;
  vi.reserve(mesh.vertices.size());
  for (const Vec3& v : mesh.vertices) vi.push_back(sm.add_vertex(Point(v.x, v.y, v.z)));
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const FaceIndex f = sm.add_face(vi[tri[0]], vi[tri[1]], vi[tri[2]]);
    if (f == SurfaceMesh::null_face() || std::size_t(f) != t)
      throw MeshError(mesh.source, "triangle " + std::to_string(t) + " " +
                                       format_point(mesh.corner(t, 0)) +
                                       " cannot join its neighbours: the mesh is not an oriented "
                                       "2-manifold (run the mesh check)");
  }
  return sm;
}

}  // namespace

struct MeshQuery::Impl {
  explicit Impl(const Mesh& mesh)
      : sm(to_surface_mesh(mesh)), tree(faces(sm).first, faces(sm).second, sm), side(tree) {
    if (!CGAL::is_closed(sm))
      throw MeshError(mesh.source, "the surface is open (run the mesh check)");
    tree.accelerate_distance_queries();
    normals.reserve(mesh.triangles.size());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
      normals.push_back(normalized(mesh.area_vector(t)));
    surface = mesh.surface;
  }

  SurfaceMesh sm;
  Tree tree;
  Side side;
  std::vector<Vec3> normals;         // unit, outward, per triangle
  std::vector<std::size_t> surface;  // per triangle
};

MeshQuery::MeshQuery(const Mesh& mesh) : impl_(std::make_unique<Impl>(mesh)) {}
MeshQuery::~MeshQuery() = default;
MeshQuery::MeshQuery(MeshQuery&&) noexcept = default;
MeshQuery& MeshQuery::operator=(MeshQuery&&) noexcept = default;

MeshSide MeshQuery::side(const Vec3& x) const {
  switch (impl_->side(Point(x.x, x.y, x.z))) {
    case CGAL::ON_BOUNDED_SIDE:
      return MeshSide::Inside;
    case CGAL::ON_BOUNDARY:
      return MeshSide::Boundary;
    default:
      return MeshSide::Outside;
  }
}

ClosestPoint MeshQuery::closest(const Vec3& x) const {
  const auto [p, face] = impl_->tree.closest_point_and_primitive(Point(x.x, x.y, x.z));
  ClosestPoint out;
  out.point = {p.x(), p.y(), p.z()};
  out.triangle = std::size_t(face);
  out.normal = impl_->normals[out.triangle];
  out.surface = impl_->surface[out.triangle];
  out.distance = norm(x - out.point);
  return out;
}

bool MeshQuery::near(const Vec3& x, double radius) const {
  const double r = radius * (1.0 + 1e-9);
  return impl_->tree.do_intersect(
      CGAL::Bbox_3(x.x - r, x.y - r, x.z - r, x.x + r, x.y + r, x.z + r));
}

namespace detail {

std::optional<std::pair<std::size_t, std::size_t>> first_self_intersection(const Mesh& mesh) {
  const SurfaceMesh sm = to_surface_mesh(mesh);
  std::vector<std::pair<FaceIndex, FaceIndex>> pairs;
  CGAL::Polygon_mesh_processing::self_intersections(sm, std::back_inserter(pairs));
  std::optional<std::pair<std::size_t, std::size_t>> first;
  for (const auto& [a, b] : pairs) {
    const std::size_t i = std::size_t(a), j = std::size_t(b);
    const std::pair<std::size_t, std::size_t> pair{std::min(i, j), std::max(i, j)};
    if (!first || pair < *first) first = pair;
  }
  return first;
}

}  // namespace detail

}  // namespace sphreverb
