// Mesh checks and facts (mesh_check.hpp). Topology from an edge table; self-intersections and
// the sides of nested parts with CGAL (mesh_query.cpp).
#include "sphreverb/model/mesh_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <utility>

#include "model/detail/mesh_cgal.hpp"
#include "sphreverb/core/number_text.hpp"
#include "sphreverb/model/mesh_query.hpp"

namespace sphreverb {

namespace {

using Edge = std::pair<std::size_t, std::size_t>;  // vertex indices, first < second

struct EdgeUse {
  std::size_t triangle;
  bool forward;  // the triangle runs the edge from first to second
};

// Every undirected edge with the triangles that use it, in triangle order.
std::map<Edge, std::vector<EdgeUse>> edge_table(const Mesh& mesh) {
  std::map<Edge, std::vector<EdgeUse>> table;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const std::size_t a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
      table[{std::min(a, b), std::max(a, b)}].push_back({t, a < b});
    }
  return table;
}

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  std::size_t find(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void unite(std::size_t a, std::size_t b) {
    a = find(a), b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<std::size_t> parent_;
};

std::string triangle_text(const Mesh& mesh, std::size_t t) {
  return "triangle " + std::to_string(t) + " (surface '" + mesh.surface_names[mesh.surface[t]] +
         "', corners " + format_point(mesh.corner(t, 0)) + " " + format_point(mesh.corner(t, 1)) +
         " " + format_point(mesh.corner(t, 2)) + ")";
}

std::string edge_text(const Mesh& mesh, const Edge& e) {
  return "edge " + format_point(mesh.vertices[e.first]) + "-" +
         format_point(mesh.vertices[e.second]);
}

MeshProblem problem(const Mesh& mesh, MeshDefect d, const std::string& what) {
  return {d, mesh.label() + ": " + what};
}

std::optional<MeshProblem> check_degenerate(const Mesh& mesh) {
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& v = mesh.triangles[t];
    double longest = 0.0;
    for (int k = 0; k < 3; ++k)
      longest = std::max(longest, norm(mesh.corner(t, (k + 1) % 3) - mesh.corner(t, k)));
    // Zero area up to rounding: |(b-a) x (c-a)| <= 1e-12 longest^2 (a sliver of aspect 1e12).
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2] ||
        norm(mesh.area_vector(t)) <= 1e-12 * longest * longest)
      return problem(mesh, MeshDefect::DegenerateTriangle,
                     "degenerate " + triangle_text(mesh, t) + ": zero area");
  }
  return std::nullopt;
}

// The lowest-numbered triangle at an edge of each kind, the most basic kind first: open (one
// triangle), non-manifold (more than two), then two triangles running the edge the same way.
std::optional<MeshProblem> check_edges(const Mesh& mesh,
                                       const std::map<Edge, std::vector<EdgeUse>>& table) {
  auto is_open = [](const std::vector<EdgeUse>& u) { return u.size() == 1; };
  auto is_non_manifold = [](const std::vector<EdgeUse>& u) { return u.size() > 2; };
  auto is_flipped = [](const std::vector<EdgeUse>& u) {
    return u.size() == 2 && u[0].forward == u[1].forward;
  };
  auto first_edge = [&](auto&& bad, std::size_t& count) {
    const std::pair<const Edge, std::vector<EdgeUse>>* first = nullptr;
    count = 0;
    for (const auto& entry : table)
      if (bad(entry.second)) {
        ++count;
        if (!first || entry.second.front().triangle < first->second.front().triangle)
          first = &entry;
      }
    return first;
  };
  std::size_t n = 0;
  if (const auto* e = first_edge(is_open, n))
    return problem(mesh, MeshDefect::OpenSurface,
                   "open surface: " + edge_text(mesh, e->first) + " of " +
                       triangle_text(mesh, e->second[0].triangle) +
                       " has no neighbour across it (" + std::to_string(n) + " edges like it)");
  if (const auto* e = first_edge(is_non_manifold, n))
    return problem(mesh, MeshDefect::NonManifoldEdge,
                   "non-manifold " + edge_text(mesh, e->first) + " is shared by " +
                       std::to_string(e->second.size()) + " triangles, first " +
                       triangle_text(mesh, e->second[0].triangle) + " (" + std::to_string(n) +
                       " edges like it)");
  if (const auto* e = first_edge(is_flipped, n))
    return problem(mesh, MeshDefect::InconsistentOrientation,
                   "inconsistent orientation: " + triangle_text(mesh, e->second[1].triangle) +
                       " runs " + edge_text(mesh, e->first) +
                       " the same way as its neighbour triangle " +
                       std::to_string(e->second[0].triangle) + " (one of them is flipped; " +
                       std::to_string(n) + " edges like it)");
  return std::nullopt;
}

