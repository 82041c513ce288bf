// XDMF sidecars that let ParaView open the particle files (checkpoints and snapshots): a point
// cloud (Polyvertex topology with a connectivity dataset, XYZ geometry "N 3") and its arrays, and
// a temporal collection over every file of a directory for the time slider. The details that
// matter to ParaView's readers are in the README's "ParaView" section (and OPS.md).
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

struct XdmfGrid {
  std::string h5_file;       // file name relative to the .xmf
  std::uint64_t points = 0;  // N
  double time = 0.0;         // s
  std::string geometry;      // dataset of positions, [N, 3]
  int geometry_precision = 8;
  std::string connectivity;  // dataset of 0..N-1 (int64)
  std::vector<XdmfArray> arrays;
};

// The <Grid> element of one file.
std::string xdmf_grid_xml(const XdmfGrid& grid);
// Writes a complete XDMF document with one grid to path (via path.partial + rename).
void write_xdmf(const std::string& path, const XdmfGrid& grid);
// Writes DIR/NAME, a temporal collection of the grids of every DIR/PREFIX*.xmf (in name order),
// via a temporary name + rename. Files that vanish meanwhile are skipped.
void write_xdmf_collection(const std::string& dir, const std::string& prefix,
                           const std::string& name);

}  // namespace sphreverb
