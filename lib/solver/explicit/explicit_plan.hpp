#pragma once
// The explicit march's pre-run plan (solver/memory_plan.hpp): the engines of this rank's boxes
// and velocity batch, their two copies of f, halos, sums and the model's own arrays.
#include <mpi.h>

#include <vector>

#include "case/case_setup.hpp"
#include "solver/explicit/engine.hpp"
#include "solver/memory_plan.hpp"

namespace bolt {

// This rank's plan for the engines `locals` (its boxes and velocities).
MemoryPlan plan_memory(const CaseSetup& setup, const std::vector<EngineConfig>& locals);

// Prints the plan (rank 0: the largest rank's numbers and the totals, and the expected time per
// step on a GPU; none where `output` is quiet) and checks it against the free memory of each
// rank's device and node; throws bolt::Error with what would fit when it does not. Returns this
// rank's plan. Collective.
MemoryPlan check_plan(MPI_Comm comm, const CaseSetup& setup,
                      const std::vector<EngineConfig>& locals, int ranks_per_node,
                      PlanOutput output);

}  // namespace bolt
