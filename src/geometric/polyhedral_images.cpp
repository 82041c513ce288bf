// Polyhedral image sources (see polyhedral_images.hpp). Compiled in the CGAL object library
// (CMakeLists.txt) with the ray tracer: the same AABB tree of Simple_cartesian<double> triangles
// answers the occlusion queries.
#include "sphreverb/geometric/polyhedral_images.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>
#include <tuple>

#include "geometric/detail/triangle_tree.hpp"
#include "sphreverb/geometric/wall_reflection.hpp"

namespace sphreverb {
namespace {

using geometric_detail::Kernel;
using geometric_detail::Primitive;
using geometric_detail::Tree;
using geometric_detail::Triangle;
using geometric_detail::TriangleIt;

constexpr double kPositionTolerance = 1e-9;  // m: equal corners, coplanar planes
constexpr double kInsideTolerance = 1e-9;    // barycentric, relative
constexpr double kSideTolerance = 1e-9;      // m: an image on a face's plane reflects in it
constexpr double kSegmentTrim = 1e-9;        // relative: the ends of an occlusion query

using Key = std::array<long long, 3>;
Key key_of(const Vec3& v) {
  return {std::llround(v.x / kPositionTolerance), std::llround(v.y / kPositionTolerance),
          std::llround(v.z / kPositionTolerance)};
}

std::size_t find(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

// Signed distance of x from face f's plane.
double side(const PolyFace& f, const Vec3& x) { return dot(f.normal, x) - f.offset; }

bool on_air_side(const PolyFace& f, double s) {
  return f.air_side == 0 ? std::abs(s) > kSideTolerance : f.air_side * s > kSideTolerance;
}

}  // namespace

std::vector<PolyFace> polygon_faces(const Mesh& m, const std::vector<int>& air_side) {
  const std::size_t n = m.triangles.size();
  std::vector<Vec3> normal(n);
  std::vector<double> offset(n);
  for (std::size_t t = 0; t < n; ++t) {
    normal[t] = normalized(m.area_vector(t));
    offset[t] = dot(normal[t], m.corner(t, 0));
  }
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  std::map<std::pair<Key, Key>, std::vector<std::size_t>> edges;
  for (std::size_t t = 0; t < n; ++t)
    for (int k = 0; k < 3; ++k) {
      Key a = key_of(m.corner(t, k)), b = key_of(m.corner(t, (k + 1) % 3));
      if (b < a) std::swap(a, b);
      edges[{a, b}].push_back(t);
    }
  const double same = std::cos(1e-6);
  for (const auto& [edge, tris] : edges)
    for (std::size_t i = 0; i < tris.size(); ++i)
      for (std::size_t j = i + 1; j < tris.size(); ++j) {
        const std::size_t a = tris[i], b = tris[j];
        if (m.surface[a] != m.surface[b] || air_side.at(a) != air_side.at(b)) continue;
        if (dot(normal[a], normal[b]) < same) continue;
        if (std::abs(offset[a] - offset[b]) > kPositionTolerance) continue;
        parent[find(parent, a)] = find(parent, b);
      }
  std::vector<PolyFace> out;
  std::vector<std::size_t> face_of(n, n);
  for (std::size_t t = 0; t < n; ++t) {
    const std::size_t root = find(parent, t);
    if (face_of[root] == n) {
      face_of[root] = out.size();
      PolyFace f;
      f.normal = normal[t], f.offset = offset[t];
      f.air_side = air_side[t], f.surface = m.surface[t];
      out.push_back(f);
    }
    out[face_of[root]].triangles.push_back(t);
  }
  return out;
}

double candidate_bound(std::size_t faces, int order) {
  double total = 0.0, level = static_cast<double>(faces);
  for (int k = 1; k <= order; ++k) {
    total += level;
    level *= static_cast<double>(faces > 0 ? faces - 1 : 0);
  }
  return total;
}

struct PolyhedralImages::Impl {
  Mesh mesh;
  std::vector<PolyFace> faces;
  std::vector<Triangle> triangles;
  Tree tree;
  Vec3 lo, hi;  // the surfaces' bounding box

