#pragma once
// Free streaming d f/dt + xi . grad f = 0 over one time step, finite-volume upwind on the padded
// grid (paper 002, Eqs. 11, 12, 15):
//  * Courant numbers above one on uniform axes: the row is first translated by whole cells
//    (shift), then the residual fraction r < 1 is advanced by the upwind scheme;
//  * first order: f_c - sum_d r_d (f_b - f_{b-up_d});
//  * second order: MUSCL with a limiter, fluxes through the faces of the base cell b:
//    f_b - sum_d r_d (F_out - F_in), F = f + (1 - r)/2 * limited difference.
// On stretched axes r = |xi_d| dt / dx(i) varies with the cell (no shifts there).
#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "views.hpp"

namespace bolt {

enum class Limiter { minmod, van_leer };

// A quotient whose last bits do not matter: the van Leer slope's, and the iterative sweep's
// solution of a cell's equation (kernels/sweep.hpp; in float its terms carry a rounding each
// already). On the GPU in float it is the hardware's approximate division, within 2 ulp for
// denominators below 2^126 (none of these comes near), with subnormal operands and results
// flushed to zero (below 1.2e-38, where a float run's value is 0 to every use of it): two
// instructions, where the IEEE division is a dozen, a check and a called slow path, and
// __fdividef, which rescales subnormal operands, five to seven. These are several a value.
// Double and the CPU divide exactly.
BOLT_HOST_DEVICE inline float fast_quotient(float numerator, float denominator) {
#if defined(__CUDA_ARCH__)
  float quotient;
  asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(quotient) : "f"(numerator), "f"(denominator));
  return quotient;
#else
  return numerator / denominator;
#endif
}
BOLT_HOST_DEVICE inline double fast_quotient(double numerator, double denominator) {
  return numerator / denominator;
}

// Selects rather than branches: neighbouring velocities (GPU lanes) take either side of
// `product <= 0`, and a branch would run both. Where product <= 0 the van Leer quotient may be
// 0/0; it is not selected. A NaN product stays NaN (it is not <= 0).
template <class Real>
BOLT_HOST_DEVICE inline Real limited_difference(Limiter limiter, Real upwind, Real downwind) {
  const Real product = upwind * downwind;
  const Real limited = limiter == Limiter::van_leer
                           ? fast_quotient(Real(2) * product, upwind + downwind)
                           : (fabs(upwind) < fabs(downwind) ? upwind : downwind);
  return product <= Real(0) ? Real(0) : limited;
}

// The tables of a step: per velocity v, the same in every cell, and per streaming axis k < axes
// (the grid's active axes axis[k], compacted so that the first-order loop over them has a
// compile-time length). The tables of axis k start at k * table_stride, nv rounded up to
// kStreamTableAlign elements (stream_table_stride), so that every axis's table starts on a
// 128-byte line as the first one does: a warp's load of 32 consecutive velocities then touches
// one line, not two (on the GPU each line is a pass of the L1's pipeline, which the hs_mc
// collision is bound by; its velocity batches are aligned likewise).
constexpr int kStreamTableAlign = 32;
BOLT_HOST_DEVICE constexpr int stream_table_stride(int nv) {
  return (nv + kStreamTableAlign - 1) / kStreamTableAlign * kStreamTableAlign;
}

// A reduced set's g node and its h node, adjacent in a row of f (Velocities), as one access: the
// rows start aligned (cudaMalloc's buffers; the team's scratch row at a multiple of 256 bytes of
// shared memory), a g node's index is even and rows and their offsets span whole numbers of
// pairs, so a pair is aligned to its size (8 bytes in float, 16 in double) and a GPU thread loads
// it in one instruction. Its arithmetic is the nodes' own, component by component.
template <class Real>
struct alignas(2 * sizeof(Real)) NodePair {
  Real g, h;

