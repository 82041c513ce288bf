#include "sphreverb/io/markers.hpp"

#include "io/detail/markers.hpp"
#include "sphreverb/config/object_walls.hpp"
#include "sphreverb/io/checkpoint_layout.hpp"
#include "sphreverb/model/boundary.hpp"
#include "sphreverb/model/path.hpp"
#include "sphreverb/model/shape_mesh.hpp"

namespace sphreverb {

SceneMarkers scene_markers(const Scene& scene, double t) {
  SceneMarkers m;
  for (const SourceSpec& s : scene.sources) {
    m.sources.push_back(s.name);
    const Vec3 x = Path(s.path, s.interpolation).position(t);
    m.source_position.insert(m.source_position.end(), {x.x, x.y, x.z});
  }
  for (const ReceiverSpec& r : scene.receivers) {
    m.receivers.push_back(r.name);
    const Vec3 x = r.path.empty() ? r.position : Path(r.path, r.interpolation).position(t);
    m.receiver_position.insert(m.receiver_position.end(), {x.x, x.y, x.z});
  }
  const Vec3 e = scene.emitter.center;
  m.emitter = {e.x, e.y, e.z};
  for (const BoundarySpec& b : scene.boundaries) {
    if (b.path.size() < 2 && b.rotation.size() < 2) continue;
    // The object's triangles at t = 0, each vertex moved to its pose at t (Wall::point_at).
    const Wall w = object_wall(b);
    const std::size_t first = m.objects.vertices.size();
    append_triangles(w.shape, m.objects.surface_names.size(), m.objects);
    for (std::size_t v = first; v < m.objects.vertices.size(); ++v)
      m.objects.vertices[v] = w.point_at(m.objects.vertices[v], t);
    m.objects.surface_names.push_back(b.name);
  }
  for (const GeometrySpec& g : scene.geometries) {
    if (!g.moves()) continue;
    // A moving mesh object: its triangles, each vertex moved to its pose at t.
    const Wall w = object_wall(g);
    const std::size_t first = m.objects.vertices.size();
    const int object = static_cast<int>(m.objects.surface_names.size());
    for (const Vec3& x : g.mesh->vertices) m.objects.vertices.push_back(w.point_at(x, t));
    for (const auto& tri : g.mesh->triangles) {
      m.objects.triangles.push_back({first + tri[0], first + tri[1], first + tri[2]});
      m.objects.surface.push_back(static_cast<std::size_t>(object));
    }
    m.objects.surface_names.push_back(g.name);
  }
  return m;
}

std::vector<XdmfMarkers> xdmf_markers(const SceneMarkers& m) {
  std::vector<XdmfMarkers> out;
  out.push_back({"sources", "/sources/position", m.sources.size(), "", 0, "source", "", m.sources});
  out.push_back(
      {"receivers", "/receivers/position", m.receivers.size(), "", 0, "receiver", "", m.receivers});
  out.push_back({"emitter", "/emitter/position", 1, "", 0, "", "", {}});
  out.push_back({"objects", "/objects/vertices", m.objects.vertices.size(), "/objects/triangles",
                 m.objects.triangles.size(), "object", "/objects/object", m.objects.surface_names});
  return out;
}

namespace detail {

namespace {
std::string lines(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}
}  // namespace

void write_markers(h5::File& f, const SceneMarkers& m, bool positions) {
  const bool root = f.rank() == 0;
  auto put = [&](const char* name, h5::Type type, const void* data, std::uint64_t rows) {
    const CheckpointDataset& d = checkpoint_dataset(name);
    f.write_rows(name, type, data, rows, d.cols, 0, root ? rows : 0, d.units, d.description);
  };
  auto text = [&](const char* name, const std::string& value) {
    const CheckpointDataset& d = checkpoint_dataset(name);
    f.write_string(name, value, d.units, d.description);
  };
  if (positions) {
    text("/sources/names", lines(m.sources));
    put("/sources/position", h5::Type::F64, m.source_position.data(), m.sources.size());
    text("/receivers/names", lines(m.receivers));
    put("/receivers/position", h5::Type::F64, m.receiver_position.data(), m.receivers.size());
  }
  put("/emitter/position", h5::Type::F64, m.emitter.data(), 1);
  const Mesh& o = m.objects;
  std::vector<double> xyz;
  for (const Vec3& v : o.vertices) xyz.insert(xyz.end(), {v.x, v.y, v.z});
  std::vector<std::int64_t> tri;
  for (const auto& c : o.triangles)
    for (std::size_t k : c) tri.push_back(static_cast<std::int64_t>(k));
  const std::vector<std::int32_t> object(o.surface.begin(), o.surface.end());
  text("/objects/names", lines(o.surface_names));
  put("/objects/vertices", h5::Type::F64, xyz.data(), o.vertices.size());
  put("/objects/triangles", h5::Type::I64, tri.data(), o.triangles.size());
  put("/objects/object", h5::Type::I32, object.data(), o.triangles.size());
}

}  // namespace detail

}  // namespace sphreverb
