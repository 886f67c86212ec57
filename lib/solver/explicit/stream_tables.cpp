#include "solver/explicit/stream_tables.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace bolt {

HostStreamTables make_stream_tables(const PhysicalGrid& grid, const VelocityGrid& velocities,
                                    double dt) {
  const int nv = velocities.size();
  HostStreamTables t;
  t.shift.assign(nv, 0);
  t.step.assign(3 * nv, 0);
  t.fraction.assign(3 * nv, 0.0);
  const auto stride = grid.strides();
  for (int d = 0; d < 3; ++d) {
    const Axis& axis = grid.axes[d];
    t.scale[d].assign(grid.padded(d), 1.0);
    if (!grid.active[d]) continue;
    if (!axis.uniform)
      for (int ip = 0; ip < grid.padded(d); ++ip) t.scale[d][ip] = 1.0 / grid.padded_widths[d][ip];
    for (int v = 0; v < nv; ++v) {
      const double xi = velocities.xi[d][v];
      if (xi == 0.0) continue;
      const int sign = xi > 0 ? 1 : -1;
      t.step[d * nv + v] = static_cast<signed char>(-sign);
      if (axis.uniform) {
        const double courant = std::abs(xi) * dt / axis.widths[0];
        const int whole = static_cast<int>(std::floor(courant));
        t.fraction[d * nv + v] = courant - whole;
        const std::int64_t offset = t.shift[v] - std::int64_t(sign) * whole * stride[d];
        require(std::abs(offset) < (std::int64_t(1) << 31), "time step: whole-cell shift of ",
                whole, " cells does not fit the grid numbering; lower -ts_max_courant");
        t.shift[v] = static_cast<int>(offset);
        t.max_shift = std::max(t.max_shift, whole);
      } else {
        t.fraction[d * nv + v] = std::abs(xi) * dt;
      }
    }
  }
  return t;
}

double max_courant(const PhysicalGrid& grid, const VelocityGrid& velocities, double dt) {
  // The narrowest cell of each axis once: a search of the axis per velocity would cost cells x
  // velocities, the size of f, before the memory plan has looked at it.
  double narrowest[3] = {1.0, 1.0, 1.0};
  for (int d = 0; d < 3; ++d)
    if (grid.active[d]) narrowest[d] = grid.axes[d].min_width();
  double worst = 0.0;
  for (int v = 0; v < velocities.size(); ++v) {
    double sum = 0.0;
    for (int d = 0; d < 3; ++d)
      if (grid.active[d]) sum += std::abs(velocities.xi[d][v]) * dt / narrowest[d];
    worst = std::max(worst, sum);
  }
  return worst;
}

}  // namespace bolt
