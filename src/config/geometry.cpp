// [geometry.NAME] sections (geometry.hpp in detail/passes.hpp): the mesh files read, transformed
// and checked while the scene is parsed, a material for every surface, and the emitter and the
// receivers in the air of the meshes. Every rank parses the scene and reads the same files, so
// every rank reaches the same verdict (collective by construction).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

#include "detail/passes.hpp"
#include "sphreverb/model/mesh_check.hpp"
#include "sphreverb/model/mesh_io.hpp"
#include "sphreverb/model/mesh_query.hpp"
#include "sphreverb/model/mesh_repair.hpp"

namespace sphreverb::config_detail {

namespace fs = std::filesystem;

void read_geometries(const Reader& r, Scene& s) {
  s.geometries.clear();
  for (const IniSection* sec_ptr : r.sections_of("geometry")) {
    const std::string& sec = sec_ptr->name;
    GeometrySpec g;
    g.name = sec.substr(sec.find('.') + 1);
    r.require(sec, "mesh", "a mesh file path relative to the scene file");
    r.require(sec, "role", "room or object");
    r.get(sec, "mesh", g.file);
    r.get(sec, "units", g.units);
    if (!parse_length_unit(g.units))
      r.fail(sec, "units", "unknown unit (allowed: " + join(r.spec(sec, "units").names) + ")");
    r.get(sec, "scale", g.scale);
    r.get(sec, "rotation", g.rotation);
    r.get(sec, "rotation_axis", g.rotation_axis);
    r.get(sec, "rotation_angle", g.rotation_angle);
    r.get(sec, "translation", g.translation);
    r.get_enum(sec, "role", g.role, geometry_role_names());
    r.get(sec, "material", g.material);
    for (const std::string& key : sec_ptr->keys) {
      if (key.rfind("material.", 0) != 0) continue;
      std::string value;
      r.get(sec, key, value);
      g.surface_given[key.substr(9)] = value;
    }
    if (r.has(sec, "rotation_angle") && g.rotation_angle != 0.0 && !(norm(g.rotation_axis) > 0.0))
      r.fail(sec, "rotation_axis", "a non-zero axis is required with rotation_angle");
    fs::path file(g.file);
    if (file.is_relative()) file = fs::path(r.path()).parent_path() / file;
    g.file = file.string();
    MeshLoadOptions opt;
    opt.unit = *parse_length_unit(g.units);
    opt.scale = g.scale;
    opt.rotation = Rotation::euler_xyz_degrees(g.rotation);
    if (norm(g.rotation_axis) > 0.0 && g.rotation_angle != 0.0) {
      const Rotation second = Rotation::axis_angle_degrees(g.rotation_axis, g.rotation_angle);
      Rotation both;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double v = 0.0;
          for (int k = 0; k < 3; ++k) v += second.m[i][k] * opt.rotation.m[k][j];
          both.m[i][j] = v;
        }
      opt.rotation = both;
    }
    opt.translation = g.translation;
    const auto start = std::chrono::steady_clock::now();
    try {
      auto mesh = std::make_shared<Mesh>(load_mesh(file, opt));
      auto problem = check_mesh(*mesh);
      if (problem && problem->defect == MeshDefect::OpenSurface) {
        // T-junctions (mesh_repair.hpp): edges split at the vertices lying on them, within
        // 1e-6 of the mesh's extent (its coordinates are read in single precision).
        Vec3 lo = mesh->vertices.front(), hi = lo;
        for (const Vec3& v : mesh->vertices)
          for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], v[a]), hi[a] = std::max(hi[a], v[a]);
        const std::size_t before = mesh->triangle_count();
        if (const std::size_t n = split_t_junctions(*mesh, 1e-6 * std::max(1.0, norm(hi - lo)))) {
          problem = check_mesh(*mesh);
          if (!problem)
            s.notes.push_back("[geometry." + g.name + "] " + g.file + ": " + std::to_string(n) +
                              " T-junction(s) repaired (edges split at the vertices lying on "
                              "them: " +
                              std::to_string(before) + " -> " +
                              std::to_string(mesh->triangle_count()) + " triangles)");
        }
      }
      if (problem) r.fail(sec, "mesh", problem->message);
      g.mesh = std::move(mesh);
    } catch (const MeshError& e) {
      r.fail(sec, "mesh", e.what());
    }
    g.read_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (g.role == GeometryRole::Room) {
      if (s.room.present)
        r.fail(sec, "role",
               "a room mesh and a [room] section: give the room one way (remove [room] or use "
               "role = object)");
      for (const auto& other : s.geometries)
        if (other.role == GeometryRole::Room)
          r.fail(sec, "role", "a second room mesh ([geometry." + other.name + "] is the room)");
    }
    s.geometries.push_back(std::move(g));
  }
}

