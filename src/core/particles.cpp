#include "sphreverb/core/particles.hpp"

#include <cassert>

namespace sphreverb {

namespace {
// Applies f to every field vector of p (so that adding a field is a one-line change).
template <class Fn>
void for_each_copy_field(Particles& p, Fn&& f) {  // the fields halo copies and ghosts carry
  f(p.x), f(p.y), f(p.z), f(p.vx), f(p.vy), f(p.vz), f(p.rho);
  f(p.key);
  if (p.face_state)
    for (int a = 0; a < 3; ++a) f(p.face_x[a]), f(p.face_w[a]);
}
template <class Fn>
void for_each_field(Particles& p, Fn&& f) {
  for_each_copy_field(p, f);
  f(p.ax), f(p.ay), f(p.az), f(p.drho);
}
}  // namespace

void Particles::enable_face_state() {
  face_state = true;
  for (int a = 0; a < 3; ++a) face_x[a].assign(size(), 0.0), face_w[a].assign(size(), 0.0);
}

void Particles::resize(std::size_t n) {
  for_each_field(*this, [n](auto& v) { v.resize(n); });
}

void Particles::append_copies(std::size_t count) {
  const std::size_t n = size() + count;
  for_each_copy_field(*this, [n](auto& v) { v.resize(n); });
}

void Particles::drop_copies() {
  resize(n_owned);
  n_halo = n_ghost = 0;
}

void Particles::copy_entry(std::size_t from, std::size_t to) {
  for_each_field(*this, [from, to](auto& v) { v[to] = v[from]; });
}

void Particles::copy_entry_from(const Particles& other, std::size_t from, std::size_t to) {
  x[to] = other.x[from], y[to] = other.y[from], z[to] = other.z[from];
  vx[to] = other.vx[from], vy[to] = other.vy[from], vz[to] = other.vz[from];
  rho[to] = other.rho[from];
  ax[to] = other.ax[from], ay[to] = other.ay[from], az[to] = other.az[from];
  drho[to] = other.drho[from];
  key[to] = other.key[from];
  if (face_state && other.face_state)
    for (int a = 0; a < 3; ++a)
      face_x[a][to] = other.face_x[a][from], face_w[a][to] = other.face_w[a][from];
}

void Particles::permute_owned(const std::vector<std::size_t>& order) {
  assert(order.size() == n_owned);
  for_each_field(*this, [&](auto& v) {
    auto old = v;
    for (std::size_t i = 0; i < order.size(); ++i) v[i] = old[order[i]];
  });
}

}  // namespace sphreverb