  BOLT_HOST_DEVICE static NodePair load(const Real* at) {
    return *reinterpret_cast<const NodePair*>(at);
  }
  BOLT_HOST_DEVICE void store(Real* at) const { *reinterpret_cast<NodePair*>(at) = *this; }
  BOLT_HOST_DEVICE friend NodePair operator-(NodePair a, NodePair b) {
    return {a.g - b.g, a.h - b.h};
  }
  BOLT_HOST_DEVICE friend NodePair operator*(Real r, NodePair a) { return {r * a.g, r * a.h}; }
  BOLT_HOST_DEVICE NodePair& operator-=(NodePair b) {
    g -= b.g;
    h -= b.h;
    return *this;
  }
};

// Consecutive velocities [begin, end) of the row whose upwind neighbour along each streaming
// axis k is the same one, step[k] cells away (StreamTables::upwind_step: -1, +1, or 0 where the
// fraction is 0).
struct StreamRun {
  int begin, end;
  int step[3];
};

// The runs of a row by which the CPU streams first order (FirstOrderStreamer::stream_runs), or
// none (null): then, as on the GPU, per velocity (the host makes none where runs are short or
// velocities shift: sign_runs in lib/solver/explicit/stream_tables.hpp). The GPU reads none.
struct StreamRuns {
  const StreamRun* run = nullptr;
  int count = 0;
};

template <class Real>
struct StreamTables {
  const int* shift;  // [v] offset of the base cell's value, in elements (cells * row); read only
                     // when `shifts`
  // [k * table_stride + v] the residual Courant number (uniform axis) or |xi| dt (stretched),
  // signed as xi along axis[k]: the upwind neighbour lies one cell against that sign, and
  // 0 has no upwind term. One table where the shift, the upwind step or offset and the fraction
  // were three: first-order streaming loads one value per velocity and axis (a warp's load is
  // a pass of the L1's pipeline, which the hs_mc collision is bound by).
  const Real* signed_fraction;
  const Real* scale[3];      // [k][padded coordinate along axis[k]] 1 (uniform) or 1 / dx
  std::int64_t stride[3];    // [k] padded stride of axis[k] in elements (cells * row)
  int near_stride[3];        // [k] the same in 32 bits (the host checks it and shift + it)
  int axis[3];
  int axes;
  int table_stride;          // stream_table_stride(nv)
  bool shifts;               // whether some velocity moves whole cells (Courant number above 1)
  int order;                 // 1 or 2
  Limiter limiter;

  // The offset of the upwind neighbour along axis[k] for signed fraction d, in cells of
  // `stride` elements: -stride where xi > 0, +stride where xi < 0, 0 where xi = 0.
  template <class Offset>
  BOLT_HOST_DEVICE static Offset upwind_step(Real d, Offset stride) {
    return d > Real(0) ? -stride : (d < Real(0) ? stride : Offset(0));
  }

  // body(streamer) for N cells at padded coordinates ip[c]: streamer.upwind(v) reads what
  // velocity v streams with (cells share it), streamer.value(u, c, fv) gives the post-streaming
  // value in cell c, fv pointing at f[p * row + v] of that cell (all neighbours are fixed offsets
  // from it). The order and the number of axes are decided once, outside the loop over
  // velocities: the first-order loop is straight-line code with 32-bit offsets (with the order
  // tested inside, each axis waited on its own loads; with 64-bit offsets step * stride, a value
  // took ~80 instructions, most of them address arithmetic).
  template <int N, class Body>
  BOLT_HOST_DEVICE auto for_cells(const int (&ip)[N][3], Body&& body) const {
    if (order == 1) return for_first_order_cells(ip, body);
    return body(SecondOrderStreamer<N>{*this, ip});
  }

  // for_cells at first order, for kernels compiled for one order (the hs_mc collision's
  // first-order kernel), which then hold no second-order code: its registers and scheduling
  // came out otherwise whenever that code, never run there, changed. The shifts are decided here
  // too: a shift table read under a condition inside the loop over velocities keeps the CPU's
  // loop from vectorizing, and splits a GPU thread's batch of velocities (fused_step.hpp) into
  // blocks whose loads are not issued together.
  template <int N, class Body>
  BOLT_HOST_DEVICE auto for_first_order_cells(const int (&ip)[N][3], Body&& body) const {
    if (!shifts) return first_order_axes<false>(ip, body);
    return first_order_axes<true>(ip, body);
  }

