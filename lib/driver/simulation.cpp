#include "driver/simulation.hpp"

#include <petscsys.h>

#include <cmath>
#include <filesystem>
#include <optional>

#include "case/case_setup.hpp"
#include "case/output_paths.hpp"
#include "case/run_options.hpp"
#include "core/error.hpp"
#include "core/option_reader.hpp"
#include "decomposition/partition.hpp"
#include "driver/loop_hooks.hpp"
#include "driver/output_lock.hpp"
#include "driver/parallel_setup.hpp"
#include "driver/restart.hpp"
#include "driver/run_state.hpp"
#include "driver/time_loop.hpp"
#include "driver/warm_start.hpp"
#include "solver/option_plan.hpp"
#include "solver/solver_type.hpp"

namespace bolt {

namespace {

// The run's options, or none where -help asked only for the list (PETSc printed every option
// with its default while they were read).
std::optional<RunOptions> read_options(MPI_Comm comm) {
  RunOptions options = read_run_options(comm);
  PetscBool help = PETSC_FALSE;
  PetscOptionsHasName(nullptr, nullptr, "-help", &help);
  if (help) return std::nullopt;
  reject_unused_options();
  reject_options_of_other_choices();
  return options;
}

// A partition freed (its communicators) when the run ends, however it ends.
struct OwnedPartition {
  Partition partition;
  explicit OwnedPartition(Partition owned) : partition(owned) {}
  OwnedPartition(const OwnedPartition&) = delete;  // its communicators are freed once
  OwnedPartition& operator=(const OwnedPartition&) = delete;
  ~OwnedPartition() { free_partition(partition); }
};

void create_output_directory(const RunOptions& run) {
  std::error_code error;
  std::filesystem::create_directories(run.output.directory, error);
  require(!error, "-out_dir ", run.output.directory, ": cannot create the directory (",
          error.message(), ")");
}

// What runs, where: the case, the grids, the solver and the decomposition.
void print_banner(MPI_Comm comm, const CaseSetup& setup, const Partition& partition) {
  const RunOptions& run = setup.run;
  const PhysicalGrid& grid = setup.engine.grid;
  const int nv = setup.engine.velocities.size();
  int size = 1;
  MPI_Comm_size(comm, &size);
  PetscPrintf(comm, "bolt: case %s (%s), model %s, backend %s, precision %s\n",
              run.case_name.c_str(), to_string(run.case_kind),
              std::string(run.model->name()).c_str(), std::string(to_string(run.backend)).c_str(),
              std::string(to_string(run.precision)).c_str());
  PetscPrintf(comm, "bolt: grid %d x %d x %d cells, %d velocities, %lld phase-space cells\n",
              grid.cells(0), grid.cells(1), grid.cells(2), nv,
              static_cast<long long>(grid.interior_cells() * nv));
  PetscPrintf(comm, "bolt: velocity space %s\n", velocity_space_text(setup.engine.velocities).c_str());
  PetscPrintf(comm, "bolt: %s\n", run.solver->banner(setup).c_str());
  PetscPrintf(comm,
              "bolt: %d ranks, decomposition %s (%s): %d boxes (%zu sections) on %d ranks x %d "
              "velocity batches, cell imbalance %.1f%%\n",
              size, to_string(partition.kind), partition.reason.c_str(), partition.total_parts,
              setup.geometry.boxes.size(), partition.space_ranks, partition.velocity_ranks,
              100.0 * partition.imbalance);
}

// The case set up for the options, refused where the solver cannot run it.
CaseSetup accepted_setup(const RunOptions& options) {
  CaseSetup setup = make_case_setup(options);
  const std::string refusal = setup.run.solver->refusal(setup);
  require(refusal.empty(), refusal);
  return setup;
}

// The run up to its plan: the case set up and accepted by the solver, partitioned, and planned
// (which throws where it cannot fit). A printed plan is the run's own: the output directory is
// created and the banner printed before it; a quiet one only checks the run.
struct PlannedRun {
  const CaseSetup setup;
  const OwnedPartition owned;
  std::unique_ptr<PlannedSolver> planned;

