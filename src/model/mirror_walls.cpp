#include "sphreverb/model/mirror_walls.hpp"

#include <cmath>
#include <unordered_map>

namespace sphreverb {

namespace {
constexpr int digit(int image, int axis) {
  return axis == 0 ? image % 3 : (axis == 1 ? (image / 3) % 3 : image / 9);
}

// The share of a column's face cell (the square of side dx about the column, at offset (u, v)
// from the disc's centre in the face) that the disc of radius a covers: 1 or 0 where the cell
// lies wholly inside or outside it, else the midpoint rule on kShareGrid^2 sub-squares. The
// shares of all columns add up to the disc's area / dx^2.
constexpr int kShareGrid = 16;
double disc_share(double u, double v, double a, double dx) {
  const double d = std::hypot(u, v), half_diagonal = 0.5 * std::sqrt(2.0) * dx;
  if (d + half_diagonal <= a) return 1.0;
  if (d - half_diagonal > a) return 0.0;
  int inside = 0;
  for (int i = 0; i < kShareGrid; ++i)
    for (int j = 0; j < kShareGrid; ++j) {
      const double su = u + ((i + 0.5) / kShareGrid - 0.5) * dx;
      const double sv = v + ((j + 0.5) / kShareGrid - 0.5) * dx;
      if (su * su + sv * sv <= a * a) ++inside;
    }
  return static_cast<double>(inside) / (kShareGrid * kShareGrid);
}
}  // namespace

MirrorWalls::MirrorWalls(const Vec3& lo, const Vec3& hi, double width,
                         const std::array<double, 6>& admittance,
                         const std::array<WallImpedance, 6>& reacting, double dt, const Eos& eos,
                         const Lattice& lattice)
    : MirrorWalls(lo, hi, width, admittance, eos, lattice) {
  for (int f = 0; f < 6; ++f) {
    reacting_[f] = reacting[f].mass > 0.0;
    if (reacting_[f]) steps_[f] = ReactingFaceStep(reacting[f], dt);
  }
}

void MirrorWalls::rebuild(Particles& p) {
  ghosts_.clear();
  layers_.clear();
  elements_.clear();
  shares_.clear();
  pistons_.clear();
  if (!enabled()) return;
  const std::size_t n_src = p.n_owned + p.n_halo;
  // The face elements this rank advances: its owned first-layer particles of reacting faces.
  if (reacting())
    for (std::size_t i = 0; i < p.n_owned; ++i)
      for (int a = 0; a < 3; ++a) {
        const int k = lattice_.index(p.id(i), a);
        const int face = k == 0 ? 2 * a : (k == lattice_.n[a] - 1 ? 2 * a + 1 : -1);
        if (face >= 0 && reacting_[face]) elements_.push_back({i, a, face});
      }
  // Moving faces: the entries on the first lattice layer of each face, by id.
  std::unordered_map<std::int64_t, std::size_t> first_layer;
  if (moving()) {
    for (std::size_t i = 0; i < n_src; ++i) {
      const std::int64_t id = p.id(i);
      for (int a = 0; a < 3; ++a)
        if (const int k = lattice_.index(id, a); k == 0 || k == lattice_.n[a] - 1)
          first_layer.emplace(id, i);
    }
  }
  for (std::size_t i = 0; i < n_src; ++i) {
    const Vec3 r = p.position(i);
    int choice[3];  // per axis: the face digit (0 or 2) this particle is near, or 1
    for (int a = 0; a < 3; ++a)
      choice[a] = r[a] - lo_[a] < width_ ? 0 : (hi_[a] - r[a] < width_ ? 2 : 1);
    // Behind the piston: near its face, the share of the column's face cell the disc covers.
    const int piston_axis = piston_.face / 2;
    double share = 0.0;
    if (driven() && choice[piston_axis] == (piston_.face % 2 == 0 ? 0 : 2)) {
      const Vec3 off = lattice_.site_of(p.id(i)) - piston_.center;
      share = disc_share(off[(piston_axis + 1) % 3], off[(piston_axis + 2) % 3], piston_.radius,
                         lattice_.dx);
    }
    Layers layer = {kNoLayer, kNoLayer, kNoLayer};
    if (moving()) {
      const std::int64_t id = p.id(i);
      for (int a = 0; a < 3; ++a) {
        if (choice[a] == 1 || !moving(2 * a + (choice[a] == 0 ? 0 : 1))) continue;
        const int k = lattice_.index(id, a), k1 = choice[a] == 0 ? 0 : lattice_.n[a] - 1;
        const auto it = first_layer.find(id + (k1 - k) * lattice_.stride(a));
        if (it != first_layer.end()) layer[a] = static_cast<std::uint32_t>(it->second);
      }
    }
    // Every combination of "mirror or not" over the near axes, except "none".
    for (int mask = 1; mask < 8; ++mask) {
      int image = 0, scale = 1;
      bool valid = true;
      for (int a = 0; a < 3; ++a, scale *= 3) {
        const bool mirror = (mask >> a) & 1;
        if (mirror && choice[a] == 1) valid = false;
        image += scale * (mirror ? choice[a] : 1);
      }
      if (!valid) continue;
      ghosts_.push_back({i, image});
      if (moving()) layers_.push_back(layer);
      if (driven()) {
        const bool behind = share > 0.0 && ((mask >> piston_axis) & 1);
        shares_.push_back(behind ? share : 0.0);
        if (behind) pistons_.push_back(static_cast<std::uint32_t>(ghosts_.size() - 1));
      }
    }
  }
  const std::size_t first = p.size();
  p.append_copies(ghosts_.size());  // ghosts carry no per-step results
  for (std::size_t g = 0; g < ghosts_.size(); ++g) {
    write(p, first + g, g, kAllDynamic);
    const std::size_t s = ghosts_[g].source;
    p.key[first + g] = image_key(p.id(s), ghosts_[g].image);
  }
  p.n_ghost = ghosts_.size();
}

void MirrorWalls::write(Particles& p, std::size_t slot, std::size_t k, FieldSet fields) const {
  const Ghost& g = ghosts_[k];
  const std::size_t s = g.source;
  std::vector<double>* pos[3] = {&p.x, &p.y, &p.z};
  std::vector<double>* vel[3] = {&p.vx, &p.vy, &p.vz};
  for (int a = 0; a < 3; ++a) {
    const int d = digit(g.image, a);
    if (fields.has(Field::Position)) {
      const double c = (*pos[a])[s];
      (*pos[a])[slot] = d == 1 ? c : 2.0 * (d == 0 ? lo_[a] : hi_[a]) - c;
    }
    if (fields.has(Field::Velocity)) {
      const double v = (*vel[a])[s];
      if (d == 1) {
        (*vel[a])[slot] = v;
      } else {
        // The face's velocity along +axis: outward (p > 0 pushes it out) is -axis on the low face.
        double w = 0.0;
        if (!shares_.empty() && shares_[k] > 0.0 && a == piston_.face / 2) {
          // The disc moves the face (it replaces its wall there): its volume velocity per cell.
          w = shares_[k] * piston_.normal * piston_speed_;
        } else if (!layers_.empty() && layers_[k][a] != kNoLayer) {
          const int face = 2 * a + (d == 0 ? 0 : 1);
          const std::size_t layer = layers_[k][a];
          const double out = reacting_[face] ? p.face_w[a][layer]
                                             : admittance_[face] * eos_.pressure(p.rho[layer]);
          w = d == 0 ? -out : out;
        }
        (*vel[a])[slot] = 2.0 * w - v;
      }
    }
  }
  if (fields.has(Field::Density)) p.rho[slot] = p.rho[s];
}

void MirrorWalls::advance_faces(Particles& p) const {
  for (const Element& e : elements_)
    steps_[e.face].advance(eos_.pressure(p.rho[e.entry]), p.face_x[e.axis][e.entry],
                           p.face_w[e.axis][e.entry]);
}

void MirrorWalls::refresh(Particles& p, FieldSet fields) const {
  if (resistive() && fields.has(Field::Density)) fields = fields | Field::Velocity;
  const std::size_t first = p.n_owned + p.n_halo;
  for (std::size_t g = 0; g < ghosts_.size(); ++g) write(p, first + g, g, fields);
}

void MirrorWalls::refresh_piston(Particles& p) const {
  const std::size_t first = p.n_owned + p.n_halo;
  for (std::uint32_t g : pistons_) write(p, first + g, g, Field::Velocity);
}

void MirrorWalls::refresh(const Particles& p, std::vector<double>& values) const {
  const std::size_t first = p.n_owned + p.n_halo;
  for (std::size_t g = 0; g < ghosts_.size(); ++g) values[first + g] = values[ghosts_[g].source];
}

void MirrorWalls::refresh_reflected(const Particles& p, std::vector<double>& x,
                                    std::vector<double>& y, std::vector<double>& z) const {
  const std::size_t first = p.n_owned + p.n_halo;
  std::vector<double>* f[3] = {&x, &y, &z};
  for (std::size_t g = 0; g < ghosts_.size(); ++g)
    for (int a = 0; a < 3; ++a) {
      const double v = (*f[a])[ghosts_[g].source];
      (*f[a])[first + g] = digit(ghosts_[g].image, a) == 1 ? v : -v;
    }
}

}  // namespace sphreverb
