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

std::string xdmf_grid_xml(const XdmfGrid& g) {
  const std::string n = std::to_string(g.points);
  std::ostringstream o;
  o << std::setprecision(17);
  o << "  <Grid Name=\"particles\" GridType=\"Uniform\">\n"
    << "   <Time Value=\"" << g.time << "\"/>\n"
    << "   <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << n
    << "\" NodesPerElement=\"1\">\n    " << data_item(n, true, 8, g.h5_file + ":" + g.connectivity)
    << "\n   </Topology>\n"
    << "   <Geometry GeometryType=\"XYZ\">\n    "
    << data_item(n + " 3", false, g.geometry_precision, g.h5_file + ":" + g.geometry)
    << "\n   </Geometry>\n";
  for (const XdmfArray& a : g.arrays) {
    o << "   <Attribute Name=\"" << a.name << "\" AttributeType=\""
      << (a.components == 3 ? "Vector" : "Scalar") << "\" Center=\"Node\">\n    "
      << data_item(a.components == 3 ? n + " 3" : n, a.integer, a.precision,
                   g.h5_file + ":" + a.dataset)
      << "\n   </Attribute>\n";
  }
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
    const auto a = s.find("  <Grid "), b = s.find("  </Grid>\n");
    if (!in || a == std::string::npos || b == std::string::npos) continue;
    grids += s.substr(a, b + 10 - a);
  }
  io::write_file_atomically(dir + "/" + name, std::string(kHead) +
                                                  "  <Grid Name=\"run\" GridType=\"Collection\" "
                                                  "CollectionType=\"Temporal\">\n" +
                                                  grids + "  </Grid>\n" + kTail);
}

}  // namespace sphreverb
