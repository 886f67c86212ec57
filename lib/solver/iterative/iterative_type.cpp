#include "solver/iterative/iterative_type.hpp"

#include <cstdio>

#include "core/option_reader.hpp"
#include "solver/iterative/iterative_plan.hpp"
#include "solver/iterative/iterative_steady.hpp"

namespace bolt {

namespace {

class PlannedIteration : public PlannedSolver {
 public:
  PlannedIteration(MemoryPlan plan, const CaseSetup& setup, const IterationOptions& options,
                   const Partition& partition, std::shared_ptr<Communicator> communicator,
                   std::int64_t batch)
      : plan_(plan),
        setup_(setup),
        options_(options),
        partition_(partition),
        communicator_(std::move(communicator)),
        batch_(batch) {}
  const MemoryPlan& plan() const override { return plan_; }
  std::unique_ptr<Solver> make() override {
    return std::make_unique<IterativeSteady>(setup_, options_, partition_, communicator_, batch_);
  }

 private:
  MemoryPlan plan_;
  const CaseSetup& setup_;
  const IterationOptions& options_;
  const Partition& partition_;
  std::shared_ptr<Communicator> communicator_;
  std::int64_t batch_;
};

class IterativeType : public SolverType {
 public:
  explicit IterativeType(const IterationOptions& options) : options_(options) {}
  std::string_view name() const override { return "iterative"; }
  std::string refusal(const CaseSetup& setup) const override {
    const std::string refusal = iterative_refusal(setup.run, setup);
    return refusal.empty() ? refusal : refusal + " (-solver iterative)";
  }
  std::string banner(const CaseSetup& setup) const override {
    const Accelerator accel = options_.accelerator;
    char line[256];
    std::snprintf(line, sizeof line,
                  "solver iterative (source iteration%s%s), tolerance %g, at most %d iterations, "
                  "delta %g",
                  options_.synthetic ? " + synthetic correction" : "",
                  accel == Accelerator::none       ? ""
                  : accel == Accelerator::anderson ? " + SNES Anderson"
                                                   : " + SNES NGMRES",
                  options_.tolerance, options_.max_iterations, setup.run.gas.delta);
    return line;
  }
  // The sweeps cross the whole grid, so the ranks split the velocities.
  PartitionRequest partition_request(const CaseSetup& setup) const override {
    PartitionRequest request = case_partition_request(setup);
    request.kind = DecompositionKind::velocity;
    return request;
  }
  std::int64_t last_unit(const RunOptions&) const override { return options_.max_iterations; }
  // Its state is moments: the phase space is swept in batches of velocities sized to the free
  // memory (iterative_plan.cpp), so none of it has to fit at once.
  double least_bytes(const RunOptions&, const PhaseSpaceSize&, int) const override { return 0.0; }
  std::unique_ptr<PlannedSolver> plan(MPI_Comm comm, const CaseSetup& setup,
                                      const Partition& partition,
                                      std::shared_ptr<Communicator> communicator,
                                      int ranks_per_node, PlanOutput output) const override {
    std::int64_t batch = 0;
    const MemoryPlan plan =
        check_iterative_plan(comm, setup, options_, partition.velocity_lo,
                             partition.velocity_count, ranks_per_node, output, batch);
    return std::make_unique<PlannedIteration>(plan, setup, options_, partition,
                                              std::move(communicator), batch);
  }

 private:
  IterationOptions options_;
};

}  // namespace

std::shared_ptr<const SolverType> read_iterative_solver(MPI_Comm comm) {
  IterationOptions it;
  OptionReader o(comm, "Iterative solver (-iter_)");
  it.tolerance = o.positive_real(
      "iter_tol",
      "iterative: stop when the relative change of density, momentum and energy per "
      "iteration falls below this",
      1e-6);
  it.max_iterations = o.integer("iter_max", "iterative: most iterations", 10000, 1, 100000000);
  const std::string accel =
      o.choice("iter_accel",
               "iterative: plain source iteration, or PETSc SNES Anderson / NGMRES on the moments",
               "none", {"none", "anderson", "ngmres"});
  it.accelerator = accel == "anderson" ? Accelerator::anderson
                   : accel == "ngmres" ? Accelerator::ngmres
                                       : Accelerator::none;
  it.history =
      o.integer("iter_accel_history", "iterative: iterates the accelerator combines", 10, 1, 100);
  it.synthetic = o.flag("iter_synthetic",
                        "iterative: after each sweep, correct the conserved moments by macroscopic "
                        "equations with the sweep's kinetic remainder (GSIS)",
                        false);
  it.batch =
      o.integer("iter_batch", "iterative: velocities swept at once per rank (0: as memory allows)",
                0, 0, 2000000000);
  it.lines = o.integer("iter_lines",
                       "iterative, GPU: lines of cells swept at once per warp of velocities (0: "
                       "4 for whole waves of blocks, the most that fit for the rest)",
                       0, 0, 16);
  return std::make_shared<IterativeType>(it);
}

}  // namespace bolt
