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
#include "io/case_setup.hpp"

namespace bolt {

// Throws bolt::Error naming the option when the chosen solver cannot run this case.
void check_solver_supports(const CaseSetup& setup);

// The run's line about its solver (time step and Courant number, or tolerance and accelerator).
std::string solver_banner(const CaseSetup& setup);

// The partition the solver needs: the iterative solver's sweeps cross the whole grid, so its
// ranks split the velocities.
PartitionRequest solver_partition_request(const CaseSetup& setup);

// The engines of this rank's boxes (the explicit march; none for the iterative solver).
std::vector<EngineConfig> solver_engine_configs(const CaseSetup& setup, const Partition& partition,
                                                std::shared_ptr<Communicator> communicator);

// The last step or iteration the options allow (-ts_max_steps, -iter_max).
std::int64_t solver_last_unit(const RunOptions& run);

// "key=value" lines a checkpoint's configuration adds for the solver: the iterative solver's
// state is moments, not f (explicit checkpoints, older ones included, have none).
std::string solver_configuration(const RunOptions& run);

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
