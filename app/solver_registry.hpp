#pragma once
// The solvers by name (-solver): each with what it refuses, its pre-run plan and its factory, in
// one table (DESIGN.md, "The two seams"). Adding a solver is its files plus one entry.
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "preflight.hpp"
#include "solver.hpp"
#include "decomposition/partition.hpp"

namespace bolt {

// Throws bolt::Error naming the option when the chosen solver cannot run this case.
void check_solver_supports(const CaseSetup& setup);

// The plan of this rank (printed, checked against the free memory; collective), and the
// solver it was made for.
struct PlannedSolver {
  MemoryPlan plan;
  std::int64_t batch = 0;  // iterative: velocity slots swept at once
};
PlannedSolver plan_solver(MPI_Comm comm, const CaseSetup& setup, const Partition& partition,
                          const std::vector<EngineConfig>& locals, int ranks_per_node);

// The solver of -solver, at the run's initial state. Collective.
std::unique_ptr<Solver> make_solver(const CaseSetup& setup, const Partition& partition,
                                    const std::vector<EngineConfig>& locals,
                                    std::shared_ptr<Communicator> communicator,
                                    const PlannedSolver& planned);

}  // namespace bolt