  // for_cells at second order, for kernels compiled for one order whose loop over velocities is
  // bound by the L1's passes (the hs_mc collision): on one and two axes the axes are fixed at
  // compile time and each cell's scales read once, before the loop (SecondOrderAxesStreamer),
  // where a velocity's two loads of scales per axis and cell had been a third of its loads.
  // Three axes keep SecondOrderStreamer: with nine scales a cell in registers the hs_mc kernel
  // spilled, and the 2-D inputs stepped 2 % slower for a 3-D step 8 % faster. The explicit fused
  // step keeps for_cells, whose registers the hoisted scales raised until its step was slower.
  template <int N, class Body>
  BOLT_HOST_DEVICE auto for_second_order_cells(const int (&ip)[N][3], Body&& body) const {
    if (axes == 2) return body(SecondOrderAxesStreamer<2, N>(*this, ip));
    if (axes == 1) return body(SecondOrderAxesStreamer<1, N>(*this, ip));
    if (axes == 0) return body(first_order<0, N>(ip));  // both orders leave the values as they are
    return body(SecondOrderStreamer<N>{*this, ip});
  }

  template <int Axes, int N, bool Shifts = true>
  struct FirstOrderStreamer;
  template <int N>
  struct SecondOrderStreamer;
  template <int Axes, int N>
  struct SecondOrderAxesStreamer;

  template <bool Shifts, int N, class Body>
  BOLT_HOST_DEVICE auto first_order_axes(const int (&ip)[N][3], Body&& body) const {
    if (axes == 3) return body(first_order<3, N, Shifts>(ip));
    if (axes == 2) return body(first_order<2, N, Shifts>(ip));
    if (axes == 1) return body(first_order<1, N, Shifts>(ip));
    return body(first_order<0, N, Shifts>(ip));
  }

  template <int Axes, int N, bool Shifts = true>
  BOLT_HOST_DEVICE FirstOrderStreamer<Axes, N, Shifts> first_order(const int (&ip)[N][3]) const {
    FirstOrderStreamer<Axes, N, Shifts> s{*this, {}};
    for (int c = 0; c < N; ++c)
BOLT_UNROLL
      for (int k = 0; k < Axes; ++k) s.cell_scale[c][k] = scale[k][ip[c][axis[k]]];
    return s;
  }
};

// First order on Axes axes: f_b - sum_k r_k (f_b - f_{upwind k}), r_k = fraction * scale of the
// cell (the same for all its velocities, cell_scale). !Shifts: no velocity moves whole cells.
template <class Real>
template <int Axes, int N, bool Shifts>
struct StreamTables<Real>::FirstOrderStreamer {
  static constexpr int kSlots = Axes > 0 ? Axes : 1;
  static constexpr bool kRuns = !Shifts;  // stream_runs
  struct Upwind {
    int shift;
    Real fraction[kSlots];  // signed (StreamTables::signed_fraction)
  };
  const StreamTables& t;
  Real cell_scale[N][kSlots];

  BOLT_HOST_DEVICE Upwind upwind(int v) const {
    Upwind u;
    u.shift = Shifts && t.shifts ? t.shift[v] : 0;
BOLT_UNROLL
    for (int k = 0; k < Axes; ++k) u.fraction[k] = t.signed_fraction[k * t.table_stride + v];
    return u;
  }

  BOLT_HOST_DEVICE Real value(const Upwind& u, int c, const Real* fv) const {
    return value_of<Real>(u, c, fv, [](const Real* at) { return *at; });
  }

  // The g and h nodes of one velocity of a paired reduced set, fv at the g node (GPU).
  BOLT_HOST_DEVICE NodePair<Real> value_pair(const Upwind& u, int c, const Real* fv) const {
    return value_of<NodePair<Real>>(u, c, fv, &NodePair<Real>::load);
  }

