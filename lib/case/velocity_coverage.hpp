#pragma once
// Whether the velocity grid can represent the gas a run starts from or lets in: the Maxwellian
// of the initial state(s), of every wall (its temperature and velocity) and inflow, and of the
// solid boxes. A box too small or off-centre misses part of their mass and energy, a grid too
// coarse adds some, and the run would go on with the wrong discrete sums without a word.
#include "case/run_options.hpp"

namespace bolt {

// Throws bolt::Error naming the option to change (-vgrid_half_width when mass is missing,
// -vgrid_n when the quadrature over- or undershoots) with the share of mass and energy the grid
// holds, when either is off by more than run.velocity_tolerance for any of those states.
void check_velocity_coverage(const RunOptions& run, const VelocityGrid& velocities);

// The largest |(energy / mass) - 1| of those Maxwellians summed on the grid: what a relaxation
// whose target keeps only the mass adds to the gas's energy per relaxation (StepAccuracy).
double equilibrium_energy_error(const RunOptions& run, const VelocityGrid& velocities);

}  // namespace bolt
