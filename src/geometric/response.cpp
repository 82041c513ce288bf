#include "sphreverb/geometric/response.hpp"

#include <memory>

#include "sphreverb/geometric/counter_rng.hpp"
#include "sphreverb/geometric/hybrid.hpp"
#include "sphreverb/geometric/phased_images.hpp"
#include "sphreverb/geometric/polyhedral_images.hpp"
#include "sphreverb/geometric/source_filter.hpp"

namespace sphreverb {

std::uint64_t source_seed(std::uint64_t seed, std::size_t k) {
  return k == 0 ? seed : splitmix64(seed ^ splitmix64(0xBB67AE8584CAA73BULL + k));
}

namespace {

// The response of source k alone at receiver r (unweighted), as geometric_response describes.
// `poly` is the plan's polyhedral image enumerator (null without polyhedral images).
// `poll` takes this source's share done.
GeometricResponse source_response(const HybridPlan& plan, const PolyhedralImages* poly,
                                  const EnergyHistogram& rays, std::size_t k, std::size_t r,
                                  bool bformat, std::size_t realisations, const GeoPoll& poll) {
  const auto at = [&](double done) {
    if (poll) poll(done);
  };
  GeometricResponse out;
  const std::size_t receivers = plan.rays.receivers.size();
  const std::size_t slot = k * receivers + r;
  SynthesisParams p = plan.synthesis;
  p.seed = plan.sources.at(k).seed;
  p.source_highpass = plan.sources.at(k).highpass;
  std::vector<ImageSource> images;
  if (plan.box_images) images = box_image_sources(plan.images.at(slot));
  if (poly != nullptr) images = poly->images(plan.poly.at(slot));
  out.images = images.size();
  at(0.1);
  std::vector<std::vector<double>> energy;
  std::vector<std::vector<BinMoments>> moments;
  if (rays.receivers > slot)
    for (std::size_t b = 0; b < kGeoBandCount; ++b) {
      energy.push_back(rays.series(slot, b));
      moments.push_back(rays.moment_series(slot, b));
    }
  // Phased images: the noise tail alone is synthesised, the images' coherent sum added to it;
  // above the plan's phased limit the images' taps take over through the complementary weight.
  std::vector<std::vector<double>> phased;
  const std::vector<ImageSource> none;
  const std::vector<ImageSource>& taps = plan.phased_images ? none : images;
  if (plan.phased_images) {
    // The phased sum: 0.1 to 0.9 of the source's work.
    const GeoPoll sum_poll = [&](double done) { at(0.1 + 0.8 * done); };
    phased = plan.poly_images
                 ? phased_image_response(images, plan.poly.at(slot).factors, plan.poly[slot].air,
                                         plan.poly[slot].sound_speed, p.rate, p.samples, bformat,
                                         plan.phased_limit, sum_poll)
                 : phased_image_response(images, plan.images.at(slot), p.rate, p.samples, bformat,
                                         plan.phased_limit, sum_poll);
    at(0.9);
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
  out.channels = bformat ? synthesize_bformat(taps, energy, moments, p)
                         : std::vector<std::vector<double>>{synthesize_response(taps, energy, p)};
  for (std::size_t c = 0; c < out.channels.size(); ++c) add_phased(out.channels[c], c);
  SynthesisParams other = p;
  for (std::size_t j = 1; j < realisations; ++j) {
    other.seed = realisation_seed(p.seed, j);
    out.more.push_back(synthesize_response(taps, energy, other));
    add_phased(out.more.back(), 0);
  }
  return out;
}

}  // namespace

GeometricResponse geometric_response(const HybridPlan& plan, const EnergyHistogram& rays,
                                     std::size_t r, bool bformat, std::size_t realisations,
                                     const GeoPoll& poll) {
  if (plan.sources.empty()) {  // silent: zeros of the response's shape
    GeometricResponse out;
    out.channels.assign(bformat ? 4 : 1, std::vector<double>(plan.synthesis.samples, 0.0));
    out.more.assign(realisations > 0 ? realisations - 1 : 0,
                    std::vector<double>(plan.synthesis.samples, 0.0));
    return out;
  }
  // One enumerator (its triangle tree) for every source.
  std::unique_ptr<const PolyhedralImages> poly;
  if (plan.poly_images) poly = std::make_unique<const PolyhedralImages>(plan.surfaces, plan.faces);
  const double sources = static_cast<double>(plan.sources.size());
  const auto of_source = [&](std::size_t k) -> GeoPoll {
    if (!poll) return {};
    return [&poll, k, sources](double done) { poll((static_cast<double>(k) + done) / sources); };
  };
  GeometricResponse out =
      source_response(plan, poly.get(), rays, 0, r, bformat, realisations, of_source(0));
  for (std::size_t k = 1; k < plan.sources.size(); ++k) {
    const GeometricResponse one =
        source_response(plan, poly.get(), rays, k, r, bformat, realisations, of_source(k));
    const double w = plan.sources[k].weight;
    const auto add = [w](std::vector<double>& sum, const std::vector<double>& x) {
      for (std::size_t i = 0; i < sum.size() && i < x.size(); ++i) sum[i] += w * x[i];
    };
    for (std::size_t c = 0; c < out.channels.size(); ++c) add(out.channels[c], one.channels[c]);
    for (std::size_t j = 0; j < out.more.size(); ++j) add(out.more[j], one.more[j]);
    out.images += one.images;
  }
  return out;
}

}  // namespace sphreverb
