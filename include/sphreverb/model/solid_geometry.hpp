// The scene's solids as a whole: room meshes (air inside), object meshes (solid inside) and
// ghost-walled boundary shapes (solid_sheet.hpp: the solid behind a rectangle or disc, a solid
// column), with a wall admittance per surface. It answers what the fill and the ghost walls ask: is
// a point in the air, and where is the nearest wall, with the normals of the faces meeting there (a
// point nearest to an edge or a corner sees several faces). Built once from checked meshes
// (mesh_check.hpp); every query is local and deterministic, so every rank gets the same answer.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/mesh.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "sphreverb/model/solid_sheet.hpp"
#include "sphreverb/physics/material.hpp"

namespace sphreverb {

struct GeometryPart {
  std::shared_ptr<const Mesh> mesh;  // checked: closed, manifold, outward normals; or null ...
  SolidSheet sheet;                  // ... and this boundary shape (solid behind it) instead
  bool room = false;                 // true: air inside; false: an object, solid inside
  // Per surface (Mesh::surface_names; a sheet: one): 1/R of a resistive wall in m/(Pa s); 0 =
  // rigid.
  std::vector<double> admittance;
  // Per surface (optional, as admittance): the fitted wall Z = R + j(wM - K/w) of a band
  // material (material.hpp eq. 1), a reacting face (reacting_face.hpp); mass 0 = not reacting.
  std::vector<WallImpedance> reacting;
};

// The faces that meet at a wall point nearest to some solid-side point x: up to three distinct
// unit normals pointing from the air into the solid, each with its surface's admittance. A point
// nearest to the inside of a face sees one; one nearest to an edge or a corner sees every
// distinct face plane there that x lies behind. Boundary shapes meeting at the nearest point
// (their nearest points within 1e-9 of it, relative) add their faces the same way.
struct WallContact {
  Vec3 point;                              // m, the nearest wall point
  double distance = 0.0;                   // m, |x - point|
  int faces = 0;                           // 1 .. 3
  Vec3 normal[3];                          // unit, air -> solid
  double admittance[3] = {0.0, 0.0, 0.0};  // m/(Pa s)
  WallImpedance reacting[3];               // mass 0: not reacting (GeometryPart::reacting)
  std::size_t part = 0;
};

class SolidGeometry {
 public:
  SolidGeometry();
  // Throws MeshError if a mesh is not closed and manifold.
  explicit SolidGeometry(std::vector<GeometryPart> parts);
  SolidGeometry(SolidGeometry&&) noexcept;
  SolidGeometry& operator=(SolidGeometry&&) noexcept;
  ~SolidGeometry();

  bool empty() const { return parts_.empty(); }
  bool has_room() const;
  // Air: strictly inside every room mesh and strictly outside every object mesh (exact side
  // tests; a point on a surface is not air), and further than the clearance from every wall.
  bool is_air(const Vec3& x) const;
  // The geometric air alone (is_air without the clearance).
  bool in_air_region(const Vec3& x) const;
  // Lattice sites of the air closer than this to a wall (m) hold no particle: the ghost walls
  // make them ghosts (ghost_walls.hpp). 0 (the default): none.
  void set_clearance(double metres) { clearance_ = metres; }
  double clearance() const { return clearance_; }
  // The nearest wall point over all parts (ties: the lowest part index) and its faces.
  WallContact contact(const Vec3& x) const;

 private:
  struct Part;
  // The faces of the mesh part c.part around its nearest point `best` to x.
  void add_mesh_faces(WallContact& c, const ClosestPoint& best, const Vec3& x) const;
  std::vector<std::unique_ptr<Part>> parts_;
  double clearance_ = 0.0;
};

}  // namespace sphreverb
