#pragma once
// The time step: the smaller of the Courant limit and a fraction of the shortest mean collision
// time (paper 002). Courant numbers above one are allowed on 1-D uniform grids, where streaming
// shifts whole cells first; in 2-D/3-D the unsplit upwind scheme needs sum_d C_d <= 1.
#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"

namespace bolt {

struct TimeStepLimits {
  double max_courant = 0.5;
  double collision_fraction = 1.0;  // 0: no collision limit
  double max_collision_frequency = 0.0;
  double fixed_dt = 0.0;            // > 0 overrides the limits (still checked)
};

struct TimeStep {
  double dt;
  double courant;  // largest sum_d |xi_d| dt / dx_d
  int ghost;       // ghost layers the streaming needs: order + whole-cell shift
};

TimeStep choose_time_step(const PhysicalGrid& grid, const VelocityGrid& velocities,
                          const TimeStepLimits& limits, int order);

}  // namespace bolt
