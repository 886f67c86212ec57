#pragma once
// The solver seam's registry entry (DESIGN.md, "The two seams"; as PETSc's TSRegister): what a
// solver brings before it exists -- its options, what it refuses, the partition it needs, its
// pre-run memory plan -- and its factory. The driver asks a SolverType and never switches on a
// solver's name; solver_registry.cpp lists them.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "case/case_setup.hpp"
#include "decomposition/partition.hpp"
#include "parallel/communicator.hpp"
#include "solver/memory_plan.hpp"
#include "solver/option_plan.hpp"
#include "solver/solver.hpp"

namespace bolt {

// A solver planned for this rank: the plan that was checked against the free memory, and the
// factory of the solver it was made for.
class PlannedSolver {
 public:
  virtual ~PlannedSolver() = default;
  virtual const MemoryPlan& plan() const = 0;
  // The solver at the run's initial state. Collective.
  virtual std::unique_ptr<Solver> make() = 0;
};

class SolverType {
 public:
  virtual ~SolverType() = default;
  virtual std::string_view name() const = 0;
  // Why it cannot run this case (empty: it can), naming the option.
  virtual std::string refusal(const CaseSetup& setup) const = 0;
  // The run's line about the solver (time step and Courant number, or tolerance and accelerator).
  virtual std::string banner(const CaseSetup& setup) const = 0;
  virtual PartitionRequest partition_request(const CaseSetup& setup) const = 0;
  // The last step or iteration the options allow.
  virtual std::int64_t last_unit(const RunOptions& run) const = 0;
  // The least bytes per rank it holds of the phase space on `ranks` ranks, whatever the
  // decomposition (the plan from the options, option_plan.hpp).
  virtual double least_bytes(const RunOptions& run, const PhaseSpaceSize& size,
                             int ranks) const = 0;
  // This rank's plan, printed (unless `output` is quiet) and checked against the free memory of
  // every rank (throws bolt::Error with what would fit when it does not). Collective.
  virtual std::unique_ptr<PlannedSolver> plan(MPI_Comm comm, const CaseSetup& setup,
                                              const Partition& partition,
                                              std::shared_ptr<Communicator> communicator,
                                              int ranks_per_node, PlanOutput output) const = 0;
};

// The partition the case asks for (-decomp, the grid, the model's needs): where a solver starts
// its request from.
PartitionRequest case_partition_request(const CaseSetup& setup);

}  // namespace bolt