// Precondition: every edge has exactly two triangles. A vertex is manifold when its triangles
// form a single fan (connected through the edges at the vertex).
std::optional<MeshProblem> check_vertex_fans(const Mesh& mesh,
                                             const std::map<Edge, std::vector<EdgeUse>>& table) {
  std::vector<std::vector<std::size_t>> around(mesh.vertices.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (std::size_t v : mesh.triangles[t]) around[v].push_back(t);
  for (std::size_t v = 0; v < around.size(); ++v) {
    const auto& fan = around[v];
    if (fan.empty()) continue;
    UnionFind groups(fan.size());
    auto slot = [&](std::size_t t) {
      return std::size_t(std::find(fan.begin(), fan.end(), t) - fan.begin());
    };
    for (std::size_t i = 0; i < fan.size(); ++i)
      for (std::size_t w : mesh.triangles[fan[i]]) {
        if (w == v) continue;
        for (const EdgeUse& u : table.at({std::min(v, w), std::max(v, w)}))
          groups.unite(i, slot(u.triangle));
      }
    for (std::size_t i = 0; i < fan.size(); ++i)
      if (groups.find(i) != 0)
        return problem(mesh, MeshDefect::NonManifoldVertex,
                       "non-manifold vertex " + format_point(mesh.vertices[v]) +
                           ": separate fans of triangles touch there, e.g. " +
                           triangle_text(mesh, fan[0]) + " and " + triangle_text(mesh, fan[i]));
  }
  return std::nullopt;
}

std::optional<MeshProblem> check_self_intersection(const Mesh& mesh) {
  const auto pair = detail::first_self_intersection(mesh);
  if (!pair) return std::nullopt;
  return problem(mesh, MeshDefect::SelfIntersection,
                 "self-intersection: " + triangle_text(mesh, pair->first) + " crosses " +
                     triangle_text(mesh, pair->second));
}

// The connected parts (through shared edges) as sub-meshes, with the first triangle of each.
std::vector<std::pair<Mesh, std::size_t>> parts(const Mesh& mesh,
                                                const std::map<Edge, std::vector<EdgeUse>>& table) {
  UnionFind uf(mesh.triangles.size());
  for (const auto& [edge, uses] : table)
    for (const EdgeUse& u : uses) uf.unite(uses[0].triangle, u.triangle);
  std::map<std::size_t, std::size_t> part_of_root;
  std::vector<std::pair<Mesh, std::size_t>> out;
  std::vector<std::map<std::size_t, std::size_t>> local;  // per part: mesh vertex -> part vertex
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto [it, added] = part_of_root.try_emplace(uf.find(t), out.size());
    if (added) {
      Mesh m;
      m.source = mesh.source, m.surface_names = mesh.surface_names;
      out.emplace_back(std::move(m), t);
      local.emplace_back();
    }
    Mesh& m = out[it->second].first;
    std::array<std::size_t, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      const std::size_t v = mesh.triangles[t][k];
      const auto [slot, fresh] = local[it->second].try_emplace(v, m.vertices.size());
      if (fresh) m.vertices.push_back(mesh.vertices[v]);
      tri[k] = slot->second;
    }
    m.triangles.push_back(tri);
    m.surface.push_back(mesh.surface[t]);
  }
  return out;
}