  // value of T, a node or a pair of nodes, which load(address) reads.
  template <class T, class Load>
  BOLT_HOST_DEVICE T value_of(const Upwind& u, int c, const Real* fv, Load load) const {
    T upwind_value[kSlots];
    const T fb = load(fv + u.shift);
BOLT_UNROLL
    for (int k = 0; k < Axes; ++k) {
#if defined(__CUDA_ARCH__)
      upwind_value[k] = load(fv + u.shift + upwind_step(u.fraction[k], t.near_stride[k]));
#else
      // The CPU loads both neighbours and selects: a loop over velocities then vectorizes with
      // contiguous loads (the rows are in cache), not a gather from per-velocity addresses.
      const T below = load(fv + u.shift - t.near_stride[k]);
      const T above = load(fv + u.shift + t.near_stride[k]);
      const Real d = u.fraction[k];
      upwind_value[k] = d > Real(0) ? below : (d < Real(0) ? above : fb);
#endif
    }
    T result = fb;
BOLT_UNROLL
    for (int k = 0; k < Axes; ++k)
      result -= fabs(u.fraction[k]) * cell_scale[c][k] * (fb - upwind_value[k]);
    return result;
  }

  // The row of the cell at fv (value's fv at v = 0) into out, run by run (StreamRuns):
  // per run the upwind rows are fixed pointers, so the loop loads the cell's value and, per
  // axis, one upwind value and the fraction, contiguous, and selects nothing. The same
  // arithmetic as value's: a zero fraction's run has step 0, its upwind value the cell's own.
  template <class Team>
  BOLT_HOST_INLINE void stream_runs(const Team& team, const StreamRuns& runs, const Real* fv,
                                    Real* BOLT_RESTRICT out) const {
    static_assert(!Shifts, "runs are made only where no velocity shifts");
    static_assert(N == 1, "runs stream one cell's row");
    for (int r = 0; r < runs.count; ++r) {
      const StreamRun run = runs.run[r];
      const Real* cell = fv + run.begin;
      const Real* upwind[kSlots];
      const Real* fraction[kSlots];
      Real scale[kSlots];
      for (int k = 0; k < Axes; ++k) {
        upwind[k] = cell + run.step[k] * t.near_stride[k];
        fraction[k] = t.signed_fraction + k * t.table_stride + run.begin;
        scale[k] = cell_scale[0][k];
      }
      Real* run_out = out + run.begin;
      team.for_each(run.end - run.begin, [&](int i) {
        const Real fb = cell[i];
        Real result = fb;
        for (int k = 0; k < Axes; ++k)
          result -= fabs(fraction[k][i]) * scale[k] * (fb - upwind[k][i]);
        run_out[i] = result;
      });
    }
  }
};

// Second order (MUSCL) in the cells at padded coordinates ip.
template <class Real>
template <int N>
struct StreamTables<Real>::SecondOrderStreamer {
  static constexpr bool kRuns = false;
  struct Upwind {
    int shift;
    Real fraction[3];  // signed (StreamTables::signed_fraction); 0 past the streaming axes
  };
  const StreamTables& t;
  const int (&ip)[N][3];

  BOLT_HOST_DEVICE Upwind upwind(int v) const {
    Upwind u;
    u.shift = t.shifts ? t.shift[v] : 0;
BOLT_UNROLL
    for (int k = 0; k < 3; ++k)
      u.fraction[k] = k < t.axes ? t.signed_fraction[k * t.table_stride + v] : Real(0);
    return u;
  }

  BOLT_HOST_DEVICE Real value(const Upwind& u, int c, const Real* fv) const {
    const Real* base = fv + u.shift;
    const Real fb = *base;
    Real result = fb;
BOLT_UNROLL
    for (int k = 0; k < 3; ++k) {
      if (k >= t.axes) continue;  // the same for every velocity: no divergence
      // s = 0 (xi = 0) has fraction 0: its terms vanish, its neighbours are the cell itself.
      const int s = upwind_step(u.fraction[k], 1), i = ip[c][t.axis[k]];
      const std::int64_t up = s * t.stride[k];
      const Real fraction_v = fabs(u.fraction[k]);
      const Real r = fraction_v * t.scale[k][i];
      const Real fu1 = base[up];
      const Real fu2 = base[2 * up];
      const Real fd1 = base[-up];
      const Real r_up = fraction_v * t.scale[k][i + s];
      const Real face_out =
          fb + Real(0.5) * (Real(1) - r) * limited_difference(t.limiter, fb - fu1, fd1 - fb);
      const Real face_in =
          fu1 + Real(0.5) * (Real(1) - r_up) * limited_difference(t.limiter, fu1 - fu2, fb - fu1);
      result -= r * (face_out - face_in);
    }
    return result;
  }

