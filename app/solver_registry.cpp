#include "solver_registry.hpp"

#include "explicit_march.hpp"
#include "iterative_steady.hpp"
#include "core/error.hpp"

namespace bolt {

void check_solver_supports(const CaseSetup& setup) {
  if (setup.run.solver != SolverKind::iterative) return;
  const std::string refusal = iterative_refusal(setup.run, setup);
  require(refusal.empty(), refusal, " (-solver iterative)");
}

PlannedSolver plan_solver(MPI_Comm comm, const CaseSetup& setup, const Partition& partition,
                          const std::vector<EngineConfig>& locals, int ranks_per_node) {
  PlannedSolver planned;
  if (setup.run.solver == SolverKind::iterative)
    planned.plan = check_iterative_plan(comm, setup, partition.velocity_lo,
                                        partition.velocity_count, ranks_per_node, planned.batch);
  else
    planned.plan = check_plan(comm, setup, locals, ranks_per_node);
  return planned;
}

std::unique_ptr<Solver> make_solver(const CaseSetup& setup, const Partition& partition,
                                    const std::vector<EngineConfig>& locals,
                                    std::shared_ptr<Communicator> communicator,
                                    const PlannedSolver& planned) {
  if (setup.run.solver == SolverKind::iterative)
    return std::make_unique<IterativeSteady>(setup, partition, std::move(communicator),
                                             planned.batch);
  return std::make_unique<ExplicitMarch>(setup, partition, locals, std::move(communicator));
}

}  // namespace bolt
