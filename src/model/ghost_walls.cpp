#include "sphreverb/model/ghost_walls.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace sphreverb {

namespace {

// A face whose normal is within about 8 degrees of the emitter disc's is the face the disc lies on.
constexpr double kParallel = 0.99;

// Lagrange basis on the nodes -1, 0, 1 at u (exactly 0, 1, 0 at u = 0).
std::array<double, 3> lagrange3(double u) {
  return {0.5 * u * (u - 1.0), 1.0 - u * u, 0.5 * u * (u + 1.0)};
}

// Probe points tried behind a ghost whose mirror point has no all-air block: dx/4 apart.
constexpr int kProbeSteps = 12;

// Wendland C2 shape (1 - q/2)^4 (2q + 1) for q = r / dx < 2 (unnormalised: weights are relative).
double wendland(double q) {
  if (q >= 2.0) return 0.0;
  const double t = 1.0 - 0.5 * q;
  return t * t * t * t * (2.0 * q + 1.0);
}

}  // namespace

void GhostWalls::build_impl(const SolidGeometry& geometry, const std::vector<char>& air_block,
                            const int block_lo[3], const int block_n[3], int axis, double lo,
                            double hi) {
  const auto start = std::chrono::steady_clock::now();
  const Lattice& l = lattice_;
  const double dx = l.dx;
  const int pad = static_cast<int>(std::ceil(params_.reach / dx)) + 1;
  const std::int64_t ext[3] = {l.n[0] + 2 * pad, l.n[1] + 2 * pad, l.n[2] + 2 * pad};
  const auto in_lattice = [&](int i, int j, int k) {
    return i >= 0 && j >= 0 && k >= 0 && i < l.n[0] && j < l.n[1] && k < l.n[2];
  };
  // An air particle's site; sites outside the block are never asked for (the margin covers it).
  const auto air = [&](int i, int j, int k) {
    if (!in_lattice(i, j, k)) return false;
    const int u[3] = {i - block_lo[0], j - block_lo[1], k - block_lo[2]};
    for (int a = 0; a < 3; ++a)
      if (u[a] < 0 || u[a] >= block_n[a]) return false;
    return air_block[u[0] + std::size_t(block_n[0]) * (u[1] + std::size_t(block_n[1]) * u[2])] != 0;
  };
  const auto site = [&](int i, int j, int k) { return l.site(i, j, k); };

  int range_lo[3], range_hi[3];  // extended index ranges, inclusive
  for (int a = 0; a < 3; ++a) range_lo[a] = -pad, range_hi[a] = l.n[a] - 1 + pad;
  range_lo[axis] =
      std::max(range_lo[axis], static_cast<int>(std::ceil((lo - l.origin[axis]) / dx - 1e-9)));
  range_hi[axis] =
      std::min(range_hi[axis], static_cast<int>(std::floor((hi - l.origin[axis]) / dx + 1e-9)));

  std::vector<std::int64_t> ids;
  std::vector<double> w;
  // Triquadratic Lagrange weights for the state at point + shift: the value at `point` on an
  // all-air 3x3x3 block around it (shifted by at most one site towards the side the point leans
  // to), plus shift . the block's central-difference gradient at its centre. The block's sites
  // lie within kStencilReach of `centre` along each axis. False (nothing appended) if there is
  // no such block.
  const auto lagrange_at = [&](const Vec3& point, const Vec3& centre, const Vec3& shift,
                               std::vector<std::int64_t>& out_ids, std::vector<double>& out_w) {
    int i0[3];
    double f[3];
    for (int a = 0; a < 3; ++a) {
      const double t = (point[a] - l.origin[a]) / dx;
      i0[a] = static_cast<int>(std::lround(t));
      f[a] = t - i0[a];
      // A point within 1e-5 spacings of a site is that site (mesh coordinates are single
      // precision): the ghost copies it, as a mirror wall's image does.
      if (std::abs(f[a]) < 1e-5) f[a] = 0.0;
    }
    std::vector<std::array<int, 3>> shifts;
    for (int sz = -1; sz <= 1; ++sz)
      for (int sy = -1; sy <= 1; ++sy)
        for (int sx = -1; sx <= 1; ++sx) {
          const int s[3] = {sx, sy, sz};
          bool ok = true;
          for (int a = 0; a < 3; ++a)
            ok = ok && (s[a] == 0 || f[a] == 0.0 || (s[a] > 0) == (f[a] > 0.0));
          if (ok) shifts.push_back({sx, sy, sz});
        }
    std::stable_sort(shifts.begin(), shifts.end(), [](const auto& a, const auto& b) {
      return std::abs(a[0]) + std::abs(a[1]) + std::abs(a[2]) <
             std::abs(b[0]) + std::abs(b[1]) + std::abs(b[2]);
    });
    const Vec3 g = (1.0 / dx) * shift;                // in spacings
    constexpr double kCentral[3] = {-0.5, 0.0, 0.5};  // d/du at the block's centre
    for (const auto& s : shifts) {
      const int c0[3] = {i0[0] + s[0], i0[1] + s[1], i0[2] + s[2]};
      bool all = true;
      for (int a = 0; a < 3 && all; ++a) {
        const double centre_index = (centre[a] - l.origin[a]) / dx;
        all = std::abs(c0[a] - 1 - centre_index) <= kStencilReach + 1e-9 &&
              std::abs(c0[a] + 1 - centre_index) <= kStencilReach + 1e-9;
      }
      for (int dk = -1; dk <= 1 && all; ++dk)
        for (int dj = -1; dj <= 1 && all; ++dj)
          for (int di = -1; di <= 1 && all; ++di) all = air(c0[0] + di, c0[1] + dj, c0[2] + dk);
      if (!all) continue;
      const auto wx = lagrange3(f[0] - s[0]), wy = lagrange3(f[1] - s[1]),
                 wz = lagrange3(f[2] - s[2]);
      for (int dk = -1; dk <= 1; ++dk)
        for (int dj = -1; dj <= 1; ++dj)
          for (int di = -1; di <= 1; ++di) {
            const double weight = wx[di + 1] * wy[dj + 1] * wz[dk + 1] +
                                  g.x * kCentral[di + 1] * wy[dj + 1] * wz[dk + 1] +
                                  g.y * wx[di + 1] * kCentral[dj + 1] * wz[dk + 1] +
                                  g.z * wx[di + 1] * wy[dj + 1] * kCentral[dk + 1];
            if (weight == 0.0) continue;
            out_ids.push_back(l.id(c0[0] + di, c0[1] + dj, c0[2] + dk));
            out_w.push_back(weight);
          }
      return true;
    }
    return false;
  };
  for (int k = range_lo[2]; k <= range_hi[2]; ++k)
    for (int j = range_lo[1]; j <= range_hi[1]; ++j)
      for (int i = range_lo[0]; i <= range_hi[0]; ++i) {
        if (air(i, j, k)) continue;
        const Vec3 x = site(i, j, k);
        // A site in the air without a particle (a hole of a force wall, or beyond the fill
        // box) is no ghost, unless it lies on a wall: a face through a lattice plane (the fill
        // box is the room mesh's bounding box, read in single precision) falls on either side of
        // it by rounding, and the layer of sites there must be ghosts either way.
        const bool solid = !geometry.in_air_region(x);
        const WallContact c = geometry.contact(x);
        if (!(c.distance <= (solid ? params_.reach : geometry.clearance() + kOnWall * dx)))
          continue;
        // Behind the emitter disc where it lies on a face (a face at c parallel to the disc, c
        // within dx of the disc's plane and within its radius): that face moves with the disc
        // (a piston in a baffle; the disc has no particles of its own). The other faces there
        // (the side walls of a duct the piston fills) are walls as everywhere else.
        double drive[3] = {0.0, 0.0, 0.0};
        if (params_.piston_radius > 0.0) {
          const Vec3 r = c.point - params_.piston_center;
          const double along = dot(r, params_.piston_normal);
          if (std::abs(along) <= dx &&
              norm(r - along * params_.piston_normal) <= params_.piston_radius + 0.5 * dx)
            for (int q = 0; q < c.faces; ++q) {
              const double cosine = dot(c.normal[q], params_.piston_normal);
              if (std::abs(cosine) > kParallel) drive[q] = cosine;
            }
        }
        // The point whose state the ghost takes: its mirror point, or itself on the air side.
        const Vec3 xm = solid ? 2.0 * c.point - x : x;
        ids.clear(), w.clear();
        // Triquadratic Lagrange on an all-air block around xm, else the state at xm extrapolated
        // from a probe point deeper in the air (below), else a Shepard average.
        bool done = lagrange_at(xm, xm, Vec3{}, ids, w);
        if (!done) {
          // The probe point: on the line from the ghost through its wall point, at the smallest
          // depth s > d (in steps of dx/4, up to d + 3 dx) around which an all-air block lies
          // within kStencilReach of xm. The state at xm is its Lagrange value plus (xm - xp) times
          // the block's central-difference gradient, second order for a smooth field. The
          // gradient at the block's centre, not the Lagrange derivative at xp: that one carries
          // the block's curvature, 4u (f- - 2 f0 + f+) per axis, which is the lattice's shortest
          // wave (2 dx) amplified, and the reflected ghosts fed it back (the rotated V10 box
          // went unstable after 76 ms; docs/theory/walls.md).
          Vec3 u = solid ? c.point - x : x - c.point;  // into the air
          const double d = norm(u);
          if (d > 1e-9 * dx) {
            u = (1.0 / d) * u;
          } else {
            u = Vec3{};
            for (int q = 0; q < c.faces; ++q) u = u - c.normal[q];
            u = (1.0 / norm(u)) * u;
          }
          for (int m = 1; m <= kProbeSteps && !done; ++m) {
            const Vec3 xp = c.point + (d + 0.25 * m * dx) * u;
            done = lagrange_at(xp, xm, xm - xp, ids, w);
          }
        }
        if (done) {
          ++stats_.lagrange;
        } else {
          // A kernel-normalised (Shepard) average of the air sites within 2 dx of xm: convex
          // weights, so a ghost never exceeds its stencil's range. (A first-order MLS fit here,
          // with weights of both signs, made the rotated V10 box unstable within 20 ms.)
          int i0[3];
          for (int a = 0; a < 3; ++a)
            i0[a] = static_cast<int>(std::lround((xm[a] - l.origin[a]) / dx));
          double total = 0.0;
          for (int dk = -2; dk <= 2; ++dk)
            for (int dj = -2; dj <= 2; ++dj)
              for (int di = -2; di <= 2; ++di) {
                const int s[3] = {i0[0] + di, i0[1] + dj, i0[2] + dk};
                if (!air(s[0], s[1], s[2])) continue;
                const double weight = wendland(norm(site(s[0], s[1], s[2]) - xm) / dx);
                if (weight <= 0.0) continue;
                ids.push_back(l.id(s[0], s[1], s[2]));
                w.push_back(weight);
                total += weight;
              }
          if (ids.empty()) {
            ++stats_.dropped;
            continue;
          }
          for (double& weight : w) weight /= total;
          ++stats_.shepard;
        }
        // The normal velocity is odd about each face (v.n - W changes sign across it, and is 0
        // on it). A ghost behind the wall reflects it (factor -1): Lagrange states (at xm, or
        // extrapolated to it from a probe) are those at xm, and a Shepard average, though it is the
        // state at its stencil's centroid rather than at xm, is reflected too (taking v.n - W
        // linear in the depth from the centroid put the walls' modes right but absorbed about 10 %
        // too little admittance on an oblique resistive face and left a low-frequency tail behind a
        // pulse reflected from an oblique rigid one: V12, docs/theory/walls.md). An air-side ghost
        // (a site within the clearance) lies in the air at signed depth sigma > 0: v.n - W is
        // interpolated linearly from the face (0) to its stencil's centroid at depth s, W + (sigma
        // / s) (v.n - W); extrapolated from a probe, its state is that at its own site (factor +1).
        // The point whose state the ghost takes: x_m (or its own site) where interpolated or
        // extrapolated to it, the stencil's centroid for a Shepard average.
        Vec3 from = xm;
        if (!done) {
          from = Vec3{};
          for (std::size_t q = 0; q < ids.size(); ++q) from += w[q] * l.site_of(ids[q]);
        }
        double odd[3] = {-1.0, -1.0, -1.0};
        if (done && !solid) odd[0] = odd[1] = odd[2] = 1.0;
        if (!done && !solid)
          for (int q = 0; q < c.faces; ++q) {
            const double depth = dot(c.point - from, c.normal[q]);  // of the centroid, > 0
            const double sigma = -dot(x - c.point, c.normal[q]);    // of the ghost, >= 0
            if (depth > 0.05 * dx) odd[q] = std::clamp(sigma / depth, -1.0, 1.0);
          }
        Site g;
        g.x = x;
        const std::int64_t e = (i + pad) + ext[0] * ((j + pad) + ext[1] * std::int64_t{k + pad});
        g.key = image_key(l.sites() + e, 0);
        g.faces = c.faces;
        for (int q = 0; q < c.faces; ++q)
          g.normal[q] = c.normal[q], g.admittance[q] = c.admittance[q], g.odd[q] = odd[q],
          g.drive[q] = drive[q], driven_ = driven_ || drive[q] != 0.0,
          g.lever[q] = dot(x - from, c.normal[q]);
        // A face of a band material: a face element of its own (integrators shared per wall).
        bool reacting_site = false;
        for (int q = 0; q < c.faces; ++q) {
          const WallImpedance& z = c.reacting[q];
          if (!(z.mass > 0.0)) {
            // A resistive face: a row that keeps its W of the last step (refresh()).
            if (c.admittance[q] > 0.0 && drive[q] == 0.0 && g.element < 0)
              g.element = static_cast<std::int32_t>(stats_.elements++);
            continue;
          }
          std::size_t m = 0;
          while (m < impedances_.size() &&
                 !(impedances_[m].resistance == z.resistance && impedances_[m].mass == z.mass &&
                   impedances_[m].stiffness == z.stiffness))
            ++m;
          if (m == impedances_.size()) impedances_.push_back(z), steps_.emplace_back(z, params_.dt);
          g.step[q] = static_cast<std::int8_t>(m);
          if (g.element < 0) g.element = static_cast<std::int32_t>(stats_.elements++);
          reacting_site = true;
        }
        if (reacting_site) ++stats_.reacting;
        for (std::size_t q = 0; q < ids.size(); ++q) g.rest += w[q] * l.site_of(ids[q]);
        g.first = static_cast<std::uint32_t>(stencil_id_.size());
        g.count = static_cast<std::uint32_t>(ids.size());
        stencil_id_.insert(stencil_id_.end(), ids.begin(), ids.end());
        weight_.insert(weight_.end(), w.begin(), w.end());
        sites_.push_back(g);
      }
  stats_.sites = sites_.size();
  face_x_.assign(3 * stats_.elements, 0.0);
  // A resistive face's W of the last step: before the first, its W at rest.
  face_w_.assign(3 * stats_.elements, 0.0);
  for (const Site& g : sites_)
    if (g.element >= 0)
      for (int q = 0; q < g.faces; ++q)
        if (g.resistive(q))
          face_w_[3 * static_cast<std::size_t>(g.element) + static_cast<std::size_t>(q)] =
              g.admittance[q] * params_.eos.pressure(params_.eos.rho0);
  was_active_.assign(stats_.elements, 0);
  velocity_follows_density_ = pressure_dependent();
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void GhostWalls::rebuild(Particles& p) {
  active_.clear();
  entry_.clear();
  first_slot_ = p.size();
  if (sites_.empty()) return;
  const double reach = params_.reach, r2 = reach * reach;
  // Owned particles binned in cells of side `reach`. A ghost's neighbour cells are its own cell's
  // index +-1 (not the cells of x +- reach, which rounding can put two cells away).
  using Cell = std::array<std::int64_t, 3>;
  const auto cell_of = [&](const Vec3& x) {
    Cell c;
    for (int a = 0; a < 3; ++a) c[a] = static_cast<std::int64_t>(std::floor(x[a] / reach));
    return c;
  };
  const auto cell_key = [](const Cell& c) {
    const std::int64_t b = std::int64_t{1} << 20, w = std::int64_t{1} << 21;
    return (c[0] + b) + w * ((c[1] + b) + w * (c[2] + b));
  };
  // Each owned particle where it is and at its lattice site: a ghost within reach of either is
  // active, so the active set (and with it which ghosts beyond the support the neighbour lists
  // hold) does not change as the air moves by a fraction of a spacing, and lists rebuilt at
  // other steps (a restart's) sum the same ghosts.
  std::unordered_map<std::int64_t, std::vector<Vec3>> cells;
  for (std::size_t i = 0; i < p.n_owned; ++i) {
    const Vec3 x = p.position(i), rest = lattice_.site_of(p.id(i));
    cells[cell_key(cell_of(x))].push_back(x);
    cells[cell_key(cell_of(rest))].push_back(rest);
  }
  const std::size_t n_src = p.n_owned + p.n_halo;
  std::unordered_map<std::int64_t, std::uint32_t> entry_of;
  entry_of.reserve(n_src);
  for (std::size_t i = 0; i < n_src; ++i)
    if (p.key[i] % 27 == kRealImage) entry_of.emplace(p.id(i), static_cast<std::uint32_t>(i));
  for (std::size_t g = 0; g < sites_.size(); ++g) {
    const Site& s = sites_[g];
    bool near = false;
    const Cell home = cell_of(s.x);
    for (int dz = -1; dz <= 1 && !near; ++dz)
      for (int dy = -1; dy <= 1 && !near; ++dy)
        for (int dx = -1; dx <= 1 && !near; ++dx) {
          const auto it = cells.find(cell_key({home[0] + dx, home[1] + dy, home[2] + dz}));
          if (it == cells.end()) continue;
          for (const Vec3& x : it->second) {
            const Vec3 r = x - s.x;
            if (dot(r, r) <= r2) {
              near = true;
              break;
            }
          }
        }
    if (!near) {
      // A site with a face element (an absorbing face) is kept active wherever its stencil is at
      // hand, near an owned particle or not: its element then advances from the first step on
      // every rank that may come to need it, instead of starting late from a stale state when
      // the air moves towards it (the records stay the same on any rank count and across
      // restarts). Its ghost lies beyond every owned particle's reach, so no sum sees it.
      if (s.element < 0) continue;
      bool at_hand = true;
      for (std::uint32_t q = s.first; q < s.first + s.count && at_hand; ++q)
        at_hand = entry_of.count(stencil_id_[q]) > 0;
      if (!at_hand) continue;
    }
    for (std::uint32_t q = s.first; q < s.first + s.count; ++q) {
      const auto it = entry_of.find(stencil_id_[q]);
      if (it == entry_of.end())
        throw std::logic_error("ghost wall: the stencil of the ghost at (" + std::to_string(s.x.x) +
                               ", " + std::to_string(s.x.y) + ", " + std::to_string(s.x.z) +
                               ") m needs particle " + std::to_string(stencil_id_[q]) +
                               ", which is not on this rank (halo too thin)");
      entry_.push_back(it->second);
    }
    active_.push_back(static_cast<std::uint32_t>(g));
  }
  // A reacting site active now but not at the last rebuild, after steps have run, was not
  // advanced on this rank meanwhile (ghost_walls.hpp): counted.
  std::vector<char> now(was_active_.size(), 0);
  for (std::uint32_t g : active_)
    if (sites_[g].element >= 0) {
      now[static_cast<std::size_t>(sites_[g].element)] = 1;
      if (advanced_ > 0 && !was_active_[static_cast<std::size_t>(sites_[g].element)]) ++stats_.late;
    }
  was_active_ = std::move(now);
  driven_active_.clear();
  for (std::size_t a = 0, e = 0; a < active_.size(); e += sites_[active_[a]].count, ++a)
    if (sites_[active_[a]].driven()) driven_active_.emplace_back(a, e);
  p.append_copies(active_.size());
  for (std::size_t a = 0; a < active_.size(); ++a) p.key[first_slot_ + a] = sites_[active_[a]].key;
  p.n_ghost += active_.size();  // entry_ holds the stencils back to back in active order
  faces_at_rest_ = true;
  refresh(p, kAllDynamic);
  faces_at_rest_ = false;
}

bool GhostWalls::pressure_dependent() const {
  for (const Site& s : sites_)
    for (int q = 0; q < s.faces; ++q)
      if (s.admittance[q] > 0.0 || s.drive[q] != 0.0) return true;
  return false;
}

void GhostWalls::refresh(Particles& p, FieldSet fields) const {
  if (active_.empty()) return;
  const bool density = fields.has(Field::Density);
  const bool velocity = fields.has(Field::Velocity) || (velocity_follows_density_ && density);
  const bool position = fields.has(Field::Position);
  if (!density && !velocity && !position) return;
  if (density) mirror_rho_.resize(active_.size());
  std::size_t e = 0;
  for (std::size_t a = 0; a < active_.size(); ++a) {
    refresh_ghost(p, a, e, density, velocity, position);
    e += sites_[active_[a]].count;
  }
}

void GhostWalls::refresh_driven(Particles& p) const {
  for (const auto& [a, e] : driven_active_) refresh_ghost(p, a, e, true, true, true);
}

void GhostWalls::refresh_ghost(Particles& p, std::size_t a, std::size_t e, bool density,
                               bool velocity, bool position) const {
  const Site& s = sites_[active_[a]];
  const std::size_t slot = first_slot_ + a;
  double rho = 0.0;
  Vec3 v, x;
  for (std::uint32_t q = 0; q < s.count; ++q) {
    const std::uint32_t j = entry_[e + q];
    const double w = weight_[s.first + q];
    rho += w * p.rho[j];
    if (velocity) v += w * Vec3{p.vx[j], p.vy[j], p.vz[j]};
    if (position) x += w * Vec3{p.x[j], p.y[j], p.z[j]};
  }
  if (position) {
    // Reflected about the faces where they stand: x_n -> 2 X_k - x_n along each n_k.
    Vec3 d = reflected(s, x - s.rest);
    if (s.moves() && !faces_at_rest_) d += 2.0 * face_displacement(s);
    p.x[slot] = s.x.x + d.x, p.y[slot] = s.x.y + d.y, p.z[slot] = s.x.z + d.z;
  }
  if (density) {
    mirror_rho_[a] = rho;
    p.rho[slot] = s.moves() ? rho + moving_face_density(s, rho) : rho;
  }
  if (velocity) {
    for (int k = 0; k < s.faces; ++k) {
      const Vec3& n = s.normal[k];
      const double vn = dot(v, n);
      const double own =
          s.step[k] >= 0
              ? face_w_[3 * static_cast<std::size_t>(s.element) + static_cast<std::size_t>(k)]
              : (s.admittance[k] > 0.0 ? s.admittance[k] * params_.eos.pressure(rho) : 0.0);
      const double wall = own + s.drive[k] * piston_speed_;
      const double odd = s.odd[k];
      v = v - vn * n + (odd == -1.0 ? 2.0 * wall - vn : wall + odd * (vn - wall)) * n;
    }
    p.vx[slot] = v.x, p.vy[slot] = v.y, p.vz[slot] = v.z;
  }
}

Vec3 GhostWalls::reflected(const Site& s, Vec3 v) {
  for (int k = 0; k < s.faces; ++k) v = v + (s.odd[k] - 1.0) * dot(v, s.normal[k]) * s.normal[k];
  return v;
}

double GhostWalls::moving_face_density(const Site& s, double rho) const {
  // Across a face that moves, dp/dn = -rho0 dW/dt (the air's momentum at the wall), not 0 as
  // for a rigid one: the ghost's pressure is the state's plus that gradient times the lever.
  // dW/dt of a reacting face: the acceleration its element's integrator takes over this step
  // (reacting_face.hpp eq. 2, ReactingFaceStep::acceleration), not eq. (1)'s (p - R W - K X) / M
  // at the state of the last half step, which a stiff damper (R dt / M >> 1, a nearly rigid wall)
  // makes R dt / M times too large: the ghosts' pressure then outweighed the air's and the walls
  // of a plaster room fed energy into the lattice (walls.md). Of a resistive face from its W = p /
  // R now and at the last step, plus the disc's acceleration where the face moves with it.
  const double pressure = params_.eos.pressure(rho);
  const std::size_t row = s.element >= 0 ? 3 * static_cast<std::size_t>(s.element) : 0;
  double dp = 0.0;
  for (int k = 0; k < s.faces; ++k) {
    double rate = s.drive[k] * piston_acceleration_;
    if (s.step[k] >= 0) {
      rate += steps_[static_cast<std::size_t>(s.step[k])].acceleration(pressure, face_x_[row + k],
                                                                       face_w_[row + k]);
    } else if (s.resistive(k) && params_.dt > 0.0) {
      rate += (s.admittance[k] * pressure - face_w_[row + k]) / params_.dt;
    }
    dp -= params_.eos.rho0 * rate * s.lever[k];
  }
  return dp / (params_.eos.c0 * params_.eos.c0);
}

Vec3 GhostWalls::face_displacement(const Site& s) const {
  Vec3 d;
  for (int k = 0; k < s.faces; ++k) {
    double x = s.drive[k] * piston_shift_;
    if (s.element >= 0 && (s.step[k] >= 0 || s.resistive(k)))
      x += face_x_[3 * static_cast<std::size_t>(s.element) + static_cast<std::size_t>(k)];
    d += x * s.normal[k];
  }
  return d;
}

void GhostWalls::refresh(const Particles& p, std::vector<double>& values) const {
  std::size_t e = 0;
  for (std::size_t a = 0; a < active_.size(); ++a) {
    const Site& s = sites_[active_[a]];
    double sum = 0.0;
    for (std::uint32_t q = 0; q < s.count; ++q) sum += weight_[s.first + q] * values[entry_[e + q]];
    e += s.count;
    values[first_slot_ + a] = sum;
  }
  (void)p;  // the entries' values are in `values`
}

void GhostWalls::refresh_reflected(std::vector<double>& fx, std::vector<double>& fy,
                                   std::vector<double>& fz) const {
  std::size_t e = 0;
  for (std::size_t a = 0; a < active_.size(); ++a) {
    const Site& s = sites_[active_[a]];
    Vec3 v;
    for (std::uint32_t q = 0; q < s.count; ++q) {
      const std::uint32_t j = entry_[e + q];
      v += weight_[s.first + q] * Vec3{fx[j], fy[j], fz[j]};
    }
    e += s.count;
    v = reflected(s, v);
    const std::size_t slot = first_slot_ + a;
    fx[slot] = v.x, fy[slot] = v.y, fz[slot] = v.z;
  }
}

void GhostWalls::advance_faces() {
  if (stats_.elements == 0) return;
  for (std::size_t a = 0; a < active_.size(); ++a) {
    const Site& s = sites_[active_[a]];
    if (s.element < 0) continue;
    const double pressure = params_.eos.pressure(mirror_rho_[a]);  // p(x_m)^n
    const std::size_t row = 3 * static_cast<std::size_t>(s.element);
    for (int k = 0; k < s.faces; ++k)
      if (s.step[k] >= 0)
        steps_[static_cast<std::size_t>(s.step[k])].advance(pressure, face_x_[row + k],
                                                            face_w_[row + k]);
      else if (s.resistive(k)) {
        face_w_[row + k] = s.admittance[k] * pressure;      // W^n of the resistive face
        face_x_[row + k] += face_w_[row + k] * params_.dt;  // X^{n+1}
      }
  }
  ++advanced_;
}

std::vector<GhostWalls::FaceState> GhostWalls::face_states() const {
  std::vector<FaceState> out;
  for (std::uint32_t g : active_) {
    const Site& s = sites_[g];
    if (s.element < 0) continue;
    FaceState f;
    f.key = s.key;
    const std::size_t row = 3 * static_cast<std::size_t>(s.element);
    for (int k = 0; k < 3; ++k) f.x[k] = face_x_[row + k], f.w[k] = face_w_[row + k];
    out.push_back(f);
  }
  std::sort(out.begin(), out.end(),
            [](const FaceState& a, const FaceState& b) { return a.key < b.key; });
  return out;
}

void GhostWalls::set_face_states(const std::vector<FaceState>& states) {
  if (stats_.elements == 0) return;
  std::unordered_map<std::int64_t, const FaceState*> by_key;
  by_key.reserve(states.size());
  for (const FaceState& f : states) by_key.emplace(f.key, &f);
  for (const Site& s : sites_) {
    if (s.element < 0) continue;
    const auto it = by_key.find(s.key);
    if (it == by_key.end()) continue;
    const std::size_t row = 3 * static_cast<std::size_t>(s.element);
    for (int k = 0; k < 3; ++k)
      face_x_[row + k] = it->second->x[k], face_w_[row + k] = it->second->w[k];
  }
}

}  // namespace sphreverb