std::optional<std::pair<Vec3, Vec3>> room_mesh_box(const Scene& s) {
  for (const auto& g : s.geometries) {
    if (g.role != GeometryRole::Room) continue;
    // Widened by a millionth of its largest coordinate: mesh files hold single-precision
    // coordinates, so a box a whole number of spacings long can read a few ulps short, and the
    // lattice would lose a layer (its faces one spacing, not half a spacing, beyond the last
    // layers). The widening is far below any spacing; the lattice stays centred in the box.
    const MeshFacts f = mesh_facts(*g.mesh);
    double largest = 0.0;
    for (int a = 0; a < 3; ++a)
      largest = std::max({largest, std::abs(f.min[a]), std::abs(f.max[a]), f.max[a] - f.min[a]});
    const double widen = 1e-6 * largest;
    const Vec3 w{widen, widen, widen};
    return std::make_pair(f.min - w, f.max + w);
  }
  return std::nullopt;
}

// A material a ghost wall carries: rigid, resistive (one broadband alpha) or reacting (six
// octave-band alphas, the fitted wall of material.hpp).
bool ghost_wall_material(const MaterialSpec& m) {
  return m.rigid || m.absorption.size() == 1 || m.absorption.size() == kOctaveBands.size();
}

void assign_geometry_materials(const Reader& r, Scene& s) {
  const auto known = [&](const std::string& name) {
    return std::any_of(s.materials.begin(), s.materials.end(),
                       [&](const MaterialSpec& m) { return m.name == name; });
  };
  for (auto& g : s.geometries) {
    const std::string sec = "geometry." + g.name;
    const std::vector<std::string>& names = g.mesh->surface_names;
    const std::string list = join(names);
    for (const auto& [group, material] : g.surface_given) {
      if (std::find(names.begin(), names.end(), group) == names.end())
        r.fail(sec, "material." + group,
               g.file + " has no surface named '" + group + "' (surfaces: " + list + ")");
      if (!known(material))
        r.fail(sec, "material." + group,
               "unknown material '" + material + "' (rigid or a [material.NAME] section)");
    }
    if (!g.material.empty() && !known(g.material))
      r.fail(sec, "material",
             "unknown material '" + g.material + "' (rigid or a [material.NAME] section)");
    g.surface_material.clear();
    for (const std::string& surface : names) {
      const auto it = g.surface_given.find(surface);
      const std::string m = it != g.surface_given.end() ? it->second : g.material;
      if (m.empty())
        r.fail_section(sec, "surface '" + surface + "' of " + g.file +
                                " has no material: add `material = NAME` (every surface) or "
                                "`material." +
                                surface + " = NAME` (surfaces: " + list + ")");
      if (g.moves()) {  // a tethered force wall: any material, one for the whole object
        if (!g.surface_material.empty() && m != g.surface_material.front())
          r.fail(sec, it != g.surface_given.end() ? "material." + surface : std::string("material"),
                 "a moving mesh (path, turn) is one force wall with one material: surface '" +
                     surface + "' has '" + m + "', surface '" + names.front() + "' has '" +
                     g.surface_material.front() + "'");
      } else if (!ghost_wall_material(s.material(m)))
        r.fail(sec, it != g.surface_given.end() ? "material." + surface : std::string("material"),
               "material '" + m +
                   "' of a mesh surface must be rigid, one broadband `absorption` (a resistive "
                   "ghost wall) or `absorption_bands` (a reacting one); the spring form "
                   "(stiffness, damping) is for tethered walls only");
      g.surface_material.push_back(m);
    }
  }
  for (const auto& b : s.boundaries) {
    if (b.wall != BoundaryWall::Ghost) continue;
    if (!ghost_wall_material(s.material(b.material)))
      r.fail("boundary." + b.name, "material",
             "material '" + b.material +
                 "' of a ghost-walled boundary (wall = ghost) must be rigid, one broadband "
                 "`absorption` (a resistive ghost wall) or `absorption_bands` (a reacting one); "
                 "the spring form (stiffness, damping) needs wall = tethered");
  }
}

