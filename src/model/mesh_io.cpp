// Mesh files through Assimp (mesh_io.hpp). Assimp stores coordinates in single precision, so a
// coordinate is read to a relative 6e-8 (0.6 um across 10 m); everything after reading (node
// transforms, unit, scale, rotation, translation) is done in double precision.
#include "sphreverb/model/mesh_io.hpp"

#include <assimp/DefaultIOSystem.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <numbers>
#include <sstream>
#include <string>
#include <unordered_map>

#include "sphreverb/core/number_text.hpp"
#include "sphreverb/core/sha256.hpp"
#include "sphreverb/model/mesh_file_scan.hpp"

namespace sphreverb {

std::string format_point(const Vec3& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.6g %.6g %.6g)", p.x, p.y, p.z);
  return buf;
}

double metres_per(LengthUnit u) {
  switch (u) {
    case LengthUnit::Metre:
      return 1.0;
    case LengthUnit::Centimetre:
      return 0.01;
    case LengthUnit::Millimetre:
      return 0.001;
    case LengthUnit::Inch:
      return 0.0254;
  }
  return 1.0;
}

std::optional<LengthUnit> parse_length_unit(std::string_view text) {
  if (text == "m") return LengthUnit::Metre;
  if (text == "cm") return LengthUnit::Centimetre;
  if (text == "mm") return LengthUnit::Millimetre;
  if (text == "in") return LengthUnit::Inch;
  return std::nullopt;
}

Rotation Rotation::euler_xyz_degrees(const Vec3& angles) {
  const double d = std::numbers::pi / 180.0;
  const double cx = std::cos(angles.x * d), sx = std::sin(angles.x * d);
  const double cy = std::cos(angles.y * d), sy = std::sin(angles.y * d);
  const double cz = std::cos(angles.z * d), sz = std::sin(angles.z * d);
  Rotation r;  // Rz Ry Rx written out
  r.m = {{{cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx},
          {sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx},
          {-sy, cy * sx, cy * cx}}};
  return r;
}

Rotation Rotation::axis_angle_degrees(const Vec3& axis, double degrees) {
  const Vec3 k = normalized(axis);
  const double a = degrees * std::numbers::pi / 180.0;
  const double c = std::cos(a), s = std::sin(a), t = 1.0 - c;
  Rotation r;  // Rodrigues: R = c I + s [k]x + (1 - c) k k^T
  r.m = {{{c + t * k.x * k.x, t * k.x * k.y - s * k.z, t * k.x * k.z + s * k.y},
          {t * k.y * k.x + s * k.z, c + t * k.y * k.y, t * k.y * k.z - s * k.x},
          {t * k.z * k.x - s * k.y, t * k.z * k.y + s * k.x, c + t * k.z * k.z}}};
  return r;
}

Vec3 Rotation::apply(const Vec3& p) const {
  return {m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z,
          m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z,
          m[2][0] * p.x + m[2][1] * p.y + m[2][2] * p.z};
}

namespace {

// Collects triangles from the scene graph, merging vertices at equal positions (file units,
// node transforms applied; -0 and +0 equal).
class MeshBuilder {
 public:
  MeshBuilder(const aiScene& scene, std::filesystem::path path)
      : scene_(scene), path_(std::move(path)) {}

  void add_node(const aiNode& node, const aiMatrix4x4& parent) {
    const aiMatrix4x4 to_root = parent * node.mTransformation;
    for (unsigned i = 0; i < node.mNumMeshes; ++i)
      add_mesh(*scene_.mMeshes[node.mMeshes[i]], node, to_root);
    for (unsigned i = 0; i < node.mNumChildren; ++i) add_node(*node.mChildren[i], to_root);
  }

  Mesh take() { return std::move(mesh_); }

 private:
  void add_mesh(const aiMesh& m, const aiNode& node, const aiMatrix4x4& t) {
    const std::size_t surf = surface_index(surface_name(m, node));
    std::vector<std::size_t> index(m.mNumVertices);
    for (unsigned v = 0; v < m.mNumVertices; ++v) {
      const Vec3 p = transformed(t, m.mVertices[v]);
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
        throw MeshError(path_, "vertex " + std::to_string(v) + " of part '" +
                                   surface_name(m, node) + "' has a coordinate that is not a " +
                                   "finite number " + format_point(p) +
                                   " (after the file's node transforms); every coordinate must "
                                   "be finite");
      index[v] = vertex_index(p);
    }
    for (unsigned f = 0; f < m.mNumFaces; ++f) {
      const aiFace& face = m.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      mesh_.triangles.push_back(
          {index[face.mIndices[0]], index[face.mIndices[1]], index[face.mIndices[2]]});
      mesh_.surface.push_back(surf);
    }
  }

  // Material name, unless it is Assimp's default; else the mesh's, else the node's name.
  std::string surface_name(const aiMesh& m, const aiNode& node) const {
    if (m.mMaterialIndex < scene_.mNumMaterials) {
      aiString name;
      if (scene_.mMaterials[m.mMaterialIndex]->Get(AI_MATKEY_NAME, name) == AI_SUCCESS &&
          name.length > 0 && std::string(name.C_Str()) != AI_DEFAULT_MATERIAL_NAME)
        return name.C_Str();
    }
    if (m.mName.length > 0) return m.mName.C_Str();
    if (node.mName.length > 0 && std::string(node.mName.C_Str()) != "<STL_ASCII>")
      return node.mName.C_Str();
    return "default";
  }

