#include "time_step.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "stream_tables.hpp"

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
  if (step.courant > 1.0) {
    bool uniform = true;
    for (int a = 0; a < 3; ++a) uniform = uniform && (!grid.active[a] || grid.axes[a].uniform);
    require(grid.dim == 1 && uniform, "time step: Courant number ", step.courant,
            " > 1 needs a 1-D uniform grid (whole-cell shifts); lower -ts_max_courant or -ts_dt");
    for (int a = 0; a < 3; ++a)
      if (grid.active[a])
        step.ghost = order + static_cast<int>(std::floor(velocities.max_speed(a) * dt /
                                                         grid.axes[a].widths[0]));
  }
  return step;
}

}  // namespace bolt
