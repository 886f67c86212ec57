#pragma once
// Halo copies of the space decomposition: the `ghost` interior layers next to a face, over the
// whole padded face, go to a contiguous buffer (pack); a neighbour's buffer goes into the ghost
// layers of the facing face (unpack). Interior layer k of one side lands in ghost layer k of the
// other (k = 0 touches the face on both), and both ranks walk the face in the same transverse
// order, because neighbours along an axis share the other two extents.
#include <cstdint>

#include "boundary_fill.hpp"
#include "core/host_device.hpp"

namespace bolt {

template <class Real>
struct HaloCopy {
  Real* f;
  Real* buffer;  // [transverse][layer][v]
  FaceGeometry face;
  int nv;
  int row;  // elements between cells' rows of f (Velocities::row)
  bool unpack;

  // Item = transverse position * ghost + layer.
  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const std::int64_t t = item / face.ghost;
    const int k = static_cast<int>(item % face.ghost);
    Real* slab = buffer + item * nv;
    if (unpack) {
      Real* ghost = f + face.cell(t, face.ghost_layer(k)) * row;
      team.for_each(nv, [&](int v) { ghost[v] = slab[v]; });
    } else {
      const Real* interior = f + face.cell(t, face.interior_layer(k)) * row;
      team.for_each(nv, [&](int v) { slab[v] = interior[v]; });
    }
  }
};

}  // namespace bolt
