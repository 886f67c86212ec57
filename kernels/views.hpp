#pragma once
// Non-owning views (pointers + sizes, copied by value into kernels) of the arrays the kernels read.
#include <cstdint>

#include "core/host_device.hpp"

namespace bolt {

// The discrete velocity set: nodes and quadrature weights.
template <class Real>
struct Velocities {
  const Real* x;
  const Real* y;
  const Real* z;
  const Real* w;
  int n;

  BOLT_HOST_DEVICE Real xi(int axis, int v) const { return axis == 0 ? x[v] : (axis == 1 ? y[v] : z[v]); }
};

// Maps the interior cell numbering (x fastest) onto the padded (ghost-layered) numbering.
struct CellIndexer {
  int n[3];                 // cells per axis (of the box, or of a region of it)
  int offset[3];            // padded coordinate of the first cell: ghost layers (0 on inactive
                            // axes), plus the region's corner
  std::int64_t stride[3];   // padded strides

  struct Coord {
    int i[3];
  };

  BOLT_HOST_DEVICE Coord coord(std::int64_t item) const {
    Coord c;
    if (item <= 0x7fffffff) {  // 32-bit division: a 64-bit one is a long subroutine on the GPU
      const int rest = int(item) / n[0];
      c.i[0] = int(item) - rest * n[0];
      c.i[1] = rest % n[1];
      c.i[2] = rest / n[1];
      return c;
    }
    c.i[0] = static_cast<int>(item % n[0]);
    const std::int64_t rest = item / n[0];
    c.i[1] = static_cast<int>(rest % n[1]);
    c.i[2] = static_cast<int>(rest / n[1]);
    return c;
  }
  BOLT_HOST_DEVICE std::int64_t padded(const Coord& c) const {
    return (c.i[0] + offset[0]) * stride[0] + (c.i[1] + offset[1]) * stride[1] +
           (c.i[2] + offset[2]) * stride[2];
  }
};

}  // namespace bolt
