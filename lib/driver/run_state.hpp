#pragma once
// What the hooks of one run share (loop_hooks.hpp): the fields of the current unit, computed
// once however many hooks read them; the checkpoint writer; the outputs' failure guard; the
// residual's history; the case diagnostics' history; what of both a checkpoint carries.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "case/case_setup.hpp"
#include "decomposition/partition.hpp"
#include "diagnostics/conservation.hpp"
#include "driver/case_diagnostics.hpp"
#include "driver/output_guard.hpp"
#include "io/hdf5_fields.hpp"
#include "io/monitor.hpp"
#include "solver/memory_plan.hpp"
#include "solver/solver.hpp"

namespace bolt {

struct LoopState;

// The fields of one unit: of this rank's boxes (output) and of the whole grid (diagnostics).
class FieldCache {
 public:
  FieldCache(DomainView& domain, bool box_leader, std::int64_t step);
  // Computes the fields of `step` unless they are those held.
  void update(std::int64_t step);
  const std::vector<double>& global() const { return global_; }
  // The fields this rank writes: its boxes', or none where another rank of the velocity group
  // writes them.
  std::vector<std::vector<double>> written() const;

 private:
  DomainView& domain_;
  bool box_leader_;
  std::vector<std::vector<double>> local_;
  std::vector<double> global_;
  std::int64_t step_;
};

// Writes the solver's state as a checkpoint and remembers the last unit it did.
class Checkpointer {
 public:
  Checkpointer(MPI_Comm comm, const CaseSetup& setup, Solver& solver, std::string configuration);
  // `history`: the run's, carried for the continued run (Run::saved_history).
  void write(const char* why, std::int64_t step, double time, CheckpointHistory history);
  std::int64_t last() const { return last_; }
  // The checkpoint's path, or "none written" (for error messages).
  std::string last_file() const;

 private:
  MPI_Comm comm_;
  const CaseSetup& setup_;
  Solver& solver_;
  std::string configuration_;
  StateLayout layout_;
  std::int64_t last_ = -1;
};

// The convergence measure between monitor rows, and the units left to the stopping residual.
// Residuals are measured against the last regular row (a multiple of -out_monitor_every), which a
// checkpoint carries: a continued run measures against the rows the uninterrupted one does.
class ResidualHistory {
 public:
  ResidualHistory(const Solver& solver, std::vector<double> fields, std::int64_t step)
      : solver_(solver), previous_(std::move(fields)), previous_step_(step) {}
  // The residual of `fields` at `step` against the last accepted row.
  double residual(const std::vector<double>& fields, std::int64_t step) const;
  // Units left to `last_step`; where the solver stops at a tolerance, no more than the
  // residual's rate of decrease since the previous row takes to reach it.
  double units_left(double residual, std::int64_t step, std::int64_t last_step) const;
  // The row of `step` becomes the one the next residual is measured against.
  void accept(const std::vector<double>& fields, std::int64_t step, double residual);
  // The baseline as a checkpoint's history entries, and back (throws bolt::Error naming `file`
  // when they do not fit this grid).
  void save(CheckpointHistory& history) const;
  void restore(const CheckpointHistory& history, const std::string& file);

 private:
  const Solver& solver_;
  std::vector<double> previous_;
  std::int64_t previous_step_;
  double previous_residual_ = 0.0;
};

// One run's shared state, made by run_simulation once the solver exists.
struct Run {
  // `step`: the first unit (a restart's, else 0); `initial`: the totals of the initial state.
  Run(MPI_Comm comm, const CaseSetup& setup, const Partition& partition, const MemoryPlan& plan,
      Solver& solver, const Totals& initial, std::int64_t step, bool restarted,
      std::string configuration);

  MPI_Comm comm;
  const CaseSetup& setup;
  const Partition& partition;
  const MemoryPlan& plan;
  Solver& solver;
  std::vector<OwnedBox> written_boxes;  // the boxes this rank writes fields of
  bool restarted;
  Totals initial;  // conservation is measured against the initial state, also after a restart
  OutputGuard outputs;
  Monitor monitor;
  FieldWriter writer;
  FieldCache fields;
  Checkpointer checkpoints;
  ResidualHistory residuals;
  CaseHistory history;
  MonitorRow latest_row;
  std::string fields_file;  // the last fields written by the final hook

  // The collision model's own numbers (hs_mc: correction size), largest over boxes and ranks.
  std::vector<std::pair<std::string, double>> model_diagnostics() const;
  // What a checkpoint carries besides the state: the residual's baseline and the diagnostics'
  // samples of the regular rows; and a restart's taking them back (`file`: for messages).
  CheckpointHistory saved_history() const;
  void continue_history(const CheckpointHistory& history, const std::string& file);
  // A checkpoint of this unit with the run's history.
  void write_checkpoint(const char* why, const LoopState& state);
};

}  // namespace bolt
