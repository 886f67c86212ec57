#pragma once
// Non-owning views (pointers + sizes, copied by value into kernels) of the arrays the kernels read.
#include <cstdint>

#include "core/host_device.hpp"

namespace bolt {

// Elements from one cell's row of f to the next: the velocity count rounded up to whole
// 128-byte lines, so that every row starts on a line. A warp's load of 32 consecutive velocities
// then touches one line, not two (the 18^3 grid in float had 3 rows in 4 off a line); on the GPU
// each line is a pass of the L1's pipeline, which the hs_mc collision is bound by.
template <class Real>
constexpr int row_stride(int nv) {
  constexpr int kLine = 128 / int(sizeof(Real));
  return (nv + kLine - 1) / kLine * kLine;
}

// The discrete velocity set: nodes and quadrature weights, and the layout of f's rows.
template <class Real>
struct Velocities {
  const Real* x;
  const Real* y;
  const Real* z;
  const Real* w;
  int n;
  int row;  // elements from one cell's row of f to the next (row_stride; n where rows are packed)
  // The Chu reduction (lib/grid/velocity_grid.hpp): the h nodes' weights in the reduced axes'
  // sum of xi_r^2 (0 at g nodes, whose w holds their weight, as w is 0 at h nodes); null on a
  // full set. `reduced`: bit a set when velocity axis a is reduced. A reduced set lists each
  // velocity as its g node 2k and then its h node 2k + 1 (a velocity rank's share may start at
  // either).
  const Real* h = nullptr;
  unsigned reduced = 0;

  BOLT_HOST_DEVICE bool is_h(int v) const { return h != nullptr && h[v] != Real(0); }
  BOLT_HOST_DEVICE int reduced_count() const {
    return int(reduced & 1u) + int((reduced >> 1) & 1u) + int((reduced >> 2) & 1u);
  }

  BOLT_HOST_DEVICE Real xi(int axis, int v) const { return axis == 0 ? x[v] : (axis == 1 ? y[v] : z[v]); }
  // The table of one component, for loops over the velocities along a fixed axis (picked once,
  // not per velocity).
  BOLT_HOST_DEVICE const Real* component(int axis) const {
    return axis == 0 ? x : (axis == 1 ? y : z);
  }
};

// Maps the interior cell numbering (x fastest) onto the padded (ghost-layered) numbering.
struct CellIndexer {
  static constexpr std::int64_t kMaxIndexedCells = 0x7fffffff;  // interior cells, at most

  int n[3];                 // cells per axis (of the box, or of a region of it)
  int offset[3];            // padded coordinate of the first cell: ghost layers (0 on inactive
                            // axes), plus the region's corner
  std::int64_t stride[3];   // padded strides

  struct Coord {
    int i[3];
  };

  BOLT_HOST_DEVICE std::int64_t count() const { return std::int64_t(n[0]) * n[1] * n[2]; }

  // Cell `item` (at most kMaxIndexedCells) by 32-bit division: a 64-bit one is a long subroutine on
  // the GPU, and even a branch to it for larger boxes costs the step's kernels registers, and so
  // resident blocks. The engine refuses larger boxes.
  BOLT_HOST_DEVICE Coord coord(std::int64_t item) const {
    Coord c;
    const int cell = int(item), rest = cell / n[0];
    c.i[0] = cell - rest * n[0];
    c.i[1] = rest % n[1];
    c.i[2] = rest / n[1];
    return c;
  }
  BOLT_HOST_DEVICE std::int64_t padded(const Coord& c) const {
    return (c.i[0] + offset[0]) * stride[0] + (c.i[1] + offset[1]) * stride[1] +
           (c.i[2] + offset[2]) * stride[2];
  }
};

}  // namespace bolt
