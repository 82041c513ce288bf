#include "sphreverb/solver/plane_counts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

namespace sphreverb {

namespace {

// The coordinate axis of a unit vector whose components are exactly 0 and one of +-1, else -1.
int unit_axis(const Vec3& v) {
  int axis = -1;
  for (int a = 0; a < 3; ++a) {
    if (v[a] == 0.0) continue;
    if (std::abs(v[a]) != 1.0 || axis >= 0) return -1;
    axis = a;
  }
  return axis;
}

// An axis-aligned rectangle's excluded sites: member[a][i] says whether index i along axis a
// passes that axis' test (the distance test along the normal, the extent tests along u and v).
struct AlignedWall {
  std::vector<char> member[3];
};

// Evaluates one axis' test of WallProbe::probe for a rectangle on every index of that axis: the
// site's coordinate minus the centre's, times the unit component (exact), as probe computes it.
std::vector<char> axis_test(const Lattice& l, int a, double centre, double sign, double limit,
                            bool strict) {
  std::vector<char> in(static_cast<std::size_t>(l.n[a]), 0);
  for (int i = 0; i < l.n[a]; ++i) {
    int ijk[3] = {0, 0, 0};
    ijk[a] = i;
    const double r = l.site(ijk[0], ijk[1], ijk[2])[a] - centre;
    const double d = std::abs(r * sign);
    in[static_cast<std::size_t>(i)] = strict ? d < limit : d <= limit;
  }
  return in;
}

bool aligned(const Wall& w, const Lattice& l, AlignedWall& out) {
  if (w.shape.body || w.shape.shape != ShapeKind::Rectangle) return false;
  const int an = unit_axis(w.shape.normal), au = unit_axis(w.shape.u), av = unit_axis(w.shape.v);
  if (an < 0 || au < 0 || av < 0 || an == au || an == av || au == av) return false;
  const Vec3& c = w.shape.center;
  out.member[an] = axis_test(l, an, c[an], w.shape.normal[an], 0.5 * l.dx * (1.0 - 1e-9), true);
  out.member[au] = axis_test(l, au, c[au], w.shape.u[au], 0.5 * w.shape.width, false);
  out.member[av] = axis_test(l, av, c[av], w.shape.v[av], 0.5 * w.shape.height, false);
  return true;
}

// Index range [lo, hi) along each axis that holds every site within dx/2 of the wall's surface
// (a generous bounding box: the exact test decides inside it).
void bounding_box(const Wall& w, const Lattice& l, int lo[3], int hi[3]) {
  const WallShape& s = w.shape;
  for (int a = 0; a < 3; ++a) {
    const double n = std::abs(s.normal[a]), across = std::sqrt(std::max(0.0, 1.0 - n * n));
    double half = 0.0;
    if (s.body) {  // a mesh: its vertices' box
      const double mid = 0.5 * (s.body->lo[a] + s.body->hi[a]);
      half = 0.5 * (s.body->hi[a] - s.body->lo[a]) + 0.5 * l.dx + 2.0 * l.dx;
      lo[a] = static_cast<int>(std::clamp(std::floor((mid - half - l.origin[a]) / l.dx), 0.0,
                                          static_cast<double>(l.n[a])));
      hi[a] = static_cast<int>(std::clamp(std::ceil((mid + half - l.origin[a]) / l.dx) + 1.0, 0.0,
                                          static_cast<double>(l.n[a])));
      continue;
    }
    switch (s.shape) {
      case ShapeKind::Rectangle:
        half = 0.5 * s.width * std::abs(s.u[a]) + 0.5 * s.height * std::abs(s.v[a]) + 0.5 * l.dx;
        break;
      case ShapeKind::Disc:
        half = s.radius * across + 0.5 * l.dx;
        break;
      case ShapeKind::Cylinder:
        half = 0.5 * s.height * n + (s.radius + 0.5 * l.dx) * across + 0.5 * l.dx;
        break;
    }
    half += 2.0 * l.dx;
    const double first = (s.center[a] - half - l.origin[a]) / l.dx;
    const double last = (s.center[a] + half - l.origin[a]) / l.dx;
    lo[a] = static_cast<int>(std::clamp(std::floor(first), 0.0, static_cast<double>(l.n[a])));
    hi[a] = static_cast<int>(std::clamp(std::ceil(last) + 1.0, 0.0, static_cast<double>(l.n[a])));
  }
}

}  // namespace

std::vector<std::int64_t> count_air_per_plane(const Lattice& l, const std::vector<Wall>& all,
                                              int axis) {
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  std::vector<Wall> fixed;  // is_air_site ignores the moving wall (the emitter keeps its sites)
  for (const Wall& w : all)
    if (!w.moving) fixed.push_back(w);
  std::vector<AlignedWall> rects;
  std::vector<const Wall*> others;
  for (const Wall& w : fixed) {
    AlignedWall r;
    if (rects.size() < 64 && aligned(w, l, r))
      rects.push_back(std::move(r));
    else
      others.push_back(&w);
  }
  const auto n1 = static_cast<std::size_t>(l.n[a1]), n2 = static_cast<std::size_t>(l.n[a2]);
  const auto in_rect = [&](const AlignedWall& r, int q, std::size_t i, std::size_t j) {
    return r.member[axis][static_cast<std::size_t>(q)] && r.member[a1][i] && r.member[a2][j];
  };

  // Sites of a plane excluded by the aligned rectangles crossing it (bit w of `active`):
  // indices along a1 grouped by which of them they pass, then the union of those walls' sets
  // along a2 per group.
  std::map<std::uint64_t, std::int64_t> union_of;
  const auto aligned_excluded = [&](std::uint64_t active) {
    const auto found = union_of.find(active);
    if (found != union_of.end()) return found->second;
    std::map<std::uint64_t, std::int64_t> groups;
    for (std::size_t i = 0; i < n1; ++i) {
      std::uint64_t m = 0;
      for (std::size_t w = 0; w < rects.size(); ++w)
        if ((active >> w & 1u) && rects[w].member[a1][i]) m |= std::uint64_t{1} << w;
      if (m) ++groups[m];
    }
    std::int64_t total = 0;
    for (const auto& [m, count] : groups) {
      std::int64_t hit = 0;
      for (std::size_t j = 0; j < n2; ++j) {
        bool any = false;
        for (std::size_t w = 0; w < rects.size() && !any; ++w)
          any = (m >> w & 1u) && rects[w].member[a2][j];
        hit += any ? 1 : 0;
      }
      total += count * hit;
    }
    union_of.emplace(active, total);
    return total;
  };

  // The other walls' boxes.
  struct Box {
    int lo[3], hi[3];
    bool holds(int q, int i, int j, int ax, int b1, int b2) const {
      return q >= lo[ax] && q < hi[ax] && i >= lo[b1] && i < hi[b1] && j >= lo[b2] && j < hi[b2];
    }
  };
  std::vector<Box> boxes;
  for (const Wall* w : others) {
    Box b;
    bounding_box(*w, l, b.lo, b.hi);
    boxes.push_back(b);
  }

  std::vector<std::int64_t> count(static_cast<std::size_t>(l.n[axis]));
  for (int q = 0; q < l.n[axis]; ++q) {
    std::uint64_t active = 0;
    for (std::size_t w = 0; w < rects.size(); ++w)
      if (rects[w].member[axis][static_cast<std::size_t>(q)]) active |= std::uint64_t{1} << w;
    std::int64_t excluded = active ? aligned_excluded(active) : 0;
    // Sites in the other walls' boxes that is_air_site rejects and no aligned rectangle has
    // counted already, each box's sites once (not if an earlier box holds them).
    for (std::size_t b = 0; b < boxes.size(); ++b) {
      const Box& box = boxes[b];
      if (q < box.lo[axis] || q >= box.hi[axis]) continue;
      for (int i = box.lo[a1]; i < box.hi[a1]; ++i)
        for (int j = box.lo[a2]; j < box.hi[a2]; ++j) {
          bool seen = false;
          for (std::size_t e = 0; e < b && !seen; ++e) seen = boxes[e].holds(q, i, j, axis, a1, a2);
          if (seen) continue;
          int ijk[3];
          ijk[axis] = q, ijk[a1] = i, ijk[a2] = j;
          if (is_air_site(fixed, l.site(ijk[0], ijk[1], ijk[2]), l.dx)) continue;
          bool counted = false;
          for (std::size_t w = 0; w < rects.size() && !counted; ++w)
            counted =
                in_rect(rects[w], q, static_cast<std::size_t>(i), static_cast<std::size_t>(j));
          if (!counted) ++excluded;
        }
    }
    count[static_cast<std::size_t>(q)] = static_cast<std::int64_t>(n1 * n2) - excluded;
  }
  return count;
}

}  // namespace sphreverb
