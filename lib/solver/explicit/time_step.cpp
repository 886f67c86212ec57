#include "solver/explicit/time_step.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "solver/explicit/stream_tables.hpp"

namespace bolt {

TimeStep choose_time_step(const PhysicalGrid& grid, const VelocityGrid& velocities,
                          const TimeStepLimits& limits, int order) {
  const double courant_per_dt = max_courant(grid, velocities, 1.0);
  double dt = limits.fixed_dt;
  if (dt <= 0.0) {
    dt = courant_per_dt > 0.0 ? limits.max_courant / courant_per_dt : 1e300;
    if (limits.collision_fraction > 0.0 && limits.max_collision_frequency > 0.0)
      dt = std::min(dt, limits.collision_fraction / limits.max_collision_frequency);
    require(dt < 1e300, "time step: no Courant or collision limit applies; set -ts_dt");
  }
  TimeStep step{dt, courant_per_dt * dt, order};
  // Whole-cell shifts, computed as make_stream_tables does (a Courant number of exactly 1 is
  // one whole cell).
  int max_shift = 0;
  bool uniform = true;
  for (int a = 0; a < 3; ++a) {
    if (!grid.active[a]) continue;
    uniform = uniform && grid.axes[a].uniform;
    if (grid.axes[a].uniform)
      max_shift = std::max(max_shift, static_cast<int>(std::floor(velocities.max_speed(a) * dt /
                                                                  grid.axes[a].widths[0])));
  }
  if (step.courant > 1.0 || max_shift > 0)
    require(grid.dim == 1 && uniform, "time step: Courant number ", step.courant,
            " >= 1 needs a 1-D uniform grid (whole-cell shifts); lower -ts_max_courant or -ts_dt");
  step.ghost = order + max_shift;
  return step;
}

}  // namespace bolt
