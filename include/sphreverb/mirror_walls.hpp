// Rigid room walls by mirror particles: the [room] box with a rigid material reflects sound
// through ghost particles, the mirror images of the air particles near its faces (the "ghost
// particle" wall treatment; cf. Adami, Hu & Adams 2012 for the dummy-particle family). A ghost
// has its source's density and its source's velocity with the normal components reversed, so
// the wall is free-slip with v.n = 0 and dp/dn = 0 on the geometric face: a rigid wall exactly at
// room.min / room.max.
//
// A disc emitter set on a face is the moving part of that wall (a piston in a baffle). The
// particles tethered to it move with it; their mirror images would close in on them at twice the
// piston's speed, a spurious compression on the face that radiates (V3 measured 8.9 dB per
// doubling of distance instead of 6.0). So the images of those particles across that face are not
// made: the piston's particles have no image, every other particle keeps its images.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "sphreverb/fields.hpp"
#include "sphreverb/particles.hpp"
#include "sphreverb/vec3.hpp"

namespace sphreverb {

class MirrorWalls {
 public:
  MirrorWalls() = default;
  // Box [lo, hi]; ghosts are made for sources within `width` (m) of a face. Each side of the box
  // must exceed 2 width, so a particle is near at most one face per axis.
  MirrorWalls(const Vec3& lo, const Vec3& hi, double width) : lo_(lo), hi_(hi), width_(width) {}

  bool enabled() const { return width_ > 0.0; }
  // without_image(i, axis): entry i has no image across the faces normal to `axis` (see above).
  // It must depend on the entry's rest position only, so every rank agrees.
  using WithoutImage = std::function<bool(std::size_t, int)>;
  // Appends the ghosts of entries [0, n_owned + n_halo) after them (all fields, keys with their
  // image). Pre: n_ghost = 0.
  void rebuild(Particles& p, const WithoutImage& without_image = {});
  // Recomputes the ghosts' `fields` from their sources.
  void refresh(Particles& p, FieldSet fields) const;

 private:
  struct Ghost {
    std::size_t source;
    int image;  // base-3 digits per axis: 0 low face, 1 none, 2 high face
  };
  void write(Particles& p, std::size_t slot, const Ghost& g, FieldSet fields) const;

  Vec3 lo_, hi_;
  double width_ = 0.0;
  std::vector<Ghost> ghosts_;
};

}  // namespace sphreverb
