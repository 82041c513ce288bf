// Phased image sources: the specular part of a room as one coherent pressure response, each
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
// A polyhedral image (polyhedral_images.hpp, ImageSource::reflections non-empty) takes the product
// over its reflections j of rho_{f_j} Q_{f_j}(cos theta_j), each reflection at its own angle of
// incidence; a box image's product above is the same product grouped by face (every reflection
// off the faces of axis a at cos theta_a), computed as before.
//
// Cost: images x bins. A limit ends the sum where the join no longer needs it (hybrid_assembly);
// the taps of the same images, through phased_complement, fill the spectrum above. Below it the
// sum leaves out the weakest images of each millisecond of delay (kCullFraction of its energy,
// from a bound of |Q|), and Q's ground wave F comes from a table (spherical_reflection.cpp).
//
// What it adds over the octave-band taps: the waves that graze a soft face keep their energy
// (Q -> 1 where R -> -1), and the images sum with their phases, so the specular field of a small
// room decays as its wave solution does (docs/theory/geometric.md, "Phased image sources").
// B-format: channel c of (W, Y, Z, X) weights every image by (1, u_y, u_z, u_x), as the taps do.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "sphreverb/geometric/image_sources.hpp"

namespace sphreverb {

inline constexpr int kGridPerOctave = 8;
// Images left out of the sum: per kCullBin of delay, the weakest whose energy bounds add up to
// at most kCullFraction of the bin's, in every band the sum covers (phased_images.cpp).
inline constexpr double kCullBin = 1e-3;  // s
inline constexpr double kCullFraction = 1e-4;

// The weight of the phased sum at f for a `limit` > 0 (Hz): 1 up to limit / 2, cos^2 of
// (pi / 2) log2(2 f / limit) over the octave below the limit, 0 above it; 1 everywhere for
// limit <= 0 (the full band).
double phased_weight(double f, double limit);

// The phased response of `images` (box_image_sources(box)) at `rate` Hz, `samples` long: one
// channel (W) or, with bformat, four (W, Y, Z, X), its spectrum times phased_weight(f, limit)
// (zero phase). Deterministic (no noise).
// `poll` (optional) is called with the share of the images summed every kPollImages images; it
// may throw to abandon the sum.
inline constexpr std::size_t kPollImages = 4096;
std::vector<std::vector<double>> phased_image_response(
    const std::vector<ImageSource>& images, const BoxImageParams& box, double rate,
    std::size_t samples, bool bformat = false, double limit = 0.0,
    const std::function<void(double)>& poll = {});

// The same for images whose reflections index `faces` (a box image's hits: faces 0 .. 5 in the
// box's order), with the air's energy decay rate `air` (1/m, per band) and the sound speed (m/s).
std::vector<std::vector<double>> phased_image_response(
    const std::vector<ImageSource>& images, const std::vector<FaceFactors>& faces,
    const BandValues& air, double sound_speed, double rate, std::size_t samples,
    bool bformat = false, double limit = 0.0, const std::function<void(double)>& poll = {});

// x through 1 - phased_weight(f, limit), zero phase (FFT over twice x's length): the part of the
// spectrum the phased sum leaves to the taps, so that phased + complement(taps) joins them flat.
void phased_complement(std::vector<double>& x, double rate, double limit);

}  // namespace sphreverb
