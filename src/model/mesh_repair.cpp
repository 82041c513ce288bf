#include "sphreverb/model/mesh_repair.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <vector>

namespace sphreverb {

namespace {

using Edge = std::pair<std::size_t, std::size_t>;  // (min, max) vertex index

// Edges used by exactly one triangle: (triangle, corner k of the edge's start, k -> k+1).
std::vector<std::pair<std::size_t, int>> open_edges(const Mesh& mesh) {
  std::map<Edge, std::vector<std::pair<std::size_t, int>>> uses;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const std::size_t a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
      uses[{std::min(a, b), std::max(a, b)}].push_back({t, k});
    }
  std::vector<std::pair<std::size_t, int>> out;
  for (const auto& [edge, u] : uses)
    if (u.size() == 1) out.push_back(u.front());
  return out;
}

}  // namespace

std::size_t split_t_junctions(Mesh& mesh, double tolerance) {
  std::size_t inserted = 0;
  // Each pass splits every open edge at the vertices on it; a split edge's pieces are not split
  // again in the same pass. Bounded: every insertion uses up one (edge, vertex) pair.
  for (int pass = 0; pass < 16; ++pass) {
    const std::vector<std::pair<std::size_t, int>> open = open_edges(mesh);
    if (open.empty()) break;
    // The vertices that lie on some open edge's end: the only candidates (a T-vertex ends an
    // open edge of the other side).
    std::vector<std::size_t> ends;
    for (const auto& [t, k] : open) {
      ends.push_back(mesh.triangles[t][k]);
      ends.push_back(mesh.triangles[t][(k + 1) % 3]);
    }
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    // By x, so each edge looks only at the vertices within its x range.
    std::sort(ends.begin(), ends.end(), [&](std::size_t i, std::size_t j) {
      return mesh.vertices[i].x < mesh.vertices[j].x;
    });
    std::vector<double> xs;
    for (std::size_t v : ends) xs.push_back(mesh.vertices[v].x);
    std::vector<std::vector<std::pair<double, std::size_t>>> cuts(open.size());
    std::vector<bool> touched(mesh.triangles.size(), false);
    std::size_t found = 0;
    for (std::size_t e = 0; e < open.size(); ++e) {
      const auto [t, k] = open[e];
      if (touched[t]) continue;  // one edge per triangle per pass
      const std::size_t a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
      const Vec3 pa = mesh.vertices[a], ab = mesh.vertices[b] - pa;
      const double len = norm(ab);
      if (!(len > 2.0 * tolerance)) continue;
      const double x0 = std::min(pa.x, mesh.vertices[b].x) - tolerance;
      const double x1 = std::max(pa.x, mesh.vertices[b].x) + tolerance;
      const auto first = std::lower_bound(xs.begin(), xs.end(), x0) - xs.begin();
      const auto last = std::upper_bound(xs.begin(), xs.end(), x1) - xs.begin();
      for (auto i = first; i < last; ++i) {
        const std::size_t v = ends[static_cast<std::size_t>(i)];
        if (v == a || v == b) continue;
        const Vec3 av = mesh.vertices[v] - pa;
        const double s = dot(av, ab) / len;  // m along the edge
        if (s <= tolerance || s >= len - tolerance) continue;
        if (norm(av - ab * (s / len)) > tolerance) continue;
        cuts[e].push_back({s, v});
      }
      if (cuts[e].empty()) continue;
      touched[t] = true;
      found += cuts[e].size();
    }
    if (found == 0) break;
    for (std::size_t e = 0; e < open.size(); ++e) {
      if (cuts[e].empty()) continue;
      auto& c = cuts[e];
      std::sort(c.begin(), c.end());
      const auto [t, k] = open[e];
      const std::array<std::size_t, 3> tri = mesh.triangles[t];
      const std::size_t a = tri[k], b = tri[(k + 1) % 3], apex = tri[(k + 2) % 3];
      const std::size_t surface = mesh.surface[t];
      std::vector<std::size_t> chain{a};
      for (const auto& [s, v] : c) chain.push_back(v);
      chain.push_back(b);
      // (a, b, apex) -> (chain[i], chain[i+1], apex): same winding as the original.
      mesh.triangles[t] = {chain[0], chain[1], apex};
      for (std::size_t i = 1; i + 1 < chain.size(); ++i) {
        mesh.triangles.push_back({chain[i], chain[i + 1], apex});
        mesh.surface.push_back(surface);
      }
    }
    inserted += found;
  }
  return inserted;
}

}  // namespace sphreverb
