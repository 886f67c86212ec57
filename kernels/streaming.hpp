#pragma once
// Free streaming d f/dt + xi . grad f = 0 over one time step, finite-volume upwind on the padded
// grid (paper 002, Eqs. 11, 12, 15):
//  * Courant numbers above one on uniform axes: the row is first translated by whole cells
//    (shift), then the residual fraction r < 1 is advanced by the upwind scheme;
//  * first order: f_c - sum_d r_d (f_b - f_{b-up_d});
//  * second order: MUSCL with a limiter, fluxes through the faces of the base cell b:
//    f_b - sum_d r_d (F_out - F_in), F = f + (1 - r)/2 * limited difference.
// On stretched axes r = |xi_d| dt / dx(i) varies with the cell (no shifts there).
#include <cstdint>

#include "core/host_device.hpp"
#include "views.hpp"

namespace bolt {

enum class Limiter { minmod, van_leer };

// Selects rather than branches: neighbouring velocities (GPU lanes) take either side of
// `product <= 0`, and a branch would run both. Where product <= 0 the van Leer quotient may be
// 0/0; it is not selected. A NaN product stays NaN (it is not <= 0).
template <class Real>
BOLT_HOST_DEVICE inline Real limited_difference(Limiter limiter, Real upwind, Real downwind) {
  const Real product = upwind * downwind;
  const Real limited = limiter == Limiter::van_leer
                           ? Real(2) * product / (upwind + downwind)
                           : (fabs(upwind) < fabs(downwind) ? upwind : downwind);
  return product <= Real(0) ? Real(0) : limited;
}

template <class Real>
struct StreamTables {
  const int* shift;           // [v] offset of the base cell's value, in elements (cells * nv)
  const signed char* step;    // [axis * nv + v] upwind direction in cells: -sign(xi), or 0
  const Real* fraction;       // [axis * nv + v] residual Courant (uniform) or |xi| dt (stretched)
  const Real* scale[3];       // [axis][padded coordinate] 1 (uniform) or 1 / dx (stretched)
  std::int64_t stride[3];     // padded strides in elements (cells * nv)
  bool active[3];
  int nv;
  int order;                  // 1 or 2
  Limiter limiter;

  // What velocity v streams with, the same in every cell: the offset of its base cell and, per
  // axis, the upwind direction (0: none) and fraction. (The neighbour offsets step * stride
  // computed here once for all cells were slower: 4.18 against 4.11 ms, delta = 10 hs_mc.)
  struct Upwind {
    int shift;
    int step[3];
    Real fraction[3];
  };

  BOLT_HOST_DEVICE Upwind upwind(int v) const {
    Upwind u;
    u.shift = shift[v];
BOLT_UNROLL
    for (int d = 0; d < 3; ++d) {
      // (The fraction is 0 where the step is: no load waits on another.)
      u.step[d] = active[d] ? step[d * nv + v] : 0;
      u.fraction[d] = active[d] ? fraction[d * nv + v] : Real(0);
    }
    return u;
  }

  // body(value_of) for N cells at padded coordinates ip[c], value_of(u, c, fv) the post-streaming
  // value in cell c of the velocity with tables u = upwind(v) (cells may share u); fv points at
  // f[p * nv + v] of that cell, and all neighbour addresses are fixed offsets from it. The order
  // is decided once, outside the loop over velocities, so that the first-order loop is
  // straight-line code (first_order_value).
  template <int N, class Body>
  BOLT_HOST_DEVICE auto for_cells(const int (&ip)[N][3], Body&& body) const {
    if (order == 1) {
      Real cell_scale[N][3];
      for (int c = 0; c < N; ++c)
        for (int d = 0; d < 3; ++d) cell_scale[c][d] = scale[d][ip[c][d]];
      return body([&](const Upwind& u, int c, const Real* fv) {
        return first_order_value(u, fv, cell_scale[c]);
      });
    }
    return body(
        [&](const Upwind& u, int c, const Real* fv) { return second_order_value(u, fv, ip[c]); });
  }

  // The first-order value with the cell's factors scale[d][ip[d]] given (the same for all its
  // velocities): straight-line code, so that a velocity's loads are all in flight at once (with a
  // branch on the order inside, each axis had waited on its own loads).
  BOLT_HOST_DEVICE Real first_order_value(const Upwind& u, const Real* fv,
                                          const Real cell_scale[3]) const {
    const Real* base = fv + u.shift;
    Real upwind_value[3];
BOLT_UNROLL
    for (int d = 0; d < 3; ++d)
      upwind_value[d] = active[d] ? base[u.step[d] * stride[d]] : Real(0);
    const Real fb = *base;
    Real result = fb;
BOLT_UNROLL
    for (int d = 0; d < 3; ++d) {
      if (!active[d]) continue;
      const Real r = u.fraction[d] * cell_scale[d];
      result -= r * (fb - upwind_value[d]);
    }
    return result;
  }

  // The second-order (MUSCL) value in the cell at padded coordinates ip.
  BOLT_HOST_DEVICE Real second_order_value(const Upwind& u, const Real* fv,
                                           const int ip[3]) const {
    const Real* base = fv + u.shift;
    const Real fb = *base;
    Real result = fb;
BOLT_UNROLL
    for (int d = 0; d < 3; ++d) {
      if (!active[d]) continue;  // the same for every velocity: no divergence
      // s = 0 (xi_d = 0) has fraction 0: its terms vanish, its neighbours are the cell itself.
      const int s = u.step[d];
      const std::int64_t up = s * stride[d];
      const Real fraction_v = u.fraction[d];
      const Real r = fraction_v * scale[d][ip[d]];
      const Real fu1 = base[up];
      const Real fu2 = base[2 * up];
      const Real fd1 = base[-up];
      const Real r_up = fraction_v * scale[d][ip[d] + s];
      const Real face_out = fb + Real(0.5) * (Real(1) - r) * limited_difference(limiter, fb - fu1, fd1 - fb);
      const Real face_in = fu1 + Real(0.5) * (Real(1) - r_up) * limited_difference(limiter, fu1 - fu2, fb - fu1);
      result -= r * (face_out - face_in);
    }
    return result;
  }
};

}  // namespace bolt
