// Where the scene's sources, receivers and moving objects are, as checkpoints and snapshots store
// them beside the particles for ParaView (docs/checkpoints.md#paraview): every [emitter.NAME]
// source and every receiver on its path, the [emitter] disc's centre, and each [boundary.NAME]
// object that follows a path or turns as its triangles (those of geometry.h5) with every vertex
// moved to the object's pose (Wall::point_at: turned about its pivot, then moved by the path's
// offset), all at one stage-2 time t (s): the time of the particles' positions, acoustic steps x
// dt. Positions are pure functions of the scene and t, the same on every rank; rank 0 writes them.
#pragma once

#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/io/xdmf.hpp"
#include "sphreverb/model/mesh.hpp"

namespace sphreverb {

struct SceneMarkers {
  std::vector<std::string> sources, receivers;  // names, in scene order
  std::vector<double> source_position;          // [S, 3] m
  std::vector<double> receiver_position;        // [R, 3] m
  std::vector<double> emitter;                  // [1, 3] m, the disc's rest centre
  // The moving objects: surface_names their names (scene order), surface the object of each
  // triangle; a rectangle 2 triangles, a disc a fan and a cylinder's side a strip of
  // kCircleSegments (shape_mesh.hpp).
  Mesh objects;
};

SceneMarkers scene_markers(const Scene& scene, double t);

// The marker grids (XdmfGrid::markers) of a file holding m as write_markers stores it: "sources"
// and "receivers" (points with the point array "source" / "receiver", the line of /sources/names
// and /receivers/names), "emitter" (one point) and "objects" (triangles with the cell array
// "object", the line of /objects/names).
std::vector<XdmfMarkers> xdmf_markers(const SceneMarkers& m);

}  // namespace sphreverb
