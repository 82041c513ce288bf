#include "sphreverb/io/surface_file.hpp"

#include <mpi.h>

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "io/detail/h5.hpp"
#include "sphreverb/io/run_dir.hpp"

namespace sphreverb::io {

using detail::h5::File;
using detail::h5::Type;

namespace {
std::string data_item(const std::string& dims, bool integer, int precision,
                      const std::string& ref) {
  return "<DataItem Dimensions=\"" + dims + "\" NumberType=\"" + (integer ? "Int" : "Float") +
         "\" Precision=\"" + std::to_string(precision) + "\" Format=\"HDF\">" + ref + "</DataItem>";
}
}  // namespace

std::string surface_xdmf(const std::string& h5, const Mesh& mesh) {
  const std::string t = std::to_string(mesh.triangles.size()),
                    v = std::to_string(mesh.vertices.size());
  std::ostringstream names;
  for (std::size_t k = 0; k < mesh.surface_names.size(); ++k)
    names << (k ? " " : "") << k << "=" << mesh.surface_names[k];
  std::ostringstream o;
  o << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    << "<Xdmf Version=\"3.0\">\n <Domain>\n"
    << "  <Grid Name=\"surfaces\" GridType=\"Uniform\">\n"
    << "   <Information Name=\"material_names\" Value=\"" << names.str() << "\"/>\n"
    << "   <Topology TopologyType=\"Triangle\" NumberOfElements=\"" << t << "\">\n    "
    << data_item(t + " 3", true, 8, h5 + ":/surfaces/triangles") << "\n   </Topology>\n"
    << "   <Geometry GeometryType=\"XYZ\">\n    "
    << data_item(v + " 3", false, 8, h5 + ":/surfaces/vertices") << "\n   </Geometry>\n"
    << "   <Attribute Name=\"material\" AttributeType=\"Scalar\" Center=\"Cell\">\n    "
    << data_item(t, true, 4, h5 + ":/surfaces/material") << "\n   </Attribute>\n"
    << "  </Grid>\n </Domain>\n</Xdmf>\n";
  return o.str();
}

void write_surface_file(const std::string& dir, const Mesh& mesh) {
  const RunDir run(dir);
  const std::string h5 = run.file(kSurfaceH5Name), partial = RunDir::partial_of(h5);
  const std::uint64_t t = mesh.triangles.size(), v = mesh.vertices.size();
  std::vector<double> xyz;
  for (const Vec3& p : mesh.vertices) xyz.insert(xyz.end(), {p.x, p.y, p.z});
  std::vector<std::int64_t> tri;
  for (const auto& c : mesh.triangles)
    for (std::size_t k : c) tri.push_back(static_cast<std::int64_t>(k));
  std::vector<std::int32_t> material(mesh.surface.begin(), mesh.surface.end());
  std::string names;
  for (const std::string& n : mesh.surface_names) names += n + "\n";
  try {
    File f = File::create(partial, MPI_COMM_SELF);
    f.write_rows("/surfaces/vertices", Type::F64, xyz.data(), v, 3, 0, v, "m",
                 "vertex positions of the scene's surfaces");
    f.write_rows("/surfaces/triangles", Type::I64, tri.data(), t, 3, 0, t, "1",
                 "vertex indices (0-based) of each triangle, right-hand normal into the air "
                 "(a plate's along its normal)");
    f.write_rows("/surfaces/material", Type::I32, material.data(), t, 0, 0, t, "1",
                 "material id of each triangle: the line of /surfaces/material_names (0-based)");
    f.write_string("/surfaces/material_names", names, "",
                   "the materials' names ([material.NAME] or rigid), one per line, in id order");
    f.close();
  } catch (const std::exception& e) {
    throw std::runtime_error(h5 + ": cannot write the surface file: " + e.what());
  }
  commit(partial, h5);
  write_file_atomically(run.file(kSurfaceXdmfName), surface_xdmf(kSurfaceH5Name, mesh));
}

}  // namespace sphreverb::io