  // m, the distance of x from the bounding box (0 inside).
  double box_distance(const Vec3& x) const {
    double s = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double d = std::max({lo[a] - x[a], 0.0, x[a] - hi[a]});
      s += d * d;
    }
    return std::sqrt(s);
  }

  bool occluded(const Vec3& a, const Vec3& b) const {
    const Vec3 d = b - a;
    const Vec3 p = a + kSegmentTrim * d, q = b - kSegmentTrim * d;
    if (triangles.empty()) return false;
    return tree.do_intersect(
        Kernel::Segment_3(Kernel::Point_3(p.x, p.y, p.z), Kernel::Point_3(q.x, q.y, q.z)));
  }

  // x (on face f's plane) inside one of its triangles.
  bool inside(const PolyFace& f, const Vec3& x) const {
    for (std::size_t t : f.triangles) {
      const Vec3 &a = mesh.corner(t, 0), &b = mesh.corner(t, 1), &c = mesh.corner(t, 2);
      const Vec3 n = cross(b - a, c - a);
      const double nn = dot(n, n);
      if (!(nn > 0.0)) continue;
      const double u = dot(cross(c - b, x - b), n) / nn;
      const double v = dot(cross(a - c, x - c), n) / nn;
      const double w = 1.0 - u - v;
      if (u >= -kInsideTolerance && v >= -kInsideTolerance && w >= -kInsideTolerance) return true;
    }
    return false;
  }