  PlannedRun(MPI_Comm comm, const RunOptions& options, const NodePlacement& placement,
             PlanOutput output)
      : setup(accepted_setup(options)),
        owned{make_partition(comm, setup.run.solver->partition_request(setup))} {
    if (output == PlanOutput::print) {
      create_output_directory(setup.run);
      print_banner(comm, setup, owned.partition);
    }
    planned = setup.run.solver->plan(comm, setup, owned.partition,
                                     make_communicator(setup.run, owned.partition, placement),
                                     placement.ranks, output);
  }
};

// The main run's plan, checked (quietly: it is printed once, after the warm start) before a warm
// start, so that a run that cannot fit is refused at once rather than after the model's solve.
// Its set-up starts from the options' initial state; the warm start's fields may change the time
// step (the collision frequencies bound it), so the run is set up and planned again after it.
void check_plan_before_warm_start(MPI_Comm comm, const RunOptions& options,
                                  const NodePlacement& placement) {
  const PlannedRun checked(comm, options, placement, PlanOutput::quiet);
}

}  // namespace

int run_simulation(MPI_Comm comm) {
  std::optional<RunOptions> options = read_options(comm);
  if (!options) return 0;
  check_output_paths(*options);
  const NodePlacement placement = bind_ranks_to_gpus(comm, *options);
  check_option_plan(comm, *options, placement.ranks);
  // The warm start (a dry run: its plan), unless a checkpoint replaces the initial state.
  if (!options->initial.steady_model.empty() && options->output.restart.empty()) {
    check_plan_before_warm_start(comm, *options, placement);
    options->initial = steady_model_initial(comm, *options, placement);
  }
  const PlannedRun planned_run(comm, *options, placement, PlanOutput::print);
  const CaseSetup& setup = planned_run.setup;
  const RunOptions& run = setup.run;
  const SolverType& solver_type = *run.solver;
  const Partition& partition = planned_run.owned.partition;
  PlannedSolver& planned = *planned_run.planned;
  if (run.dry_run) {
    PetscPrintf(comm, "bolt: dry run (-dry_run): stopping before the phase space is allocated\n");
    return 0;
  }
  // Before anything is allocated or written: a second run into this directory is refused.
  const OutputLock lock(comm, run.output.directory);
  const std::unique_ptr<Solver> solver = planned.make();
  const Totals initial =
      totals(setup.engine.grid, solver->domain().gather_fields(solver->domain().local_fields()));
  const std::string configuration = state_configuration(solver->time_step());
  LoopState state;
  state.dt = solver->time_step();
  state.last_step = solver_type.last_unit(run);
  CheckpointInfo restarted;  // a restart's header: the run's history
  std::string restarted_file;
  if (!run.output.restart.empty()) {
    const RestartPoint point = restart_solver(comm, run, configuration, *solver);
    restarted = point.info;
    restarted_file = point.file;
    state.step = point.info.step;
    state.start_time = point.info.time - double(point.info.step) * state.dt;
  }
  if (run.final_time > 0.0 && state.dt > 0.0) {
    // In double first: a final time far beyond the step limit (run until steady) would overflow
    // the step count.
    const double to_final = std::ceil((run.final_time - state.start_time) / state.dt - 1e-9);
    if (to_final < double(state.last_step)) state.last_step = static_cast<std::int64_t>(to_final);
  }

  Run shared(comm, setup, partition, planned.plan(), *solver, initial, state.step,
             !run.output.restart.empty(), configuration);
  if (!run.output.restart.empty()) shared.continue_history(restarted.history, restarted_file);
  catch_stop_signals();
  TimeLoop loop(comm, *solver, state);
  add_run_hooks(loop, shared);
  return loop.run();
}

}  // namespace bolt
