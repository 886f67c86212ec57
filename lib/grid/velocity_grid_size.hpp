#pragma once
// The number of velocities make_velocity_grid would build for a spec, without building them: the
// pre-run plan's count, taken before any table of the velocities exists (velocity_grid.hpp).
#include <cstdint>

#include "grid/velocity_grid.hpp"

namespace bolt {

// Nodes of the spec's grid (the box for cartesian, the nodes inside the ball for sphere); a box of
// more than 2^40 nodes is returned as the box. Refuses a spec make_velocity_grid refuses, and a
// product of -vgrid_n that overflows.
std::int64_t velocity_grid_size(const VelocityGridSpec& spec);

}  // namespace bolt
