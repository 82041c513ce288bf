#include "sphreverb/io/xdmf.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "sphreverb/io/output.hpp"
#include "sphreverb/io/run_dir.hpp"

namespace sphreverb {

namespace fs = std::filesystem;

namespace {
std::string data_item(const std::string& dims, bool integer, int precision,
                      const std::string& ref) {
  return "<DataItem Dimensions=\"" + dims + "\" NumberType=\"" + (integer ? "Int" : "Float") +
         "\" Precision=\"" + std::to_string(precision) + "\" Format=\"HDF\">" + ref + "</DataItem>";
}
const char* const kHead =
    "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    "<Xdmf Version=\"3.0\">\n <Domain>\n";
const char* const kTail = " </Domain>\n</Xdmf>\n";
}  // namespace

namespace {
// "0 1 ... n-1", the inline connectivity and ids of a marker grid.
std::string counting(std::uint64_t n) {
  std::string s;
  for (std::uint64_t k = 0; k < n; ++k) {
    if (k > 0) s += ' ';
    s += std::to_string(k);
  }
  return s;
}
std::string inline_item(std::uint64_t n, int precision) {
  return "<DataItem Dimensions=\"" + std::to_string(n) + "\" NumberType=\"Int\" Precision=\"" +
         std::to_string(precision) + "\" Format=\"XML\">" + counting(n) + "</DataItem>";
}

// The particle grid, its lines indented by `in` (and its <Time> if `time`).
void particle_grid(std::ostringstream& o, const XdmfGrid& g, const std::string& in, bool time) {
  const std::string n = std::to_string(g.points);
  o << in << "<Grid Name=\"particles\" GridType=\"Uniform\">\n";
  if (time) o << in << " <Time Value=\"" << g.time << "\"/>\n";
  o << in << " <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << n
    << "\" NodesPerElement=\"1\">\n"
    << in << "  " << data_item(n, true, 8, g.h5_file + ":" + g.connectivity) << "\n"
    << in << " </Topology>\n"
    << in << " <Geometry GeometryType=\"XYZ\">\n"
    << in << "  " << data_item(n + " 3", false, g.geometry_precision, g.h5_file + ":" + g.geometry)
    << "\n"
    << in << " </Geometry>\n";
  for (const XdmfArray& a : g.arrays) {
    o << in << " <Attribute Name=\"" << a.name << "\" AttributeType=\""
      << (a.components == 3 ? "Vector" : "Scalar") << "\" Center=\"Node\">\n"
      << in << "  "
      << data_item(a.components == 3 ? n + " 3" : n, a.integer, a.precision,
                   g.h5_file + ":" + a.dataset)
      << "\n"
      << in << " </Attribute>\n";
  }
  o << in << "</Grid>\n";
}

void marker_grid(std::ostringstream& o, const std::string& h5, const XdmfMarkers& m) {
  const std::string p = std::to_string(m.points), c = std::to_string(m.cells);
  const bool surface = !m.triangles.empty();
  o << "   <Grid Name=\"" << m.name << "\" GridType=\"Uniform\">\n";
  if (!m.names.empty()) {
    o << "    <Information Name=\"names\" Value=\"";
    for (std::size_t k = 0; k < m.names.size(); ++k) o << (k ? " " : "") << k << "=" << m.names[k];
    o << "\"/>\n";
  }
  if (surface)
    o << "    <Topology TopologyType=\"Triangle\" NumberOfElements=\"" << c << "\">\n     "
      << data_item(c + " 3", true, 8, h5 + ":" + m.triangles) << "\n    </Topology>\n";
  else
    o << "    <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << p
      << "\" NodesPerElement=\"1\">\n     " << inline_item(m.points, 8) << "\n    </Topology>\n";
  o << "    <Geometry GeometryType=\"XYZ\">\n     "
    << data_item(p + " 3", false, 8, h5 + ":" + m.geometry) << "\n    </Geometry>\n";
  if (!m.id_name.empty())
    o << "    <Attribute Name=\"" << m.id_name << "\" AttributeType=\"Scalar\" Center=\""
      << (surface ? "Cell" : "Node") << "\">\n     "
      << (surface ? data_item(c, true, 4, h5 + ":" + m.cell_ids) : inline_item(m.points, 4))
      << "\n    </Attribute>\n";
  o << "   </Grid>\n";
}
}  // namespace

std::string xdmf_grid_xml(const XdmfGrid& g) {
  std::ostringstream o;
  o << std::setprecision(17);
  bool markers = false;
  for (const XdmfMarkers& m : g.markers) markers = markers || m.points > 0;
  if (!markers) {
    particle_grid(o, g, "  ", true);
    return o.str();
  }
  o << "  <Grid Name=\"step\" GridType=\"Collection\" CollectionType=\"Spatial\">\n"
    << "   <Time Value=\"" << g.time << "\"/>\n";
  particle_grid(o, g, "   ", false);
  for (const XdmfMarkers& m : g.markers)
    if (m.points > 0) marker_grid(o, g.h5_file, m);
  o << "  </Grid>\n";
  return o.str();
}

void write_xdmf(const std::string& path, const XdmfGrid& grid) {
  io::write_file_atomically(path, std::string(kHead) + xdmf_grid_xml(grid) + kTail);
}

void write_xdmf_collection(const std::string& dir, const std::string& prefix,
                           const std::string& name) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (f.rfind(prefix, 0) == 0 && e.path().extension() == ".xmf") files.push_back(f);
  }
  std::sort(files.begin(), files.end());
  std::string grids;
  for (const std::string& f : files) {
    std::ifstream in(dir + "/" + f);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    // The document's one top-level grid: from its first line to the last "  </Grid>" (a
    // spatial collection nests grids indented further).
    const auto a = s.find("  <Grid "), b = s.rfind("  </Grid>\n");
    if (!in || a == std::string::npos || b == std::string::npos) continue;
    grids += s.substr(a, b + 10 - a);
  }
  io::write_file_atomically(dir + "/" + name, std::string(kHead) +
                                                  "  <Grid Name=\"run\" GridType=\"Collection\" "
                                                  "CollectionType=\"Temporal\">\n" +
                                                  grids + "  </Grid>\n" + kTail);
}

}  // namespace sphreverb
