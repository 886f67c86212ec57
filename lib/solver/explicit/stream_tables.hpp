#pragma once
// Host-side construction of the per-velocity streaming tables (kernels/streaming.hpp) for a time
// step: whole-cell shifts and residual Courant numbers on uniform axes, |xi| dt and 1/dx on
// stretched ones.
#include <array>
#include <cstdint>
#include <vector>

#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"

namespace bolt {

struct HostStreamTables {
  std::vector<int> shift;  // 32 bits: fewer bytes per update; checked against the grid size
  std::vector<signed char> step;                 // [axis * nv + v]
  std::vector<double> fraction;                  // [axis * nv + v]
  std::array<std::vector<double>, 3> scale;      // [axis][padded coordinate]
  int max_shift = 0;
};

HostStreamTables make_stream_tables(const PhysicalGrid& grid, const VelocityGrid& velocities,
                                    double dt);

// Largest Courant number sum_d |xi_d| dt / dx_d over velocities and cells.
double max_courant(const PhysicalGrid& grid, const VelocityGrid& velocities, double dt);

}  // namespace bolt
