// Phased image sources: the specular part of a box room as one coherent pressure response, each
// image's spherical wave reflected by the spherical-wave factor Q of every face it met
// (spherical_reflection.hpp) instead of a plane-wave factor per octave band.
//
// For the images of box_image_sources (image_sources.hpp: distance d, reflections n_f off face f,
// direction u) the response's spectrum, time convention exp(+i omega t) as the inverse FFT's, is
//
//     H(f) = sum over images of  conj(prod_f [rho_f(f) Q_f(f)]^{n_f}) exp(-m(f) d / 2)
//                                 exp(-i 2 pi f d / c) / (4 pi d),
//
// Q_f = spherical_reflection(zeta_f(f), cos theta_a, k d) with cos theta_a = |u_a| for the
// faces of axis a (in a box every reflection off them has that angle; the whole path d is the
// distance in Q, the image's), rho_f the face's amplitude factor apart from its impedance (the
// specular share sqrt(1 - s), and sqrt(1 - alpha) for a face of angle-independent absorption,
// whose Q is then 1), m the air's energy decay rate. zeta_f, rho_f and m are the box's per-band
// values (BoxImageParams) interpolated linearly in log frequency between the octave centres
// (constant below 125 Hz and above 8 kHz). The product is computed on a grid of
// kGridPerOctave log-spaced frequencies and interpolated linearly (complex) to the FFT bins;
// the delay is exact (a fractional delay, not a rounded tap). The response is the inverse FFT of
// H over twice the response length rounded up to a power of two, cut to `samples`; a single
// image with no reflection is the band-limited impulse 1 / (4 pi d) at d / c, the unit of
// image_sources.hpp.
//
// What it adds over the octave-band taps: the waves that graze a soft face keep their energy
// (Q -> 1 where R -> -1), and the images sum with their phases, so the specular field of a small
// room decays as its wave solution does (docs/theory/geometric.md, "Phased image sources").
// B-format: channel c of (W, Y, Z, X) weights every image by (1, u_y, u_z, u_x), as the taps do.
#pragma once

#include <cstddef>
#include <vector>

#include "sphreverb/geometric/image_sources.hpp"

namespace sphreverb {

inline constexpr int kGridPerOctave = 8;

// The phased response of `images` (box_image_sources(box)) at `rate` Hz, `samples` long: one
// channel (W) or, with bformat, four (W, Y, Z, X). Deterministic (no noise).
std::vector<std::vector<double>> phased_image_response(const std::vector<ImageSource>& images,
                                                       const BoxImageParams& box, double rate,
                                                       std::size_t samples, bool bformat = false);

}  // namespace sphreverb
