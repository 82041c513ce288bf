// XDMF sidecars that let ParaView open the particle files (checkpoints and snapshots): a point
// cloud (Polyvertex topology with a connectivity dataset, XYZ geometry "N 3") and its arrays, and
// a temporal collection over every file of a directory for the time slider. A file with markers
// (the sources, receivers and moving objects at the file's time) holds a spatial collection per
// time step instead: the particle grid unchanged, then one grid per marker set, which ParaView's
// XDMF Reader and Xdmf3ReaderT show as blocks of a multiblock. The details that matter to
// ParaView's readers are in docs/dev/operations.md ("ParaView, headless").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sphreverb {

struct XdmfArray {
  std::string name;     // as ParaView shows it
  std::string dataset;  // HDF5 path inside the file, e.g. /particles/density
  int components = 1;   // 1 scalar, 3 vector
  bool integer = false;
  int precision = 8;  // bytes per element
};

// A small grid beside the particles in the same time step: points (Polyvertex, one per row of
// `geometry`) or, when `triangles` is given, a triangle surface over them. Its connectivity of a
// point set and its id array (0..points-1 on the points, or `cell_ids` on the triangles) are
// written inline; `names` (id order) go into an Information element "names" ("0=a 1=b").
struct XdmfMarkers {
  std::string name;          // block name, e.g. receivers
  std::string geometry;      // dataset of the points, [points, 3] float64
  std::uint64_t points = 0;  // 0: no grid is written
  std::string triangles;     // dataset of vertex indices, [cells, 3] int64 ("": points only)
  std::uint64_t cells = 0;
  std::string id_name;   // the integer array: a point array, or a cell array of triangles
  std::string cell_ids;  // dataset of the triangles' ids, [cells] int32
  std::vector<std::string> names;
};

struct XdmfGrid {
  std::string h5_file;       // file name relative to the .xmf
  std::uint64_t points = 0;  // N
  double time = 0.0;         // s
  std::string geometry;      // dataset of positions, [N, 3]
  int geometry_precision = 8;
  std::string connectivity;  // dataset of 0..N-1 (int64)
  std::vector<XdmfArray> arrays;
  std::vector<XdmfMarkers> markers;  // none: the particle grid alone, as before markers existed
};

// The <Grid> element of one file: the particle grid "particles", or, with markers, a spatial
// collection "step" holding it and the marker grids (empty ones left out).
std::string xdmf_grid_xml(const XdmfGrid& grid);
// Writes a complete XDMF document with one grid to path (via path.partial + rename).
void write_xdmf(const std::string& path, const XdmfGrid& grid);
// Writes DIR/NAME, a temporal collection of the grids of every DIR/PREFIX*.xmf (in name order),
// via a temporary name + rename. Files that vanish meanwhile are skipped.
void write_xdmf_collection(const std::string& dir, const std::string& prefix,
                           const std::string& name);

}  // namespace sphreverb
