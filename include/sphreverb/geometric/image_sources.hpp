// Image sources of a box room (Allen & Berkley, J. Acoust. Soc. Am. 65, 943 (1979)): exact for
// the specular reflections of a rectangular room, enumerated up to a largest delay. Each image is
// one arriving wavefront with a delay, a direction and an amplitude per octave band.
//
// Amplitude convention (shared with the ray tracer's histograms): a point source whose direct
// sound at distance d has amplitude 1 / (4 pi d); an image at distance d that reflected n_f times
// off face f has, in band b,
//     A_b = prod_f R_{f,b}^{n_f} exp(-m_b d / 2) / (4 pi d),
// R_{f,b} the face's amplitude reflection factor in the band and m_b the air's energy decay rate
// (1/m). R_{f,b} = `reflection` (sqrt((1 - alpha)(1 - s)) when the scattered share s is handled
// by the rays) for a face of angle-independent absorption; for a face with an impedance zeta in
// the band it is `reflection` (then sqrt(1 - s)) times the locally reacting wall's factor
// (zeta cos(theta) - 1) / (zeta cos(theta) + 1) of wall_reflection.hpp, theta the angle of
// incidence. In a box every reflection off the two faces of axis a has the same angle:
// cos(theta) = |x_image,a - x_receiver,a| / d, so the product is exact.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "sphreverb/core/vec3.hpp"
#include "sphreverb/geometric/bands.hpp"

namespace sphreverb {

struct BoxImageParams {
  Vec3 lo, hi;                            // m, the box
  Vec3 source, receiver;                  // m, inside the box
  std::array<BandValues, 6> reflection;   // amplitude factor per face (2 axis + side) and band
  std::array<BandValues, 6> impedance{};  // real zeta per face and band; 0: none (see above)
  BandValues air{};                       // 1/m, energy decay rate of the air per band
  double sound_speed = 343.0;             // m/s
  double max_delay = 0.05;                // s, images with delay d / c < max_delay are kept
};

// One face's reflection factors per band (BoxImageParams' per face, or a polyhedral face's).
struct FaceFactors {
  BandValues reflection{};  // amplitude factor apart from the impedance
  BandValues impedance{};   // real zeta; 0: none
};

// One reflection of a polyhedral image's path: the face (an index into the caller's face list)
// and the cosine of its angle of incidence, in [0, 1].
struct Reflection {
  std::size_t face = 0;
  double cos_theta = 1.0;
};

struct ImageSource {
  double delay = 0.0;         // s, distance / sound_speed
  double distance = 0.0;      // m
  BandValues amplitude{};     // per band, see above
  Vec3 direction;             // unit, from the receiver towards the image (the arrival direction)
  int order = 0;              // reflections along the path
  std::array<int, 6> hits{};  // reflections off each face of a box (box_image_sources)
  // A polyhedral image's reflections (polyhedral_images.hpp), from the source to the receiver,
  // each with its own angle; empty for a box image (hits).
  std::vector<Reflection> reflections;
};

// Every image with delay < max_delay, sorted by delay (ties by order, then by the image's
// coordinates), the direct sound first.
std::vector<ImageSource> box_image_sources(const BoxImageParams& p);

}  // namespace sphreverb
