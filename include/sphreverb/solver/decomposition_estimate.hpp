// The decomposition `check` reports, in about a second at any lattice size. Up to `budget`
// lattice sites it is Decomposition::of (exact). Beyond, the sites the walls take are still
// counted exactly (count_air_per_plane), and those the meshes and ghost-walled boundaries take
// (SolidGeometry) are estimated from a stratified sample: the lattice cut into blocks of k^3
// sites (k = ceil((sites / budget)^(1/3))), one site drawn in each block (a fixed hash of the
// block's indices: the same estimate on every call) and classified with the exact tests, its
// verdict standing for its block. Per plane, a block layer's estimate is shared evenly by its k
// planes. Stratified sampling with proportional allocation has at most the variance of simple
// random sampling, so particles_sigma = T sqrt(p (1 - p) / m) (T sites, m samples, p the sampled
// solid fraction) bounds one standard deviation of the particle count.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb {

// The sampling was stopped: `stop` returned true (a stop signal).
class EstimateStopped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::int64_t kEstimateSiteBudget = 1'000'000;

// Sampled: sampled_sites, sample_block and particles_sigma of the result are set.
// `stop` (may be empty) is polled once per row of blocks (a few thousand samples at most); when it
// returns true EstimateStopped is thrown. No communication.
Decomposition estimate_decomposition(const Scene& scene, std::int64_t budget = kEstimateSiteBudget,
                                     const std::function<bool()>& stop = {});

}  // namespace sphreverb
