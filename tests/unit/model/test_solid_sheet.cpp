// Tests of ghost-walled boundary shapes (solid_sheet.hpp) in SolidGeometry: the solid behind a
// rectangle, disc and column; two rectangles meeting at an edge leave no gap and a point behind
// the edge takes both faces; six rectangles closing a box answer every query as the box given as
// a room mesh does (brute force over the lattice around it), and their ghost walls are the mirror
// images bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "mesh_fixtures.hpp"
#include "sphreverb/model/ghost_walls.hpp"
#include "sphreverb/model/solid_geometry.hpp"
#include "sphreverb/model/solid_sheet.hpp"

namespace sphreverb {
namespace {

WallShape rectangle(const Vec3& center, const Vec3& normal, double w, double h) {
  return WallShape::from(Shape{ShapeKind::Rectangle, center, normal, w, h, 0.0});
}

GeometryPart sheet_part(const WallShape& shape, double depth, double admittance = 0.0) {
  GeometryPart part;
  part.sheet = SolidSheet(shape, depth);
  part.admittance = {admittance};
  return part;
}

// The six faces of the box [0, L]^3 as rectangles with normals into it.
std::vector<GeometryPart> box_sheets(double L, double depth) {
  std::vector<GeometryPart> parts;
  for (const WallShape& f : box_faces({0, 0, 0}, {L, L, L})) parts.push_back(sheet_part(f, depth));
  return parts;
}

using testing_mesh::one_surface_box;

TEST(SolidSheet, RectangleSolidIsTheChamferedSlabBehindIt) {
  // The plane x = 0, extent y, z in [-0.5, 0.5], air at x > 0, depth 0.3.
  const SolidSheet s(rectangle({0, 0, 0}, {1, 0, 0}, 1.0, 1.0), 0.3);
  EXPECT_TRUE(s.solid({0, 0, 0}));         // on the surface: not air
  EXPECT_TRUE(s.solid({-0.3, 0.4, 0}));    // at full depth
  EXPECT_FALSE(s.solid({-0.31, 0.4, 0}));  // deeper
  EXPECT_FALSE(s.solid({0.01, 0, 0}));     // in front
  EXPECT_FALSE(s.solid({0, 0.6, 0}));      // beside the edge, in the plane
  EXPECT_TRUE(s.solid({-0.2, 0.69, 0}));   // behind the edge, within the chamfer
  EXPECT_FALSE(s.solid({-0.2, 0.71, 0}));  // beyond it
  const SheetPoint c = s.closest({-0.2, 0.7, 0.1});
  EXPECT_NEAR(c.point.x, 0.0, 1e-15);
  EXPECT_NEAR(c.point.y, 0.5, 1e-15);
  EXPECT_NEAR(c.point.z, 0.1, 1e-15);
  EXPECT_NEAR(c.distance, std::sqrt(0.08), 1e-15);
  EXPECT_NEAR(c.normal.x, -1.0, 1e-15);  // air -> solid
  for (int a = 0; a < 3; ++a) {
    EXPECT_LE(s.lo()[a], a == 0 ? -0.3 : -0.8);
    EXPECT_GE(s.hi()[a], a == 0 ? 0.0 : 0.8);
  }
}

TEST(SolidSheet, DiscAndColumn) {
  const SolidSheet disc(WallShape::disc({0, 0, 0}, {0, 0, 1}, 0.5), 0.2);
  EXPECT_TRUE(disc.solid({0.45, 0, -0.1}));
  EXPECT_TRUE(disc.solid({0.55, 0, -0.1}));  // chamfer
  EXPECT_FALSE(disc.solid({0.65, 0, -0.1}));
  EXPECT_FALSE(disc.solid({0.1, 0, 0.01}));
  const SheetPoint d = disc.closest({0.8, 0, 0.3});
  EXPECT_NEAR(d.point.x, 0.5, 1e-15);
  EXPECT_NEAR(d.normal.z, -1.0, 1e-15);
  // A column of radius 0.5 and length 2 along z: solid inside, air outside.
  const SolidSheet col(WallShape::from(Shape{ShapeKind::Cylinder, {0, 0, 0}, {0, 0, 1}, 0, 2, 0.5}),
                       0.2);
  EXPECT_TRUE(col.solid({0.3, 0.3, 0.9}));
  EXPECT_FALSE(col.solid({0.4, 0.4, 0}));
  EXPECT_FALSE(col.solid({0, 0, 1.01}));
  const SheetPoint side = col.closest({0.4, 0, 0.2});
  EXPECT_NEAR(side.point.x, 0.5, 1e-15);
  EXPECT_NEAR(side.normal.x, -1.0, 1e-15);
  const SheetPoint top = col.closest({0.1, 0, 0.95});
  EXPECT_NEAR(top.point.z, 1.0, 1e-15);
  EXPECT_NEAR(top.normal.z, -1.0, 1e-15);
  const SheetPoint outside = col.closest({1.5, 0, 0});
  EXPECT_NEAR(outside.distance, 1.0, 1e-15);
}

// Two rectangles meeting at the edge x = y = 0 (air at x > 0, y > 0): every point of the quadrant
// behind the edge (within the depth) is solid, and takes the faces of both.
TEST(SolidSheet, RectanglesMeetingAtAnEdgeLeaveNoGap) {
  std::vector<GeometryPart> parts;
  parts.push_back(sheet_part(rectangle({0, 0.5, 0}, {1, 0, 0}, 1.0, 1.0), 0.3));
  parts.push_back(sheet_part(rectangle({0.5, 0, 0}, {0, 1, 0}, 1.0, 1.0), 0.3, 0.01));
  const SolidGeometry g(std::move(parts));
  for (int i = 0; i <= 30; ++i)
    for (int j = 0; j <= 30; ++j) {
      const Vec3 x{-0.01 * i, -0.01 * j, 0.1};
      EXPECT_FALSE(g.in_air_region(x)) << x.x << " " << x.y;
      if (i == 0 || j == 0) continue;
      const WallContact c = g.contact(x);
      ASSERT_EQ(c.faces, 2) << x.x << " " << x.y;
      EXPECT_NEAR(c.point.x, 0.0, 1e-15);
      EXPECT_NEAR(c.point.y, 0.0, 1e-15);
      EXPECT_NEAR(c.normal[0].x + c.normal[1].x, -1.0, 1e-15);
      EXPECT_NEAR(c.normal[0].y + c.normal[1].y, -1.0, 1e-15);
      // Each face keeps its own admittance.
      for (int f = 0; f < 2; ++f) EXPECT_EQ(c.admittance[f], c.normal[f].y < -0.5 ? 0.01 : 0.0);
    }
  // Behind one face only: that face.
  const WallContact one = g.contact({-0.1, 0.4, 0.1});
  EXPECT_EQ(one.faces, 1);
  EXPECT_NEAR(one.normal[0].x, -1.0, 1e-15);
  EXPECT_TRUE(g.in_air_region({0.01, 0.01, 0.1}));
  // The free edges (z = +-0.5): air in front of the plane beyond them.
  EXPECT_TRUE(g.in_air_region({0.05, 0.5, 0.51}));
}

// Six rectangles closing the box [0, 1]^3 against the box as a room mesh: the same air and, at
// every solid site within the depth, the same nearest point, distance and set of faces.
TEST(SolidSheet, SixRectanglesAnswerAsTheBoxMesh) {
  const double L = 1.0, dx = 0.1, depth = 0.35;
  const SolidGeometry sheets(box_sheets(L, depth));
  std::vector<GeometryPart> mesh_parts(1);
  mesh_parts[0].mesh = one_surface_box({0, 0, 0}, {L, L, L});
  mesh_parts[0].room = true;
  mesh_parts[0].admittance = {0.0};
  const SolidGeometry mesh(std::move(mesh_parts));
  std::size_t compared = 0;
  for (int k = -3; k <= 12; ++k)
    for (int j = -3; j <= 12; ++j)
      for (int i = -3; i <= 12; ++i) {
        const Vec3 x{(i + 0.5) * dx, (j + 0.5) * dx, (k + 0.5) * dx};
        ASSERT_EQ(sheets.in_air_region(x), mesh.in_air_region(x))
            << x.x << " " << x.y << " " << x.z;
        if (mesh.in_air_region(x)) continue;
        const WallContact a = sheets.contact(x), b = mesh.contact(x);
        EXPECT_NEAR(a.distance, b.distance, 1e-12);
        EXPECT_NEAR(norm(a.point - b.point), 0.0, 1e-12);
        ASSERT_EQ(a.faces, b.faces) << x.x << " " << x.y << " " << x.z;
        for (int f = 0; f < a.faces; ++f) {
          bool found = false;
          for (int q = 0; q < b.faces; ++q)
            found = found || dot(a.normal[f], b.normal[q]) > 1 - 1e-12;
          EXPECT_TRUE(found);
        }
        ++compared;
      }
  EXPECT_EQ(compared, 16u * 16u * 16u - 10u * 10u * 10u);
}

// The ghost walls of the six rectangles: the mirror images of the box's air (densities copied,
// the normal velocities reversed, at edges and corners in every face there), the same sites as
// the box mesh gives.
TEST(SolidSheet, SixRectanglesGiveTheMirrorImages) {
  const double dx = 0.1, L = 1.0, reach = 2.8 * dx;
  const Lattice l = Lattice::filling({0, 0, 0}, {L, L, L}, dx);
  const auto rho = [](const Vec3& x) { return 1.2 + 0.01 * std::sin(7 * x.x + 3 * x.y - 5 * x.z); };
  const auto vel = [](const Vec3& x) { return Vec3{std::cos(4 * x.y), std::sin(3 * x.z), x.x}; };
  std::size_t ghosts[2] = {0, 0};
  for (int variant = 0; variant < 2; ++variant) {
    std::vector<GeometryPart> parts;
    if (variant == 0) {
      parts = box_sheets(L, reach + dx);
    } else {
      parts.resize(1);
      parts[0].mesh = one_surface_box({0, 0, 0}, {L, L, L});
      parts[0].room = true;
      parts[0].admittance = {0.0};
    }
    const SolidGeometry geometry(std::move(parts));
    const auto air = [&](int i, int j, int k) { return geometry.is_air(l.site(i, j, k)); };
    GhostWallParams params;
    params.reach = reach;
    GhostWalls walls(geometry, l, air, params, 0, -1.0, 2.0);
    Particles p;
    for (int k = 0; k < l.n[2]; ++k)
      for (int j = 0; j < l.n[1]; ++j)
        for (int i = 0; i < l.n[0]; ++i) {
          const Vec3 x = l.site(i, j, k);
          ASSERT_TRUE(air(i, j, k));
          const std::size_t n = p.size();
          p.resize(n + 1);
          p.x[n] = x.x, p.y[n] = x.y, p.z[n] = x.z;
          const Vec3 v = vel(x);
          p.vx[n] = v.x, p.vy[n] = v.y, p.vz[n] = v.z;
          p.rho[n] = rho(x);
          p.key[n] = image_key(l.id(i, j, k), kRealImage);
        }
    p.n_owned = p.size();
    walls.rebuild(p);
    EXPECT_EQ(walls.stats().shepard + walls.stats().dropped, 0u);
    ghosts[variant] = p.n_ghost;
    for (std::size_t g = p.n_owned; g < p.size(); ++g) {
      const Vec3 x = p.position(g);
      Vec3 m = x;
      int flips[3] = {0, 0, 0};
      for (int a = 0; a < 3; ++a) {
        if (x[a] < 0) m[a] = -x[a], flips[a] = 1;
        if (x[a] > L) m[a] = 2 * L - x[a], flips[a] = 1;
      }
      EXPECT_NEAR(p.rho[g], rho(m), 1e-14) << x.x << " " << x.y << " " << x.z;
      const Vec3 v = vel(m), vg = p.velocity(g);
      for (int a = 0; a < 3; ++a)
        EXPECT_NEAR(vg[a], flips[a] ? -v[a] : v[a], 1e-12) << "axis " << a;
    }
  }
  EXPECT_GT(ghosts[0], 0u);
  EXPECT_EQ(ghosts[0], ghosts[1]);
}

}  // namespace
}  // namespace sphreverb
