// Tests of a moving mesh object as a tethered force wall (boundary.hpp "Moving mesh objects"): the
// probe of a closed mesh cube equals that of the box's six rectangles (outward) over each face, at
// rest, translated along a path and turned about an axis; round an edge it is the distance to
// the edge along the bisector; inside it is negative; the lattice sites in and within dx/4 of
// the cube stay empty; the tethers of a moving cube hold only particles near its posed surface.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "mesh_fixtures.hpp"
#include "sphreverb/model/boundary.hpp"

namespace sphreverb {
namespace {

using testing_mesh::one_surface_box;

const Vec3 kLo{0.2, 0.3, 0.4}, kHi{0.6, 0.5, 0.9};  // the cube (a box), m

Wall mesh_wall(const Vec3& reference) {
  Wall w;
  w.shape = WallShape::mesh(std::make_shared<const MeshBody>(one_surface_box(kLo, kHi), reference));
  return w;
}

// The box's faces as walls with outward normals (box_faces' point into the box).
std::vector<Wall> face_walls() {
  std::vector<Wall> out;
  for (WallShape f : box_faces(kLo, kHi)) {
    f.normal = -f.normal;
    f.u = -f.u;  // keep a right-handed frame (the extents are symmetric)
    Wall w;
    w.shape = f;
    out.push_back(w);
  }
  return out;
}

// The face (0..5) whose extent holds p and which is nearest, among the posed faces.
WallProbe face_probe(const std::vector<WallShape>& faces, const Vec3& p) {
  WallProbe best;
  double d = HUGE_VAL;
  for (const WallShape& f : faces) {
    const WallProbe pr = f.probe(p);
    if (pr.in_extent && std::abs(pr.distance) < d) d = std::abs(pr.distance), best = pr;
  }
  return best;
}

// Points 1-3 cm off each face, over its middle part (nearest to that face alone).
std::vector<Vec3> points_off_faces() {
  std::vector<Vec3> out;
  const Vec3 mid = 0.5 * (kLo + kHi);
  for (int a = 0; a < 3; ++a)
    for (const double side : {-1.0, 1.0})
      for (const double off : {0.01, 0.023})
        for (const double s : {-0.05, 0.0, 0.04}) {
          Vec3 p = mid;
          p[a] = (side < 0 ? kLo[a] : kHi[a]) + side * off;
          p[(a + 1) % 3] += s;
          p[(a + 2) % 3] -= 0.5 * s;
          out.push_back(p);
        }
  return out;
}

void expect_same_probe(const WallProbe& mesh, const WallProbe& rect, double tol) {
  EXPECT_TRUE(mesh.in_extent);
  EXPECT_NEAR(mesh.distance, rect.distance, tol);
  EXPECT_NEAR(mesh.normal.x, rect.normal.x, tol);
  EXPECT_NEAR(mesh.normal.y, rect.normal.y, tol);
  EXPECT_NEAR(mesh.normal.z, rect.normal.z, tol);
}

TEST(MovingMesh, ProbeOfACubeAtRestIsTheBoxFaces) {
  const Wall cube = mesh_wall(0.5 * (kLo + kHi));
  std::vector<WallShape> faces;
  for (const Wall& w : face_walls()) faces.push_back(w.shape);
  for (const Vec3& p : points_off_faces()) {
    const WallProbe m = cube.shape.probe(p);
    expect_same_probe(m, face_probe(faces, p), 1e-12);
    EXPECT_GT(m.distance, 0.0);
  }
}

TEST(MovingMesh, ProbeOfATranslatedAndTurnedCubeIsTheBoxFaces) {
  const Vec3 ref = 0.5 * (kLo + kHi), pivot{0.2, 0.3, 0.65};  // a hinge on an edge
  const std::vector<Keyframe> keys = {{0.0, ref}, {0.01, ref + Vec3{0.03, -0.02, 0.01}}};
  const std::vector<AngleKeyframe> turn = {{0.0, 0.0}, {0.01, 0.4}};
  const Vec3 axis = normalized(Vec3{0.2, 0.1, 1.0});
  Wall cube = mesh_wall(ref);
  cube.path = Path(keys, PathInterpolation::Linear);
  cube.rotation = RotationPath(turn, PathInterpolation::Linear, axis, pivot);
  // Each face moves rigidly with the cube: its path is the cube's shifted to its centre.
  std::vector<Wall> rects = face_walls();
  for (Wall& f : rects) {
    std::vector<Keyframe> shifted = keys;
    for (Keyframe& k : shifted) k.x = k.x + (f.shape.center - ref);
    f.path = Path(shifted, PathInterpolation::Linear);
    f.rotation = cube.rotation;
  }
  for (const double t : {0.0, 0.0037, 0.01}) {
    const WallShape posed = cube.pose(t);
    std::vector<WallShape> faces;
    for (const Wall& f : rects) faces.push_back(f.pose(t));
    for (const Vec3& p0 : points_off_faces()) {
      const Vec3 p = cube.point_at(p0, t);  // the same point of the cube's frame
      const WallProbe m = posed.probe(p);
      expect_same_probe(m, face_probe(faces, p), 1e-9);
      EXPECT_NEAR(m.distance, cube.shape.probe(p0).distance, 1e-9);
    }
  }
  // The surface's velocity: the same formula as the faces'.
  const Vec3 x = cube.point_at(kHi, 0.005);
  const Vec3 v = cube.velocity_at(x, 0.005), vf = rects[1].velocity_at(x, 0.005);
  EXPECT_NEAR(norm(v - vf), 0.0, 1e-12);
  EXPECT_GT(cube.max_surface_speed(), norm(v));
}

TEST(MovingMesh, ProbeRoundAnEdgeAndInside) {
  const Wall cube = mesh_wall(kLo);
  // Off the edge x = hi, y = hi along the bisector: the distance to the edge, the bisector.
  const Vec3 p{kHi.x + 0.03, kHi.y + 0.03, 0.6};
  const WallProbe e = cube.shape.probe(p);
  EXPECT_NEAR(e.distance, 0.03 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(e.normal.x, std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(e.normal.y, std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(e.normal.z, 0.0, 1e-12);
  // Inside, 1 cm under the face z = lo: negative, the outward normal.
  const WallProbe in = cube.shape.probe({0.4, 0.4, kLo.z + 0.01});
  EXPECT_NEAR(in.distance, -0.01, 1e-12);
  EXPECT_NEAR(in.normal.z, -1.0, 1e-12);
  EXPECT_DOUBLE_EQ(cube.shape.distance({0.4, 0.4, 0.6}), 0.0);  // in the solid
  EXPECT_NEAR(cube.shape.distance({0.4, 0.4, kHi.z + 0.02}), 0.02, 1e-12);
}

TEST(MovingMesh, LatticeSitesInAndNearTheSolidStayEmpty) {
  std::vector<Wall> walls = {mesh_wall(kLo)};
  walls[0].path = Path({{0.0, kLo}, {1.0, kLo + Vec3{0.1, 0, 0}}}, PathInterpolation::Linear);
  const double dx = 0.02;
  EXPECT_FALSE(is_air_site(walls, {0.4, 0.4, 0.6}, dx));             // deep inside
  EXPECT_FALSE(is_air_site(walls, {0.4, 0.4, kHi.z}, dx));           // on the surface
  EXPECT_FALSE(is_air_site(walls, {0.4, 0.4, kHi.z + 0.0049}, dx));  // within dx/4 outside
  EXPECT_TRUE(is_air_site(walls, {0.4, 0.4, kHi.z + 0.0051}, dx));
  EXPECT_TRUE(is_air_site(walls, {0.1, 0.1, 0.1}, dx));  // outside the box
}

TEST(MovingMesh, TethersHoldParticlesNearThePosedSurfaceOnly) {
  std::vector<Wall> walls = {mesh_wall(kLo)};
  walls[0].path = Path({{0.0, kLo}, {1.0, kLo + Vec3{0.0, 0.0, 0.1}}}, PathInterpolation::Linear);
  const double h = 0.016;
  // Particles on a column above the cube's top face, at rest at their sites; the cube has moved
  // up 5 cm at t = 0.5 s.
  std::vector<Vec3> sites;
  for (int k = 0; k < 20; ++k) sites.push_back({0.4, 0.4, kHi.z + 0.005 + 0.01 * k});
  const auto at = [&](std::size_t i) { return sites[i]; };
  const std::vector<Tether> rest = find_tethers(sites.size(), at, walls, h, at, 0.0);
  ASSERT_EQ(rest.size(), 2u);  // 0.5 and 1.5 cm from the face
  EXPECT_TRUE(rest[0].spring);
  EXPECT_NEAR(rest[0].d0, 0.005, 1e-12);
  // The particles above the moved cube (the others would be in its solid).
  const auto above = [&](std::size_t i) { return sites[i + 5]; };
  const std::vector<Tether> moved = find_tethers(sites.size() - 5, above, walls, h, above, 0.5);
  ASSERT_EQ(moved.size(), 2u);  // 5.5 and 6.5 cm above the old face: 0.5 and 1.5 cm from the new
  EXPECT_EQ(moved[0].particle, 0u);
  EXPECT_FALSE(moved[0].spring);  // it did not start in the zone: the rigid condition alone
  EXPECT_NEAR(moved[0].d0, 0.005, 1e-12);
}

}  // namespace
}  // namespace sphreverb