  // The g and h nodes of one velocity of a paired reduced set, fv at the g node: two values (the
  // limiter's tests are per node).
  BOLT_HOST_DEVICE NodePair<Real> value_pair(const Upwind& u, int c, const Real* fv) const {
    return {value(u, c, fv), value(u, c, fv + 1)};
  }
};

// Second order (MUSCL) on Axes axes in the cells at padded coordinates ip, each cell's scales
// (its own and its two neighbours' along each axis) read once: SecondOrderStreamer's arithmetic,
// in the same order, on the same values. The offsets are 32 bits (near_stride, checked by the
// host) and the addresses step from the cell's by them, so that twice a stride never overflows.
// The face values are written out in both streamers, a change to one to be made in the other:
// one function for them, however inlined, changes nvcc's inlining of the explicit fused step's
// per-cell body in its item loop: the conservative Shakhov step in float took a tenth to nearly
// a third longer.
template <class Real>
template <int Axes, int N>
struct StreamTables<Real>::SecondOrderAxesStreamer {
  static_assert(Axes >= 1 && Axes <= 2, "streaming axes (three: SecondOrderStreamer)");
  static constexpr bool kRuns = false;
  struct Upwind {
    int shift;
    Real fraction[Axes];  // signed (StreamTables::signed_fraction)
  };
  // [c][k] the scale below the cell along axis[k], the cell's, and above it.
  struct Scales {
    Real below, cell, above;
  };
  const StreamTables& t;
  Scales cell_scales[N][Axes];

  BOLT_HOST_DEVICE SecondOrderAxesStreamer(const StreamTables& tables, const int (&ip)[N][3])
      : t(tables) {
    for (int c = 0; c < N; ++c)
BOLT_UNROLL
      for (int k = 0; k < Axes; ++k) {
        const Real* s = t.scale[k] + ip[c][t.axis[k]];
        cell_scales[c][k] = {s[-1], s[0], s[1]};
      }
  }

  BOLT_HOST_DEVICE Upwind upwind(int v) const {
    Upwind u;
    u.shift = t.shifts ? t.shift[v] : 0;
BOLT_UNROLL
    for (int k = 0; k < Axes; ++k) u.fraction[k] = t.signed_fraction[k * t.table_stride + v];
    return u;
  }

  BOLT_HOST_DEVICE Real value(const Upwind& u, int c, const Real* fv) const {
    const Real* base = fv + u.shift;
    const Real fb = *base;
    Real result = fb;
BOLT_UNROLL
    for (int k = 0; k < Axes; ++k) {
      // Fraction 0 (xi = 0): step 0, its terms vanish, its neighbours are the cell itself.
      const Real d = u.fraction[k];
      const int up = upwind_step(d, t.near_stride[k]);
      const Real* upwind1 = base + up;
      const Real fu1 = *upwind1;
      const Real fu2 = upwind1[up];
      const Real fd1 = base[-up];
      const Real fraction_v = fabs(d);
      const Scales& s = cell_scales[c][k];
      const Real r = fraction_v * s.cell;
      const Real r_up = fraction_v * (d > Real(0) ? s.below : (d < Real(0) ? s.above : s.cell));
      const Real face_out =
          fb + Real(0.5) * (Real(1) - r) * limited_difference(t.limiter, fb - fu1, fd1 - fb);
      const Real face_in =
          fu1 + Real(0.5) * (Real(1) - r_up) * limited_difference(t.limiter, fu1 - fu2, fb - fu1);
      result -= r * (face_out - face_in);
    }
    return result;
  }
};

}  // namespace bolt