double signed_volume(const Mesh& mesh) {
  // Divergence theorem: V = (1/6) sum_t a . (b x c), exact for a closed polyhedron.
  double v = 0.0;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    v += dot(mesh.corner(t, 0), cross(mesh.corner(t, 1), mesh.corner(t, 2)));
  return v / 6.0;
}

// Each part's normals point out of the region it bounds: a part inside an even number of
// others (0: the outer shell) has positive volume; one inside an odd number bounds a cavity.
std::optional<MeshProblem> check_orientation(const Mesh& mesh,
                                             const std::map<Edge, std::vector<EdgeUse>>& table) {
  const auto split = parts(mesh, table);
  std::vector<MeshQuery> queries;
  if (split.size() > 1)
    for (const auto& [part, first] : split) queries.emplace_back(part);
  for (std::size_t i = 0; i < split.size(); ++i) {
    const auto& [part, first] = split[i];
    const Vec3 probe = mesh.corner(first, 0);
    int depth = 0;
    for (std::size_t j = 0; j < queries.size(); ++j)
      if (j != i && queries[j].inside(probe)) ++depth;
    const double volume = signed_volume(part);
    if ((volume > 0.0) != (depth % 2 == 0))
      return problem(
          mesh, MeshDefect::InvertedOrientation,
          "inverted orientation: the closed part with " + triangle_text(mesh, first) +
              " has signed volume " + format_number(volume) + " m^3" +
              (depth % 2 == 0
                   ? "; its normals point inwards (they must point out of the region it bounds)"
                   : "; it bounds a cavity, so its normals must point into the cavity"));
  }
  return std::nullopt;
}

std::optional<MeshProblem> check_size(const Mesh& mesh, const MeshCheckOptions& options) {
  const MeshFacts f = mesh_facts(mesh);
  const double across = std::max({f.max.x - f.min.x, f.max.y - f.min.y, f.max.z - f.min.z});
  if (across >= options.min_extent && across <= options.max_extent) return std::nullopt;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "implausible size: %.6g m across (bounding box %s to %s), outside [%g, %g] m; "
                "wrong units (m, cm, mm, in) or scale?",
                across, format_point(f.min).c_str(), format_point(f.max).c_str(),
                options.min_extent, options.max_extent);
  return problem(mesh, MeshDefect::ImplausibleSize, buf);
}

}  // namespace

std::optional<MeshProblem> check_mesh(const Mesh& mesh, const MeshCheckOptions& options) {
  if (mesh.triangles.empty())
    return problem(mesh, MeshDefect::OpenSurface, "empty mesh (no triangle)");
  if (auto p = check_degenerate(mesh)) return p;
  const auto table = edge_table(mesh);
  if (auto p = check_edges(mesh, table)) return p;
  if (auto p = check_vertex_fans(mesh, table)) return p;
  if (auto p = check_self_intersection(mesh)) return p;
  if (auto p = check_orientation(mesh, table)) return p;
  return check_size(mesh, options);
}

MeshFacts mesh_facts(const Mesh& mesh) {
  MeshFacts f;
  f.triangles = mesh.triangles.size();
  f.vertices = mesh.vertices.size();
  for (const std::string& name : mesh.surface_names) f.surfaces.push_back({name, 0, 0.0});
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    SurfaceFacts& s = f.surfaces[mesh.surface[t]];
    ++s.triangles;
    s.area += 0.5 * norm(mesh.area_vector(t));
  }
  f.volume = signed_volume(mesh);
  if (!mesh.triangles.empty()) f.min = f.max = mesh.corner(0, 0);
  for (const auto& tri : mesh.triangles)
    for (std::size_t v : tri)
      for (int a = 0; a < 3; ++a)
        f.min[a] = std::min(f.min[a], mesh.vertices[v][a]),
        f.max[a] = std::max(f.max[a], mesh.vertices[v][a]);
  return f;
}

}  // namespace sphreverb
