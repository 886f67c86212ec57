#pragma once
// The iterative solver's pre-run plan (solver/memory_plan.hpp).
#include <mpi.h>

#include <cstdint>

#include "case/case_setup.hpp"
#include "solver/iterative/iterative_options.hpp"
#include "solver/memory_plan.hpp"

namespace bolt {

// Moments, targets and face arrays of the whole grid, one slice per velocity slot of a batch,
// the host's copies of the moments (and the accelerator's history). Chooses the batch (`batch`:
// the slots swept at once) so that it fits; throws bolt::Error when not even one warp's slices
// do. Prints its line unless `output` is quiet. Collective.
MemoryPlan check_iterative_plan(MPI_Comm comm, const CaseSetup& setup,
                                const IterationOptions& options, int velocity_lo,
                                int velocity_count, int ranks_per_node, PlanOutput output,
                                std::int64_t& batch);

}  // namespace bolt
