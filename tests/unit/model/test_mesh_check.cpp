// Tests of mesh validation and facts (mesh_check.hpp): exact volumes and areas of boxes (also
// rotated), an icosphere against its polyhedron's volume, and each defect found and named with
// the triangle or edge and its coordinates.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "mesh_fixtures.hpp"
#include "sphreverb/model/mesh_check.hpp"
#include "sphreverb/model/mesh_io.hpp"
#include "sphreverb/model/shape_mesh.hpp"

namespace sphreverb {
namespace {

using namespace testing_mesh;

Mesh written_and_read(const TempDir& dir, const std::string& name, const Soup& s,
                      const MeshLoadOptions& o = {}) {
  write_obj(dir / name, s);
  return load_mesh(dir / name, o);
}

// The check's problem, which must exist and name the file.
MeshProblem expect_problem(const Mesh& m, MeshDefect defect, const MeshCheckOptions& o = {}) {
  const auto p = check_mesh(m, o);
  EXPECT_TRUE(p.has_value());
  if (!p) return {defect, ""};
  EXPECT_EQ(int(p->defect), int(defect)) << p->message;
  EXPECT_NE(p->message.find(m.source.filename().string()), std::string::npos) << p->message;
  return *p;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(MeshCheck, RotatedBoxKeepsVolumeAndArea) {
  TempDir dir;
  MeshLoadOptions o;
  o.rotation = Rotation::euler_xyz_degrees({0, 0, 17});
  o.translation = {0.25, -3, 2};
  const Mesh m = written_and_read(dir, "box.obj", box({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}), o);
  const MeshFacts f = mesh_facts(m);
  EXPECT_NEAR(f.volume, 1.0, 1e-12);
  double area = 0.0;
  for (const SurfaceFacts& s : f.surfaces) area += s.area;
  EXPECT_NEAR(area, 6.0, 1e-12);
  const double c = std::cos(17 * std::numbers::pi / 180), s = std::sin(17 * std::numbers::pi / 180);
  EXPECT_NEAR(f.max.x - f.min.x, c + s, 1e-12);  // the rotated square's extent
  EXPECT_NEAR(f.max.z - f.min.z, 1.0, 1e-15);
  EXPECT_FALSE(check_mesh(m).has_value());
}

TEST(MeshCheck, IcosphereVolumeIsThePolyhedronsBelowTheSpheres) {
  TempDir dir;
  const double a = 0.75;
  const Soup s = icosphere(a, 4);
  const Mesh m = written_and_read(dir, "sphere.obj", s);
  ASSERT_EQ(m.triangle_count(), 20u * 256u);
  // The polyhedron's volume from its own (single-precision) vertices: (1/6) sum a . (b x c).
  double polyhedron = 0.0, r_min = a;
  for (const auto& f : s.faces) {
    const Vec3 &p = s.vertices[f[0]], &q = s.vertices[f[1]], &r = s.vertices[f[2]];
    polyhedron += dot(p, cross(q, r)) / 6.0;
    r_min = std::min(r_min, std::abs(dot(p, normalized(cross(q - p, r - p)))));  // inradius bound
  }
  const MeshFacts f = mesh_facts(m);
  EXPECT_NEAR(f.volume, polyhedron, 1e-12 * polyhedron);
  const double ball = 4.0 / 3.0 * std::numbers::pi;
  EXPECT_LT(f.volume, ball * a * a * a);
  EXPECT_GT(f.volume, ball * r_min * r_min * r_min);
  EXPECT_NEAR(f.volume / (ball * a * a * a), 1.0, 5e-3);
  EXPECT_FALSE(check_mesh(m).has_value());
}

TEST(MeshCheck, BoxWithOneFaceRemovedIsOpen) {
  TempDir dir;
  Soup s = box({0, 0, 0}, {1, 1, 1});
  s.remove(5);  // z+
  const MeshProblem p =
      expect_problem(written_and_read(dir, "open.obj", s), MeshDefect::OpenSurface);
  EXPECT_TRUE(contains(p.message, "open surface: edge (")) << p.message;
  EXPECT_TRUE(contains(p.message, " 1)")) << p.message;  // a boundary edge lies at z = 1
  EXPECT_TRUE(contains(p.message, "(4 edges like it)")) << p.message;
}

TEST(MeshCheck, TwoBoxesSharingAnEdgeAreNonManifold) {
  TempDir dir;
  Soup s = box({0, 0, 0}, {1, 1, 1});
  s.append(box({1, 1, 0}, {2, 2, 1}));
  const MeshProblem p =
      expect_problem(written_and_read(dir, "edge.obj", s), MeshDefect::NonManifoldEdge);
  EXPECT_TRUE(contains(p.message, "edge (1 1 0)-(1 1 1)") ||
              contains(p.message, "edge (1 1 1)-(1 1 0)"))
      << p.message;
  EXPECT_TRUE(contains(p.message, "shared by 4 triangles")) << p.message;
}

TEST(MeshCheck, TwoBoxesSharingACornerAreNonManifold) {
  TempDir dir;
  Soup s = box({0, 0, 0}, {1, 1, 1});
  s.append(box({1, 1, 1}, {2, 2, 2}));
  const MeshProblem p =
      expect_problem(written_and_read(dir, "corner.obj", s), MeshDefect::NonManifoldVertex);
  EXPECT_TRUE(contains(p.message, "vertex (1 1 1)")) << p.message;
}

TEST(MeshCheck, OverlappingBoxesSelfIntersect) {
  TempDir dir;
  Soup s = box({0, 0, 0}, {1, 1, 1});
  s.append(box({0.5, 0.5, 0.5}, {1.5, 1.5, 1.5}));
  const MeshProblem p =
      expect_problem(written_and_read(dir, "cross.obj", s), MeshDefect::SelfIntersection);
  EXPECT_TRUE(contains(p.message, "self-intersection: triangle ")) << p.message;
  EXPECT_TRUE(contains(p.message, " crosses triangle ")) << p.message;
}

TEST(MeshCheck, TwoCrossingTrianglesInAClosedMeshSelfIntersect) {
  // Two tetrahedra, one of whose triangles pierces the other's: closed, manifold, crossing.
  Mesh m;
  m.source = "tetrahedra.obj";
  m.vertices = {{0, 0, 0},        {1, 0, 0},        {0, 1, 0},        {0, 0, 1},
                {0.2, 0.2, -0.5}, {1.2, 0.2, -0.5}, {0.2, 1.2, -0.5}, {0.2, 0.2, 0.5}};
  m.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3},
                 {4, 6, 5}, {4, 5, 7}, {4, 7, 6}, {5, 6, 7}};
  m.surface.assign(8, 0);
  m.surface_names = {"solid"};
  const MeshProblem p = expect_problem(m, MeshDefect::SelfIntersection);
  EXPECT_TRUE(contains(p.message, "self-intersection: triangle 0 ")) << p.message;
}

TEST(MeshCheck, OneFlippedFaceIsInconsistent) {
  TempDir dir;
  Soup s = box({0, 0, 0}, {1, 1, 1});
  s.flip(3);  // y+
  const MeshProblem p =
      expect_problem(written_and_read(dir, "flip.obj", s), MeshDefect::InconsistentOrientation);
  EXPECT_TRUE(contains(p.message, "surface 'y+'")) << p.message;
}

TEST(MeshCheck, InvertedBoxIsReportedWithItsVolume) {
  TempDir dir;
  Soup s = box({0, 0, 0}, {1, 1, 1});
  s.flip_all();
  const Mesh m = written_and_read(dir, "inverted.obj", s);
  EXPECT_NEAR(mesh_facts(m).volume, -1.0, 1e-12);
  const MeshProblem p = expect_problem(m, MeshDefect::InvertedOrientation);
  EXPECT_TRUE(contains(p.message, "signed volume -1 m^3")) << p.message;
  EXPECT_TRUE(contains(p.message, "triangle 0 (surface 'x-'")) << p.message;
}

TEST(MeshCheck, CavityMustPointIntoTheCavity) {
  TempDir dir;
  Soup hollow = box({0, 0, 0}, {3, 3, 3});
  Soup cavity = box({1, 1, 1}, {2, 2, 2});
  cavity.flip_all();  // normals out of the region (the shell between the boxes): into the cavity
  hollow.append(cavity);
  const Mesh good = written_and_read(dir, "hollow.obj", hollow);
  EXPECT_FALSE(check_mesh(good).has_value());
  EXPECT_NEAR(mesh_facts(good).volume, 26.0, 1e-12);

  Soup wrong = box({0, 0, 0}, {3, 3, 3});
  wrong.append(box({1, 1, 1}, {2, 2, 2}));
  const MeshProblem p =
      expect_problem(written_and_read(dir, "wrong.obj", wrong), MeshDefect::InvertedOrientation);
  EXPECT_TRUE(contains(p.message, "cavity")) << p.message;
  EXPECT_TRUE(contains(p.message, "(1 1 1)")) << p.message;
}

TEST(MeshCheck, RoomInMillimetresReadAsMetresIsImplausible) {
  TempDir dir;
  const Soup room = box({0, 0, 0}, {4000, 3000, 2500});
  const MeshProblem p =
      expect_problem(written_and_read(dir, "room_mm.obj", room), MeshDefect::ImplausibleSize);
  EXPECT_TRUE(contains(p.message, "4000 m across")) << p.message;
  EXPECT_TRUE(contains(p.message, "units")) << p.message;

  MeshLoadOptions mm;
  mm.unit = LengthUnit::Millimetre;
  const Mesh right = written_and_read(dir, "room_mm.obj", room, mm);
  EXPECT_FALSE(check_mesh(right).has_value());
  EXPECT_NEAR(mesh_facts(right).volume, 30.0, 30.0 * 1e-14);

  // A room in metres read as millimetres: 4 mm across.
  const Mesh tiny = written_and_read(dir, "room_m.obj", box({0, 0, 0}, {4, 3, 2.5}), mm);
  const MeshProblem q = expect_problem(tiny, MeshDefect::ImplausibleSize);
  EXPECT_TRUE(contains(q.message, "0.004 m across")) << q.message;
}

TEST(MeshCheck, DegenerateTriangleIsNamed) {
  Mesh m;
  m.source = "sliver.obj";
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}};
  m.triangles = {{0, 1, 3}, {0, 1, 2}};
  m.surface.assign(2, 0);
  m.surface_names = {"s"};
  const MeshProblem p = expect_problem(m, MeshDefect::DegenerateTriangle);
  EXPECT_TRUE(
      contains(p.message, "degenerate triangle 1 (surface 's', corners (0 0 0) (1 0 0) (2 0 0))"))
      << p.message;
}

