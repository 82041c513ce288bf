// Smoothing kernels in three dimensions, as pure functions of the distance r (m) and the
// smoothing length h (m). Both kernels have compact support r < 2h.
//
//  WendlandC2   W = 21/(16 pi h^3) (1 - q/2)^4 (2q + 1),  q = r/h          (Wendland 1995;
//               the 3-D C2 form with support 2h as in Dehnen & Aly 2012, Table 1)
//  CubicSpline  W = 1/(pi h^3) { 1 - 3/2 q^2 + 3/4 q^3     0 <= q < 1      (Monaghan 1992,
//                               { 1/4 (2 - q)^3            1 <= q < 2       "M4" B-spline)
//
// `F(r) = (dW/dr) / r` is what pair terms need: grad_i W_ij = (x_i - x_j) F(r_ij). It is finite at
// r = 0 for both kernels, so no division by r is ever needed.
#pragma once

#include <algorithm>
#include <numbers>

namespace sphreverb {

// Scene names "wendland_c2", "cubic_spline".
enum class KernelKind { WendlandC2, CubicSpline };

struct WendlandC2 {
  double h;
  double support() const { return 2.0 * h; }
  double W(double r) const {
    const double q = r / h, t = std::max(0.0, 1.0 - 0.5 * q);
    return 21.0 / (16.0 * std::numbers::pi * h * h * h) * t * t * t * t * (2.0 * q + 1.0);
  }
  // dW/dr = 21/(16 pi h^4) (-5 q)(1 - q/2)^3
  double dWdr(double r) const {
    const double q = r / h, t = std::max(0.0, 1.0 - 0.5 * q);
    return -105.0 / (16.0 * std::numbers::pi * h * h * h * h) * q * t * t * t;
  }
  // (dW/dr)/r = -105/(16 pi h^5) (1 - q/2)^3
  double F(double r) const {
    const double t = std::max(0.0, 1.0 - 0.5 * r / h);
    return -105.0 / (16.0 * std::numbers::pi * h * h * h * h * h) * t * t * t;
  }
};

struct CubicSpline {
  double h;
  double support() const { return 2.0 * h; }
  double W(double r) const {
    const double q = r / h, s = 1.0 / (std::numbers::pi * h * h * h);
    if (q < 1.0) return s * (1.0 - 1.5 * q * q + 0.75 * q * q * q);
    const double t = std::max(0.0, 2.0 - q);
    return s * 0.25 * t * t * t;
  }
  double dWdr(double r) const {
    const double q = r / h, s = 1.0 / (std::numbers::pi * h * h * h * h);
    if (q < 1.0) return s * (-3.0 * q + 2.25 * q * q);
    const double t = std::max(0.0, 2.0 - q);
    return -s * 0.75 * t * t;
  }
  // (dW/dr)/r: q < 1: (-3 + 9/4 q)/(pi h^5);  1 <= q < 2: -3/4 (2 - q)^2 / (q pi h^5)
  double F(double r) const {
    const double q = r / h, s = 1.0 / (std::numbers::pi * h * h * h * h * h);
    if (q < 1.0) return s * (-3.0 + 2.25 * q);
    const double t = std::max(0.0, 2.0 - q);
    return -s * 0.75 * t * t / q;
  }
};

// Calls f(kernel) with the concrete kernel type, so hot loops are compiled once per kernel.
template <class Fn>
decltype(auto) with_kernel(KernelKind kind, double h, Fn&& f) {
  switch (kind) {
    case KernelKind::CubicSpline:
      return f(CubicSpline{h});
    case KernelKind::WendlandC2:
      break;
  }
  return f(WendlandC2{h});
}

}  // namespace sphreverb
