#pragma once
// The order in which a rank's velocities are swept: grouped by the signs of their components on
// the active axes (each group sweeps the grid in one direction), each group padded to whole
// warps with idle slots of weight 0, so that the threads of a warp walk the cells together.
#include <vector>

#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"

namespace bolt {

struct SweepSlots {
  std::vector<int> velocity;    // [slot] index into the rank's velocities [lo, lo + count)
  std::vector<double> weight;   // [slot] quadrature weight, 0 for idle slots
};

SweepSlots make_sweep_slots(const PhysicalGrid& grid, const VelocityGrid& velocities, int lo,
                            int count, int warp);

}  // namespace bolt
