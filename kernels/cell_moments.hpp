#pragma once
// Macroscopic fields of every interior cell: n, u (3), T, P (6, central second moment), q (3),
// kFieldCount doubles per cell for output and diagnostics. The kernel writes the raw moments
// (summed over velocity ranks when the velocities are split); fields_from_raw makes the fields.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "macroscopic.hpp"
#include "views.hpp"

namespace bolt {

constexpr int kFieldCount = 14;  // n, ux, uy, uz, T, Pxx, Pyy, Pzz, Pxy, Pxz, Pyz, qx, qy, qz

template <class Real>
struct CellRawMoments {
  const Real* f;
  double* raw;  // [interior cell][kRawMoments]
  Velocities<Real> vel;
  CellIndexer cells;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const std::int64_t p = cells.padded(cells.coord(item));
    const Real* row = f + p * vel.row;
    const auto s = team.template reduce<kRawMoments>(
        vel.n, [&](int v, Sums<kRawMoments>& acc) { accumulate_raw<3>(acc, vel, v, row[v]); });
    if (team.leader())
      for (int k = 0; k < kRawMoments; ++k) raw[item * kRawMoments + k] = s[k];
  }
};

// The fields of one cell from its raw moments.
inline void fields_from_raw(const double* raw, double* out) {
  Sums<kRawMoments> s;
  for (int k = 0; k < kRawMoments; ++k) s[k] = raw[k];
  const Macroscopic m = macroscopic_from_raw<3>(s);
  out[0] = m.n;
  for (int i = 0; i < 3; ++i) out[1 + i] = m.u[i];
  out[4] = m.T;
  for (int k = 0; k < 6; ++k) out[5 + k] = m.P[k];
  for (int i = 0; i < 3; ++i) out[11 + i] = m.q[i];
}

}  // namespace bolt
