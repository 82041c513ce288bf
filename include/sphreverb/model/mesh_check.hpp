// Validation of a mesh as the boundary of a region (a room's air or an object's solid), and the
// facts a scene check reports about it. The checks and their messages are listed in
// docs/geometry.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

enum class MeshDefect {
  DegenerateTriangle,       // a triangle of zero area (repeated or collinear corners)
  OpenSurface,              // an edge used by one triangle only (a hole)
  NonManifoldEdge,          // an edge shared by more than two triangles
  NonManifoldVertex,        // triangle fans that touch at a single vertex
  InconsistentOrientation,  // two neighbours run their shared edge the same way
  SelfIntersection,         // two triangles cross or overlap
  InvertedOrientation,      // a closed part whose normals point into the region it bounds
  ImplausibleSize,          // largest extent outside [min_extent, max_extent]: wrong units?
};

struct MeshCheckOptions {
  double min_extent = 0.05;    // m; a region smaller than this across suggests wrong units
  double max_extent = 1000.0;  // m; a region larger than this across suggests wrong units
};

struct MeshProblem {
  MeshDefect defect;
  std::string message;  // names the file, then the triangle or edge with coordinates (m)
};

// The first problem found, in the order of MeshDefect; nullopt when the mesh bounds a region:
// closed, 2-manifold, consistently oriented with outward normals (a part nested inside another
// bounds a cavity and points inwards, into the cavity), free of self-intersections, and of
// plausible size.
std::optional<MeshProblem> check_mesh(const Mesh& mesh, const MeshCheckOptions& options = {});

struct SurfaceFacts {
  std::string name;
  std::size_t triangles = 0;
  double area = 0.0;  // m^2
};

struct MeshFacts {
  std::size_t triangles = 0, vertices = 0;
  std::vector<SurfaceFacts> surfaces;  // in the order of Mesh::surface_names
  double volume = 0.0;                 // m^3, signed (divergence theorem); enclosed if closed
  Vec3 min, max;                       // m, bounding box
};

MeshFacts mesh_facts(const Mesh& mesh);

}  // namespace sphreverb
