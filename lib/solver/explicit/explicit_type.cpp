#include "solver/explicit/explicit_type.hpp"

#include <cstdio>

#include "solver/explicit/explicit_march.hpp"
#include "solver/explicit/explicit_plan.hpp"
#include "solver/explicit/local_engines.hpp"

namespace bolt {

namespace {

class PlannedMarch : public PlannedSolver {
 public:
  PlannedMarch(MemoryPlan plan, const CaseSetup& setup, const Partition& partition,
               std::vector<EngineConfig> locals, std::shared_ptr<Communicator> communicator)
      : plan_(plan),
        setup_(setup),
        partition_(partition),
        locals_(std::move(locals)),
        communicator_(std::move(communicator)) {}
  const MemoryPlan& plan() const override { return plan_; }
  std::unique_ptr<Solver> make() override {
    return std::make_unique<ExplicitMarch>(setup_, partition_, locals_, communicator_);
  }

 private:
  MemoryPlan plan_;
  const CaseSetup& setup_;
  const Partition& partition_;
  std::vector<EngineConfig> locals_;
  std::shared_ptr<Communicator> communicator_;
};

class ExplicitType : public SolverType {
 public:
  std::string_view name() const override { return "explicit"; }
  std::string refusal(const CaseSetup&) const override { return {}; }
  std::string banner(const CaseSetup& setup) const override {
    char line[256];
    std::snprintf(line, sizeof line, "dt %.6g, max Courant %.4g, ghost layers %d, delta %g",
                  setup.time_step.dt, setup.time_step.courant, setup.engine.grid.ghost,
                  setup.run.gas.delta);
    return line;
  }
  PartitionRequest partition_request(const CaseSetup& setup) const override {
    return case_partition_request(setup);
  }
  std::int64_t last_unit(const RunOptions& run) const override { return run.max_steps; }
  // The two copies of f, shared by the ranks.
  double least_bytes(const RunOptions& run, const PhaseSpaceSize& size,
                     int ranks) const override {
    const double real = run.precision == Precision::single ? 4.0 : 8.0;
    return 2.0 * double(size.phase_space) * real / ranks;
  }
  std::unique_ptr<PlannedSolver> plan(MPI_Comm comm, const CaseSetup& setup,
                                      const Partition& partition,
                                      std::shared_ptr<Communicator> communicator,
                                      int ranks_per_node, PlanOutput output) const override {
    std::vector<EngineConfig> locals = local_engine_configs(setup, partition, communicator);
    const MemoryPlan plan = check_plan(comm, setup, locals, ranks_per_node, output);
    return std::make_unique<PlannedMarch>(plan, setup, partition, std::move(locals),
                                          std::move(communicator));
  }
};

}  // namespace

std::shared_ptr<const SolverType> read_explicit_solver(MPI_Comm) {
  return std::make_shared<ExplicitType>();
}

}  // namespace bolt
