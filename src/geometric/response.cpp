#include "sphreverb/geometric/response.hpp"

#include "sphreverb/geometric/hybrid.hpp"
#include "sphreverb/geometric/phased_images.hpp"
#include "sphreverb/geometric/source_filter.hpp"

namespace sphreverb {

GeometricResponse geometric_response(const HybridPlan& plan, const EnergyHistogram& rays,
                                     std::size_t r, bool bformat, std::size_t realisations) {
  GeometricResponse out;
  std::vector<ImageSource> images;
  if (plan.box_images) images = box_image_sources(plan.images[r]);
  out.images = images.size();
  std::vector<std::vector<double>> energy;
  std::vector<std::vector<BinMoments>> moments;
  if (rays.receivers > r)
    for (std::size_t b = 0; b < kGeoBandCount; ++b) {
      energy.push_back(rays.series(r, b));
      moments.push_back(rays.moment_series(r, b));
    }
  // Phased images: the noise tail alone is synthesised, the images' coherent sum added to it;
  // above the plan's phased limit the images' taps take over through the complementary weight.
  std::vector<std::vector<double>> phased;
  const std::vector<ImageSource> none;
  const std::vector<ImageSource>& taps = plan.phased_images ? none : images;
  if (plan.phased_images) {
    const SynthesisParams& p = plan.synthesis;
    phased = phased_image_response(images, plan.images[r], p.rate, p.samples, bformat,
                                   plan.phased_limit);
    for (auto& c : phased) c = drive_highpass(c, p.rate, p.source_highpass);
    if (plan.phased_limit > 0.0) {
      auto above = bformat ? synthesize_bformat(images, {}, {}, p)
                           : std::vector<std::vector<double>>{synthesize_response(images, {}, p)};
      for (std::size_t c = 0; c < phased.size(); ++c) {
        phased_complement(above[c], p.rate, plan.phased_limit);
        for (std::size_t i = 0; i < phased[c].size(); ++i) phased[c][i] += above[c][i];
      }
    }
  }
  const auto add_phased = [&](std::vector<double>& x, std::size_t c) {
    if (phased.empty()) return;
    for (std::size_t i = 0; i < x.size() && i < phased[c].size(); ++i) x[i] += phased[c][i];
  };
  out.channels =
      bformat ? synthesize_bformat(taps, energy, moments, plan.synthesis)
              : std::vector<std::vector<double>>{synthesize_response(taps, energy, plan.synthesis)};
  for (std::size_t c = 0; c < out.channels.size(); ++c) add_phased(out.channels[c], c);
  SynthesisParams other = plan.synthesis;
  for (std::size_t k = 1; k < realisations; ++k) {
    other.seed = realisation_seed(plan.synthesis.seed, k);
    out.more.push_back(synthesize_response(taps, energy, other));
    add_phased(out.more.back(), 0);
  }
  return out;
}

}  // namespace sphreverb
