#include "sphreverb/solver/rate_probe.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <numeric>
#include <sstream>

#include "sphreverb/core/timing.hpp"
#include "sphreverb/solver/simulation.hpp"
#include "sphreverb/solver/surfaces.hpp"

namespace sphreverb {

std::string probe_scene_text(const Scene& s) {
  const FluidSpec& f = s.fluid;
  const double edge = kProbeSites * f.spacing;
  std::ostringstream o;
  o.precision(17);
  o << "[time]\nsample_rate = " << s.time.sample_rate
    << "\nduration = " << 64.0 / s.time.sample_rate << "\ncfl = " << s.time.cfl << "\n";
  if (s.time.substeps > 0) o << "substeps = " << s.time.substeps << "\n";
  o << "[fluid]\nspacing = " << f.spacing << "\nh_over_dx = " << f.h_over_dx
    << "\nrest_density = " << f.rest_density << "\nsound_speed = " << f.sound_speed
    << "\nkernel = " << to_string(f.kernel) << "\neos = " << to_string(f.eos)
    << "\ngamma = " << f.gamma << "\nviscosity = " << f.viscosity
    << "\ndensity_diffusion = " << f.density_diffusion << "\nhyperdiffusion = " << f.hyperdiffusion
    << "\nhyperviscosity = " << hyperviscosity_of(s) << "\nshifting = " << f.shifting
    << "\nbackground_pressure = " << f.background_pressure << "\nskin = " << f.skin
    << "\ngradient_correction = " << to_string(f.gradient_correction) << "\n"
    << "[room]\nmin = 0 0 0\nmax = " << edge << " " << edge << " " << edge
    << "\nmaterial = rigid\nwalls = mirror\n"
    << "[emitter]\ninput = impulse\ncenter = " << 0.5 * edge << " " << 0.5 * edge << " "
    << 0.25 * edge << "\nnormal = 0 0 1\nradius = " << 0.15 * edge << "\ngain = 0\n"
    << "[receiver.probe]\nposition = " << 0.5 * edge << " " << 0.5 * edge << " " << 0.5 * edge
    << "\n[output]\ncheckpoint_every = 0\nlowpass = false\nhighpass = 0\n";
  return o.str();
}

MeasuredRate measure_particle_steps_per_second(const Scene& scene) {
  MeasuredRate r;
  try {
    const Scene probe = parse_scene(probe_scene_text(scene), scene.path + " (rate probe)");
    Simulation sim(probe, MPI_COMM_SELF);
    for (int k = 0; k < kProbeWarmupSteps; ++k) sim.step(false);
    r.particles = Decomposition::of(probe).particles;
    const auto start = std::chrono::steady_clock::now();
    // The fastest time of each step of the hyperdiffusion's period over the rounds: their sum is
    // a round as little disturbed by other processes as the rounds allow.
    std::array<double, kHyperdiffusionEvery> fastest;
    fastest.fill(HUGE_VAL);
    for (int round = 0; round < kProbeRounds && r.seconds <= kProbeMaxSeconds; ++round) {
      for (double& f : fastest) {
        const double cpu_start = thread_cpu_seconds();
        sim.step(false);
        f = std::min(f, thread_cpu_seconds() - cpu_start);
      }
      r.steps += kHyperdiffusionEvery;
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    r.fastest_cpu_seconds = std::accumulate(fastest.begin(), fastest.end(), 0.0);
    const double particles = static_cast<double>(r.particles);
    if (r.seconds > 0.0 && r.fastest_cpu_seconds > 0.0) {
      r.particle_steps_per_second = particles * kHyperdiffusionEvery / r.fastest_cpu_seconds;
      r.now_particle_steps_per_second = particles * static_cast<double>(r.steps) / r.seconds;
    }
  } catch (const std::exception& e) {
    r = MeasuredRate{};
    r.error = e.what();
  }
  return r;
}

}  // namespace sphreverb