// The box a [room] off the lattice is walled as (shape_mesh.hpp): closed, outward, its volume
// and a surface per face in the [room] faces' order with the face's area.
TEST(MeshCheck, BoxMeshBoundsTheBoxWithASurfacePerFace) {
  const Mesh m = sphreverb::box_mesh(Vec3{0.1, 0.2, 0.3}, Vec3{0.9, 0.8, 0.8});
  const auto problem = check_mesh(m);
  EXPECT_FALSE(problem.has_value()) << (problem ? problem->message : "");
  const MeshFacts f = mesh_facts(m);
  EXPECT_EQ(f.triangles, 12u);
  EXPECT_EQ(f.vertices, 8u);
  EXPECT_NEAR(f.volume, 0.8 * 0.6 * 0.5, 1e-12);
  const char* names[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
  const double areas[6] = {0.3, 0.3, 0.4, 0.4, 0.48, 0.48};
  ASSERT_EQ(f.surfaces.size(), 6u);
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(f.surfaces[k].name, names[k]);
    EXPECT_EQ(f.surfaces[k].triangles, 2u);
    EXPECT_NEAR(f.surfaces[k].area, areas[k], 1e-12) << names[k];
  }
  // Each face's normal points out of the box: along -axis at min, +axis at max.
  for (std::size_t t = 0; t < m.triangle_count(); ++t) {
    const int face = static_cast<int>(m.surface[t]);
    const double sign = face % 2 == 0 ? -1.0 : 1.0;
    EXPECT_GT(sign * m.area_vector(t)[face / 2], 0.0) << "triangle " << t;
  }
}

}  // namespace
}  // namespace sphreverb