void check_in_mesh_air(const Reader& r, const Scene& s) {
  if (s.geometries.empty()) return;
  std::vector<MeshQuery> queries;
  for (const auto& g : s.geometries) queries.emplace_back(*g.mesh);
  const double margin = 0.5 * s.fluid.spacing;
  const double tol = kDistanceTolerance * s.fluid.spacing;
  const auto check = [&](const std::string& section, const std::string& key, const Vec3& p,
                         const std::string& what) {
    for (std::size_t i = 0; i < s.geometries.size(); ++i) {
      const GeometrySpec& g = s.geometries[i];
      const MeshSide side = queries[i].side(p);
      const bool room = g.role == GeometryRole::Room;
      if (room ? side != MeshSide::Inside : side != MeshSide::Outside)
        r.fail(section, key,
               what + " " + format_vec(p) + " m lies " +
                   (room ? "outside the room" : "inside the solid") + " [geometry." + g.name +
                   "] (" + g.file + ")");
      const double d = queries[i].closest(p).distance;
      if (d < margin - tol)
        r.fail(section, key,
               what + " " + format_vec(p) + " m lies " + format_number(d) +
                   " m from a surface of [geometry." + g.name + "] (" + g.file +
                   "), less than dx/2 = " + format_number(margin) + " m: no air there");
    }
  };
  for (const auto& rec : s.receivers)
    check("receiver." + rec.name, "position", rec.position, "receiver '" + rec.name + "' at");
  if (s.emitter.present) check("emitter", "center", s.emitter.center, "the emitter's centre");
}

void check_objects_in_room(const Reader& r, const Scene& s) {
  const GeometrySpec* room_mesh = nullptr;
  for (const auto& g : s.geometries)
    if (g.role == GeometryRole::Room) room_mesh = &g;
  std::pair<Vec3, Vec3> room_box;
  if (room_mesh) {
    const MeshFacts f = mesh_facts(*room_mesh->mesh);
    room_box = {f.min, f.max};
  } else if (s.room.present) {
    room_box = {s.room.min, s.room.max};
  } else {
    return;
  }
  const std::string box_text =
      "(" + format_vec(room_box.first) + ") to (" + format_vec(room_box.second) + ") m";
  const double margin = 0.5 * s.fluid.spacing;
  std::optional<MeshQuery> room_query;
  for (const auto& g : s.geometries) {
    if (g.role != GeometryRole::Object || g.moves()) continue;
    const std::string sec = "geometry." + g.name;
    const MeshFacts f = mesh_facts(*g.mesh);
    bool apart = false;
    for (int a = 0; a < 3; ++a)
      apart = apart || f.max[a] <= room_box.first[a] || f.min[a] >= room_box.second[a];
    // How far the object reaches beyond the room: beyond its box, or (a room mesh) its surface.
    double beyond = 0.0;
    Vec3 worst = g.mesh->vertices.front();
    std::size_t inside = 0;
    if (room_mesh && !apart && !room_query) room_query.emplace(*room_mesh->mesh);
    for (const Vec3& v : g.mesh->vertices) {
      double out = 0.0;
      for (int a = 0; a < 3; ++a)
        out = std::max({out, room_box.first[a] - v[a], v[a] - room_box.second[a]});
      if (room_query && out <= 0.0 && room_query->side(v) == MeshSide::Outside)
        out = room_query->closest(v).distance;
      if (out <= 0.0) ++inside;
      if (out > beyond) beyond = out, worst = v;
    }
    if (apart || inside == 0)
      r.fail(sec, "mesh",
             g.file + " lies wholly outside the room: its box (" + format_vec(f.min) + ") to (" +
                 format_vec(f.max) + ") m, the room's " + box_text +
                 " (check units, scale and translation)");
    if (beyond > margin)
      r.fail(sec, "mesh",
             g.file + " reaches " + format_number(beyond) + " m outside the room (vertex at (" +
                 format_vec(worst) + ") m; the room's box " + box_text +
                 "), more than dx/2 = " + format_number(margin) +
                 " m: an object must lie inside the room (trim it at the room's faces or move "
                 "it)");
  }
}

}  // namespace sphreverb::config_detail