  std::size_t surface_index(const std::string& name) {
    for (std::size_t i = 0; i < mesh_.surface_names.size(); ++i)
      if (mesh_.surface_names[i] == name) return i;
    mesh_.surface_names.push_back(name);
    return mesh_.surface_names.size() - 1;
  }

  static Vec3 transformed(const aiMatrix4x4& t, const aiVector3D& p) {
    const double x = p.x, y = p.y, z = p.z;
    return {double(t.a1) * x + double(t.a2) * y + double(t.a3) * z + double(t.a4) + 0.0,
            double(t.b1) * x + double(t.b2) * y + double(t.b3) * z + double(t.b4) + 0.0,
            double(t.c1) * x + double(t.c2) * y + double(t.c3) * z + double(t.c4) + 0.0};
  }

  std::size_t vertex_index(const Vec3& p) {
    const auto [it, added] = index_.try_emplace({p.x, p.y, p.z}, mesh_.vertices.size());
    if (added) mesh_.vertices.push_back(p);
    return it->second;
  }

  const aiScene& scene_;
  std::filesystem::path path_;
  Mesh mesh_;
  std::map<std::array<double, 3>, std::size_t> index_;
};

// Assimp's file access, recording every file a reader opens (an OBJ's .mtl, a glTF's buffers).
class RecordingIoSystem : public Assimp::DefaultIOSystem {
 public:
  explicit RecordingIoSystem(std::vector<std::string>& opened) : opened_(opened) {}
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    Assimp::IOStream* s = Assimp::DefaultIOSystem::Open(file, mode);
    if (s != nullptr && std::find(opened_.begin(), opened_.end(), file) == opened_.end())
      opened_.emplace_back(file);
    return s;
  }

 private:
  std::vector<std::string>& opened_;
};

std::string file_bytes(const std::filesystem::path& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  ok = static_cast<bool>(in);
  return text.str();
}

void check_options(const std::filesystem::path& path, const MeshLoadOptions& o) {
  if (!(o.scale > 0.0) || !std::isfinite(o.scale))
    throw MeshError(path, "scale must be a finite number > 0, got " + format_number(o.scale));
  for (const auto& row : o.rotation.m)
    for (double v : row)
      if (!std::isfinite(v)) throw MeshError(path, "the rotation is not finite (zero axis?)");
  if (!std::isfinite(o.translation.x) || !std::isfinite(o.translation.y) ||
      !std::isfinite(o.translation.z))
    throw MeshError(path, "the translation is not finite");
}

}  // namespace

void transform_mesh(Mesh& mesh, const MeshLoadOptions& o) {
  const double s = o.scale * metres_per(o.unit);
  for (Vec3& v : mesh.vertices) v = o.rotation.apply(v * s) + o.translation;
}

Mesh load_mesh(const std::filesystem::path& path, const MeshLoadOptions& options) {
  check_options(path, options);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw MeshError(path, "no such file");
  if (!std::filesystem::is_regular_file(path, ec)) throw MeshError(path, "not a regular file");

  // The file's bytes: bounded and checked before a reader allocates for them, and stamped.
  bool ok = false;
  const std::string bytes = file_bytes(path, ok);
  if (!ok) throw MeshError(path, "cannot read the file");
  scan_mesh_file(path, bytes);
  std::vector<MeshFileStamp> files{{path.string(), bytes.size(), sha256_hex(bytes)}};

  Assimp::Importer importer;
  std::vector<std::string> opened;
  importer.SetIOHandler(new RecordingIoSystem(opened));  // the importer owns it
  // Points and lines are dropped by SortByPType; the rest triangulated; vertices joined in each
  // part (MeshBuilder joins them across parts).
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene =
      importer.ReadFile(path.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                           aiProcess_SortByPType | aiProcess_ValidateDataStructure);
  if (scene == nullptr || scene->mRootNode == nullptr)
    throw MeshError(path, std::string("cannot read the file: ") + importer.GetErrorString());

  MeshBuilder builder(*scene, path);
  builder.add_node(*scene->mRootNode, aiMatrix4x4());
  Mesh mesh = builder.take();
  mesh.source = path;
  std::error_code ec_main;
  const auto main_file = std::filesystem::weakly_canonical(path, ec_main);
  for (const std::string& other : opened) {
    std::error_code ec_other;
    const auto o = std::filesystem::weakly_canonical(other, ec_other);
    if (!ec_main && !ec_other && o == main_file) continue;
    bool read = false;
    const std::string b = file_bytes(other, read);
    if (read) files.push_back({other, b.size(), sha256_hex(b)});
  }
  mesh.files = std::move(files);
  if (mesh.triangles.empty()) throw MeshError(path, "the file holds no triangle (empty mesh)");
  transform_mesh(mesh, options);
  return mesh;
}

}  // namespace sphreverb
