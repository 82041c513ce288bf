#include "sphreverb/solver/hybrid_cost.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "sphreverb/solver/cost.hpp"
#include "sphreverb/solver/hybrid_assembly.hpp"

namespace sphreverb {

namespace {

// Bytes per image held at once: the image (its vector grows by doubling: up to twice its room;
// 188 bytes per image were measured for 1.2e7 images of 152 bytes), the phased sum's selection
// (strong_images: delay-bin index, flag, pointer), a polyhedral image's reflections.
double bytes_per_image(int order) {
  return 2.0 * sizeof(ImageSource) + 8.0 + 1.0 + 8.0 + 8.0 +
         (order > 0 ? 16.0 + order * sizeof(Reflection) : 0.0);
}

// fft_length of phased_images.cpp: twice the samples rounded up to a power of two.
double fft_bins(std::size_t samples) {
  double n = 1.0;
  while (n < 2.0 * static_cast<double>(samples)) n *= 2.0;
  return n / 2.0 + 1.0;
}

}  // namespace

HybridCost estimate_hybrid_cost(const Scene& s, int ranks) {
  HybridCost c;
  c.ranks = std::max(1, ranks);
  if (!s.hybrid.present) return c;
  const HybridPlan plan = make_hybrid_plan(s);
  c.sources = plan.sources.size();
  c.receivers = s.receivers.size();
  if (c.sources == 0) return c;
  c.present = true;
  const double rate = s.time.sample_rate;
  const double record = static_cast<double>(s.derived.samples) / rate;
  const double volume = hybrid_volume(s);
  const double reach = s.fluid.sound_speed * std::min(s.hybrid.image_time, record);
  const double lattice = 4.0 / 3.0 * std::numbers::pi * reach * reach * reach / volume;
  int order = 0;
  if (plan.box_images) {
    c.images = std::max(1.0, lattice);
  } else if (plan.poly_images) {
    order = static_cast<int>(s.hybrid.image_order);
    c.candidates = 1.0 + candidate_bound(plan.faces.size(), order);
    c.images = std::max(1.0, std::min(lattice, c.candidates));
  }
  c.image_bytes = c.images * bytes_per_image(order);
  // Per image: the phased sum over the bins up to the phased limit, or the octave-band taps of
  // every synthesised signal (the realisations of the calibration, B-format's channels).
  const double channels = 1.0;  // W; an ambisonic receiver's Y Z X add to the same sum
  double per_image = kTapImageSeconds * static_cast<double>(kCalibrationRealisations + 3);
  if (plan.phased_images) {
    // phased_images.cpp: the bins up to the limit, the log grid from the first bin to it.
    const double bins = fft_bins(s.derived.samples);
    const double df = rate / (2.0 * (bins - 1.0));
    const double top =
        plan.phased_limit > 0.0 ? std::min(plan.phased_limit, 0.5 * rate) : 0.5 * rate;
    const double used = std::min(bins, std::ceil(top / df) + 1.0);
    const double points = std::ceil(kGridPerOctave * std::log2(top / std::min(df, 0.5 * top))) + 1;
    per_image = kPhasedPointSeconds * points + kPhasedBinSeconds * used * channels;
    if (plan.phased_limit > 0.0) per_image += 4.0 * kTapImageSeconds;
  }
  // The receivers are split over the ranks: the busiest has ceil(R / n) of them.
  const double rounds = std::ceil(static_cast<double>(c.receivers) / c.ranks);
  c.image_seconds = rounds * static_cast<double>(c.sources) *
                    (c.images * per_image + c.candidates * kCandidateSeconds);
  // Rays: one AABB-tree query per mean free path 4V/S over the whole record (report.cpp's bound).
  const double area = hybrid_area(s, plan);
  const double rays = static_cast<double>(plan.rays.rays) * static_cast<double>(c.sources);
  c.segments =
      rays * std::max(1.0, s.fluid.sound_speed * record / (4.0 * volume / std::max(area, 1e-12)));
  c.ray_seconds = c.segments * kRaySegmentSeconds / c.ranks;
  return c;
}

std::string hybrid_cost_report(const HybridCost& c) {
  if (!c.present) return "";
  std::ostringstream o;
  o.precision(3);
  o << "  geometric part       ~" << duration_text(c.seconds()) << " on " << c.ranks
    << " rank(s) after stage 2: image sources ~" << duration_text(c.image_seconds) << " (~"
    << c.images << " per source and receiver, ~" << c.image_bytes / 1048576.0
    << " MiB per rank), rays ~" << duration_text(c.ray_seconds) << " (~" << c.segments
    << " segments); " << c.seconds() * c.ranks / 3600.0 << " core-hours\n";
  return o.str();
}

void refuse_if_hybrid_out_of_memory(const Scene& s, MPI_Comm comm) {
  if (!s.hybrid.present) return;
  int size = 1;
  MPI_Comm_size(comm, &size);
  const RankMemory memory = rank_memory_share(comm);
  const HybridCost c = estimate_hybrid_cost(s, size);
  const double least = memory.least_bytes;
  const int on_node = memory.ranks_on_node;
  if (!c.present || !memory.known || c.image_bytes <= least) return;
  const bool poly = c.candidates > 0.0;
  std::ostringstream msg;
  msg.precision(4);
  msg << s.path << ": [hybrid] image_time" << (poly ? " / image_order" : "")
      << ": the image sources need ~" << c.image_bytes / 1048576.0 << " MiB per rank (~" << c.images
      << " images of one source and receiver within c "
      << "image_time = " << s.fluid.sound_speed * s.hybrid.image_time << " m), but a rank has ~"
      << least / 1048576.0 << " MiB (MemAvailable of /proc/meminfo shared by " << on_node
      << " rank(s) on its node); use a smaller image_time" << (poly ? " or image_order" : "")
      << " (rays take the reflections after it)";
  throw SceneError(msg.str());
}

}  // namespace sphreverb
