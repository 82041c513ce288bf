// The pair loop of the neighbour sums (interactions.cpp, shifting.cpp): lane-interleaved partial
// sums in key order, the kernel-gradient shapes and raw views of the fields the loops read.
// Private to src/physics.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <vector>

#include "sphreverb/core/particles.hpp"
#include "sphreverb/physics/kernel.hpp"
#include "sphreverb/physics/neighbour_list.hpp"

namespace sphreverb::detail {

// The pair loops run over each owned particle's key-ordered neighbour list in kLanes interleaved
// partial sums: list entry k goes to lane k mod kLanes, and the lanes are added in a fixed tree at
// the end. The order of every floating-point operation is thus a function of the list alone, which
// is the same on any rank count (the determinism invariant), while the lanes break the serial
// dependence of one running sum and let the compiler keep them in vector registers (the
// neighbour fields are loaded lane by lane). A list's last partial block fills its unused lanes
// with i itself, whose every term carries a factor x_ii = 0, v_ii = 0 or rho_i - rho_i = 0 and so
// adds an exact zero.
//
// Pairs beyond the support (the list holds support + skin) need no branch: every F below is 0
// there, which again adds exact zeros.
constexpr std::uint32_t kLanes = 8;

// Lane sums in a fixed order.
inline double lane_sum(const double (&a)[kLanes]) {
  return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

// Calls block(nb) with kLanes neighbour indices at a time: the list [begin, end) of particle i,
// its last partial block filled up with i.
template <class Block>
inline void for_each_block(std::uint32_t begin, std::uint32_t end,
                           const std::uint32_t* __restrict idx, std::uint32_t i, Block&& block) {
  std::uint32_t k = begin;
  for (; k + kLanes <= end; k += kLanes) block(idx + k);
  if (k < end) {
    std::uint32_t tail[kLanes];
    for (std::uint32_t l = 0; l < kLanes; ++l) tail[l] = k + l < end ? idx[k + l] : i;
    block(tail);
  }
}

// Kernel gradient factor F(r)/F(0)-style shapes without the constant: the loops multiply the
// per-particle sum by the constant once. Wendland C2: F = -105/(16 pi h^5) (1 - r/2h)^3.
struct WendlandShape {
  double inv_2h, scale;  // scale = F / shape
  explicit WendlandShape(const WendlandC2& k)
      : inv_2h(0.5 / k.h), scale(-105.0 / (16.0 * std::numbers::pi * std::pow(k.h, 5))) {}
  double operator()(double r2) const {
    const double t = std::max(0.0, 1.0 - std::sqrt(r2) * inv_2h);
    return t * t * t;
  }
};
// Cubic spline: F = s(-3 + 9/4 q) for q < 1, -3/4 s (2 - q)^2 / q for 1 <= q < 2, 0 beyond;
// s = 1/(pi h^5). Branch-free (selects) so the loop still vectorises.
struct CubicShape {
  double inv_h, scale;
  explicit CubicShape(const CubicSpline& k)
      : inv_h(1.0 / k.h), scale(1.0 / (std::numbers::pi * std::pow(k.h, 5))) {}
  double operator()(double r2) const {
    const double q = std::sqrt(r2) * inv_h;
    const double t = std::max(0.0, 2.0 - q);
    const double outer = -0.75 * t * t / std::max(q, 1.0);
    return q < 1.0 ? -3.0 + 2.25 * q : outer;
  }
};
inline WendlandShape shape_of(const WendlandC2& k) { return WendlandShape(k); }
inline CubicShape shape_of(const CubicSpline& k) { return CubicShape(k); }

// Raw views of the fields the loops read (no aliasing with what they write).
struct View {
  const double* __restrict x, * __restrict y, * __restrict z;
  const double* __restrict vx, * __restrict vy, * __restrict vz, * __restrict rho;
  explicit View(const Particles& p)
      : x(p.x.data()),
        y(p.y.data()),
        z(p.z.data()),
        vx(p.vx.data()),
        vy(p.vy.data()),
        vz(p.vz.data()),
        rho(p.rho.data()) {}
};

// The one neighbour loop. `term(i, j, t)` writes the Term::kSums terms of the pair (i, j) into t;
// finish(i, sums) receives particle i's lane-summed totals. Particles with an explicit list are
// summed 8 neighbours at a time (one lane each); runs of particles on the stencil kVector
// particles at a time, each neighbour slot k read with one contiguous load (entry i + stencil[k]
// for kVector consecutive i), into the same lanes in the same order: both give the same bits,
// so a particle's sums do not depend on which form its list has on this rank.
constexpr std::uint32_t kVector = 8;

// One particle's sums over the list [list, list + count) of its neighbours, into finish(i, sums).
template <class Term, class Finish>
inline void list_sums(const Term& term, std::uint32_t i, const std::uint32_t* list,
                      std::uint32_t count, Finish&& finish) {
  constexpr int S = Term::kSums;
  double acc[S][kLanes] = {};
  for_each_block(0, count, list, i, [&](const std::uint32_t* __restrict nb) {
#pragma GCC ivdep
    for (std::uint32_t l = 0; l < kLanes; ++l) {
      double t[S];
      term(i, nb[l], t);
#pragma GCC unroll 4
      for (int s = 0; s < S; ++s) acc[s][l] += t[s];
    }
  });
  double sum[S];
  for (int s = 0; s < S; ++s) sum[s] = lane_sum(acc[s]);
  finish(i, sum);
}

// The sums of the owned particles `which` (ascending) only, each in the list form: the same bits
// as pair_sums gives them.
template <class Term, class Finish>
void pair_sums_of(const NeighbourList& nl, const std::vector<std::uint32_t>& which,
                  const Term& term, Finish&& finish) {
  const std::uint32_t* __restrict off = nl.offsets().data();
  const std::uint32_t* __restrict idx = nl.index().data();
  const std::vector<std::int32_t>& stencil = nl.stencil();
  const auto m = static_cast<std::uint32_t>(stencil.size());
  const std::vector<NeighbourList::Run>& runs = nl.runs();
  std::vector<std::uint32_t> list(m);
  std::size_t r = 0;
  for (const std::uint32_t i : which) {
    while (r < runs.size() && runs[r].end <= i) ++r;
    if (r < runs.size() && runs[r].begin <= i) {
      for (std::uint32_t k = 0; k < m; ++k)
        list[k] = static_cast<std::uint32_t>(std::int64_t{i} + stencil[k]);
      list_sums(term, i, list.data(), m, finish);
    } else {
      list_sums(term, i, idx + off[i], off[i + 1] - off[i], finish);
    }
  }
}

template <class Term, class Finish>
void pair_sums(const NeighbourList& nl, std::uint32_t n_owned, const Term& term, Finish&& finish) {
  constexpr int S = Term::kSums;
  const std::uint32_t* __restrict off = nl.offsets().data();
  const std::uint32_t* __restrict idx = nl.index().data();
  const auto listed = [&](std::uint32_t i, const std::uint32_t* list, std::uint32_t count) {
    list_sums(term, i, list, count, finish);
  };

  // The stencil padded to whole blocks with offset 0 (i itself: exact zeros, as the lists' last
  // partial block).
  const std::vector<std::int32_t>& stencil = nl.stencil();
  const auto m = static_cast<std::uint32_t>(stencil.size());
  const std::uint32_t padded = (m + kLanes - 1) / kLanes * kLanes;
  std::vector<std::ptrdiff_t> step(padded, 0);
  std::copy(stencil.begin(), stencil.end(), step.begin());
  const std::ptrdiff_t* __restrict st = step.data();
  const auto vector_block = [&](std::uint32_t first) {
    double acc[S][kLanes][kVector] = {};
    const auto i0 = static_cast<std::ptrdiff_t>(first);
    for (std::uint32_t b = 0; b < padded; b += kLanes)
      for (std::uint32_t l = 0; l < kLanes; ++l) {
        // Signed index arithmetic: i0 + v + d is affine in v, so the loads are contiguous.
        const std::ptrdiff_t d = st[b + l];
#pragma GCC ivdep
        for (std::ptrdiff_t v = 0; v < std::ptrdiff_t{kVector}; ++v) {
          double t[S];
          term(i0 + v, i0 + v + d, t);
#pragma GCC unroll 4
          for (int s = 0; s < S; ++s) acc[s][l][v] += t[s];
        }
      }
    for (std::uint32_t v = 0; v < kVector; ++v) {
      double sum[S];
      for (int s = 0; s < S; ++s) {
        double lanes[kLanes];
        for (std::uint32_t l = 0; l < kLanes; ++l) lanes[l] = acc[s][l][v];
        sum[s] = lane_sum(lanes);
      }
      finish(first + v, sum);
    }
  };

  std::vector<std::uint32_t> list(m);
  std::uint32_t i = 0;
  for (const NeighbourList::Run& run : nl.runs()) {
    for (; i < run.begin; ++i) listed(i, idx + off[i], off[i + 1] - off[i]);
    if (run.end - run.begin >= kVector) {
      std::uint32_t i0 = run.begin;
      for (; i0 + kVector <= run.end; i0 += kVector) vector_block(i0);
      // The last, partial block overlaps the previous one: its particles are summed twice,
      // with the same result.
      if (i0 < run.end) vector_block(run.end - kVector);
    } else {
      for (i = run.begin; i < run.end; ++i) {
        for (std::uint32_t k = 0; k < m; ++k) list[k] = static_cast<std::uint32_t>(i + st[k]);
        listed(i, list.data(), m);
      }
    }
    i = run.end;
  }
  for (; i < n_owned; ++i) listed(i, idx + off[i], off[i + 1] - off[i]);
}

}  // namespace sphreverb::detail
