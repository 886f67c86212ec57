#pragma once
// Which velocity axes a run integrates out (the Chu reduction, docs/physics.md): -vgrid_reduce
// auto picks every axis the case allows, an explicit choice is checked against the case, none
// keeps the full 3-D space.
#include <array>
#include <string>
#include <vector>

#include "case/run_options.hpp"

namespace bolt {

// The -vgrid_reduce choices: auto, none and the reductions by the axes they integrate out.
std::vector<std::string> velocity_reduction_choices();

// Why velocity axis a cannot be reduced in this run (the flow varies along it, something moves
// or pushes the gas along it), or empty.
std::string axis_reduction_refusal(const RunOptions& run, int axis);

// Sets run.velocity_grid.reduced from `choice` (a velocity_reduction_choices() name); refuses an
// explicit reduction the run does not allow, with the reason.
void resolve_velocity_reduction(RunOptions& run, const std::string& choice);

}  // namespace bolt