  // The image of face sequence `seq` (first reflection first), `chain[k]` the image after k + 1
  // reflections: its path back-traced from the receiver, or false when it has none (a crossing
  // outside its face, behind the receiver or the image, or an occluded segment).
  bool back_trace(const PolyImageParams& p, const std::vector<std::size_t>& seq,
                  const std::vector<Vec3>& chain, ImageSource& out) const {
    Vec3 at = p.receiver;
    std::vector<Reflection> path(seq.size());
    for (std::size_t j = seq.size(); j-- > 0;) {
      const PolyFace& f = faces[seq[j]];
      const Vec3& image = chain[j];
      const double s_at = side(f, at), s_image = side(f, image);
      if (!on_air_side(f, s_at) || !(s_at * s_image < 0.0)) return false;
      const double t = s_at / (s_at - s_image);
      const Vec3 q = at + t * (image - at);
      if (!inside(f, q)) return false;
      if (occluded(at, q)) return false;
      const Vec3 d = q - at;
      const double len = norm(d);
      path[j] = {seq[j], len > 0.0 ? std::min(1.0, std::abs(dot(d, f.normal)) / len) : 1.0};
      at = q;
    }
    if (occluded(at, p.source)) return false;
    const Vec3 top = seq.empty() ? p.source : chain.back();
    const Vec3 d = top - p.receiver;
    const double dist = norm(d);
    out = ImageSource();
    out.distance = dist;
    out.delay = dist / p.sound_speed;
    out.direction = dist > 0.0 ? d * (1.0 / dist) : Vec3{};
    out.order = static_cast<int>(seq.size());
    out.reflections = std::move(path);
    const double spread = 1.0 / (4.0 * std::numbers::pi * std::max(dist, 1e-9));
    for (std::size_t b = 0; b < kGeoBandCount; ++b) {
      double a = spread * std::exp(-0.5 * p.air[b] * dist);
      for (const Reflection& r : out.reflections) {
        const FaceFactors& g = p.factors.at(r.face);
        double q = g.reflection[b];
        if (g.impedance[b] > 0.0) q *= wall_reflection(g.impedance[b], r.cos_theta);
        a *= q;
      }
      out.amplitude[b] = a;
    }
    return true;
  }
};

PolyhedralImages::PolyhedralImages(const Mesh& surfaces, std::vector<PolyFace> faces)
    : impl_(std::make_unique<Impl>()) {
  Impl& im = *impl_;
  im.mesh = surfaces;
  im.faces = std::move(faces);
  im.lo = im.hi = surfaces.vertices.empty() ? Vec3{} : surfaces.vertices.front();
  for (const Vec3& v : surfaces.vertices)
    for (int a = 0; a < 3; ++a)
      im.lo[a] = std::min(im.lo[a], v[a]), im.hi[a] = std::max(im.hi[a], v[a]);
  for (std::size_t t = 0; t < surfaces.triangles.size(); ++t) {
    const Vec3 &a = surfaces.corner(t, 0), &b = surfaces.corner(t, 1), &c = surfaces.corner(t, 2);
    im.triangles.emplace_back(Kernel::Point_3(a.x, a.y, a.z), Kernel::Point_3(b.x, b.y, b.z),
                              Kernel::Point_3(c.x, c.y, c.z));
  }
  if (!im.triangles.empty()) {
    im.tree.insert(im.triangles.cbegin(), im.triangles.cend());
    im.tree.build();
  }
}

PolyhedralImages::~PolyhedralImages() = default;

const std::vector<PolyFace>& PolyhedralImages::faces() const { return impl_->faces; }

namespace {

void sort_images(std::vector<ImageSource>& out) {
  std::sort(out.begin(), out.end(), [](const ImageSource& a, const ImageSource& b) {
    return std::tie(a.delay, a.order, a.direction.x, a.direction.y, a.direction.z) <
           std::tie(b.delay, b.order, b.direction.x, b.direction.y, b.direction.z);
  });
}

}  // namespace

std::vector<ImageSource> PolyhedralImages::images(const PolyImageParams& p,
                                                  std::size_t* examined) const {
  const Impl& im = *impl_;
  const double reach = p.max_delay * p.sound_speed;
  std::vector<ImageSource> out;
  std::vector<std::size_t> seq;
  std::vector<Vec3> chain;
  std::size_t count = 0;
  ImageSource found;
  // Depth first: the image `x` of the faces in `seq` (chain: its ancestors and itself).
  const auto visit = [&](const auto& self, const Vec3& x) -> void {
    if (norm(x - p.receiver) < reach && im.back_trace(p, seq, chain, found))
      out.push_back(std::move(found));
    if (static_cast<int>(seq.size()) >= p.max_order || im.box_distance(x) > reach) return;
    for (std::size_t f = 0; f < im.faces.size(); ++f) {
      if (!seq.empty() && seq.back() == f) continue;
      const PolyFace& face = im.faces[f];
      const double s = side(face, x);
      if (!on_air_side(face, s)) continue;  // behind the face: no path through it
      ++count;
      const Vec3 child = x - 2.0 * s * face.normal;
      seq.push_back(f);
      chain.push_back(child);
      self(self, child);
      seq.pop_back();
      chain.pop_back();
    }
  };
  visit(visit, p.source);
  if (examined != nullptr) *examined = count;
  sort_images(out);
  return out;
}

std::vector<ImageSource> PolyhedralImages::brute_force(const PolyImageParams& p) const {
  const Impl& im = *impl_;
  const double reach = p.max_delay * p.sound_speed;
  std::vector<ImageSource> out;
  std::vector<std::size_t> seq;
  std::vector<Vec3> chain;
  ImageSource found;
  const auto visit = [&](const auto& self, const Vec3& x) -> void {
    if (norm(x - p.receiver) < reach && im.back_trace(p, seq, chain, found))
      out.push_back(std::move(found));
    if (static_cast<int>(seq.size()) >= p.max_order) return;
    for (std::size_t f = 0; f < im.faces.size(); ++f) {
      if (!seq.empty() && seq.back() == f) continue;
      const PolyFace& face = im.faces[f];
      const Vec3 child = x - 2.0 * side(face, x) * face.normal;
      seq.push_back(f);
      chain.push_back(child);
      self(self, child);
      seq.pop_back();
      chain.pop_back();
    }
  };
  visit(visit, p.source);
  sort_images(out);
  return out;
}

}  // namespace sphreverb
