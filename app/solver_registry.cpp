#include "solver_registry.hpp"

#include "explicit_march.hpp"
#include "iterative_steady.hpp"
#include <cstdio>

#include "parallel_setup.hpp"
#include "core/error.hpp"

namespace bolt {

void check_solver_supports(const CaseSetup& setup) {
  if (setup.run.solver != SolverKind::iterative) return;
  const std::string refusal = iterative_refusal(setup.run, setup);
  require(refusal.empty(), refusal, " (-solver iterative)");
}

std::string solver_banner(const CaseSetup& setup) {
  const RunOptions& run = setup.run;
  char line[256];
  if (run.solver == SolverKind::iterative) {
    const Accelerator accel = run.iteration.accelerator;
    std::snprintf(line, sizeof line,
                  "solver iterative (source iteration%s%s), tolerance %g, at most %d iterations, "
                  "delta %g",
                  run.iteration.synthetic ? " + synthetic correction" : "",
                  accel == Accelerator::none       ? ""
                  : accel == Accelerator::anderson ? " + SNES Anderson"
                                                   : " + SNES NGMRES",
                  run.iteration.tolerance, run.iteration.max_iterations, run.gas.delta);
  } else {
    std::snprintf(line, sizeof line, "dt %.6g, max Courant %.4g, ghost layers %d, delta %g",
                  setup.time_step.dt, setup.time_step.courant, setup.engine.grid.ghost,
                  run.gas.delta);
  }
  return line;
}

PartitionRequest solver_partition_request(const CaseSetup& setup) {
  PartitionRequest request = partition_request(setup);
  if (setup.run.solver == SolverKind::iterative) request.kind = DecompositionKind::velocity;
  return request;
}

std::vector<EngineConfig> solver_engine_configs(const CaseSetup& setup, const Partition& partition,
                                                std::shared_ptr<Communicator> communicator) {
  if (setup.run.solver == SolverKind::iterative) return {};
  return local_engine_configs(setup, partition, std::move(communicator));
}

std::int64_t solver_last_unit(const RunOptions& run) {
  return run.solver == SolverKind::iterative ? run.iteration.max_iterations : run.max_steps;
}

std::string solver_configuration(const RunOptions& run) {
  return run.solver == SolverKind::iterative ? "solver=iterative\n" : "";
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
