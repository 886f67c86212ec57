#include "driver/run_state.hpp"

#include <petscsys.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/phase_events.hpp"
#include "core/run_context.hpp"
#include "diagnostics/field_access.hpp"
#include "driver/time_loop.hpp"
#include "io/checkpoint.hpp"

namespace bolt {

namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

}  // namespace

FieldCache::FieldCache(DomainView& domain, bool box_leader, std::int64_t step)
    : domain_(domain),
      box_leader_(box_leader),
      local_(domain.local_fields()),
      global_(domain.gather_fields(local_)),
      step_(step) {}

void FieldCache::update(std::int64_t step) {
  if (step_ == step) return;
  const Phase phase("BoltFieldMoments");
  local_ = domain_.local_fields();
  global_ = domain_.gather_fields(local_);
  step_ = step;
}

std::vector<std::vector<double>> FieldCache::written() const {
  return box_leader_ ? local_ : std::vector<std::vector<double>>{};
}

Checkpointer::Checkpointer(MPI_Comm comm, const CaseSetup& setup, Solver& solver,
                           std::string configuration)
    : comm_(comm),
      setup_(setup),
      solver_(solver),
      configuration_(std::move(configuration)),
      layout_(solver.state_layout()) {}

void Checkpointer::write(const char* why, std::int64_t step, double time,
                         CheckpointHistory history) {
  const Phase phase("BoltCheckpoint");
  set_run_phase("the checkpoint write at step " + std::to_string(step));
  const RunOptions& run = setup_.run;
  const PhysicalGrid& grid = setup_.engine.grid;
  CheckpointInfo info;
  info.step = step;
  info.time = time;
  info.dt = solver_.time_step();
  info.grid = {grid.cells(0), grid.cells(1), grid.cells(2)};
  info.nv = layout_.width;
  info.model = std::string(run.model->name());
  info.precision = std::string(to_string(run.precision));
  info.configuration = configuration_;
  info.state_variable = solver_.stored_variable();
  info.history = std::move(history);
  BoxValues f, stored;
  {
    const Phase state_phase("BoltCheckpointState");
    solver_.save_state(f, stored);
  }
  const Phase write_phase("BoltCheckpointWrite");
  write_checkpoint(comm_, run.output.checkpoint, info, layout_.boxes, layout_.columns, f, stored,
                   run.output.checkpoint_keep);
  last_ = step;
  PetscPrintf(comm_, "bolt: checkpoint (%s) at step %lld: %s\n", why, static_cast<long long>(step),
              run.output.checkpoint.c_str());
}

std::string Checkpointer::last_file() const {
  return last_ >= 0 ? setup_.run.output.checkpoint : "none written";
}

double ResidualHistory::residual(const std::vector<double>& fields, std::int64_t step) const {
  return solver_.residual(fields, previous_, static_cast<int>(step - previous_step_));
}

double ResidualHistory::units_left(double residual, std::int64_t step,
                                   std::int64_t last_step) const {
  const double to_last = double(last_step - step);
  if (solver_.converged(residual)) return 0.0;
  const double tolerance = solver_.tolerance();
  if (tolerance <= 0.0 || previous_residual_ <= 0.0 || residual <= 0.0 || step == previous_step_)
    return to_last;
  const double rate = std::log(residual / previous_residual_) / double(step - previous_step_);
  if (rate >= 0.0) return to_last;
  return std::min(to_last, std::max(0.0, std::log(tolerance / residual) / rate));
}

void ResidualHistory::accept(const std::vector<double>& fields, std::int64_t step,
                             double residual) {
  previous_ = fields;
  previous_step_ = step;
  previous_residual_ = residual;
}

// The baseline's fields a checkpoint keeps: those the residual compares (conservation.hpp).
constexpr int kComparedFields = kT - kN + 1;

void ResidualHistory::save(CheckpointHistory& history) const {
  history.emplace_back("residual_baseline", std::vector<double>{double(previous_step_),
                                                                previous_residual_});
  const std::size_t cells = previous_.size() / kFieldCount;
  std::vector<double> compared(cells * kComparedFields);
  for (std::size_t c = 0; c < cells; ++c)
    std::copy_n(previous_.data() + c * kFieldCount + kN, kComparedFields,
                compared.data() + c * kComparedFields);
  history.emplace_back("residual_baseline_fields", std::move(compared));
}

void ResidualHistory::restore(const CheckpointHistory& history, const std::string& file) {
  const std::vector<double>& baseline = history_entry(history, "residual_baseline", file);
  const std::vector<double>& compared = history_entry(history, "residual_baseline_fields", file);
  const std::size_t cells = previous_.size() / kFieldCount;
  require(baseline.size() == 2 && compared.size() == cells * kComparedFields, file,
          ": the residual's baseline in /history does not fit this grid");
  previous_step_ = std::int64_t(baseline[0]);
  previous_residual_ = baseline[1];
  std::fill(previous_.begin(), previous_.end(), 0.0);  // the fields the residual does not read
  for (std::size_t c = 0; c < cells; ++c)
    std::copy_n(compared.data() + c * kComparedFields, kComparedFields,
                previous_.data() + c * kFieldCount + kN);
}

Run::Run(MPI_Comm comm_, const CaseSetup& setup_, const Partition& partition_,
         const MemoryPlan& plan_, Solver& solver_, const Totals& initial_, std::int64_t step,
         bool restarted_, std::string configuration)
    : comm(comm_),
      setup(setup_),
      partition(partition_),
      plan(plan_),
      solver(solver_),
      restarted(restarted_),
      initial(initial_),
      outputs(comm_, setup_.run.output.continue_on_error),
      monitor(rank_of(comm_) == 0, setup_.run.output.directory + "/monitor.csv",
              restarted_ ? step : -1),
      writer(comm_, setup_.run.output.directory, setup_.engine.grid, restarted_ ? step : -1),
      fields(solver_.domain(), partition_.box_leader(), step),
      checkpoints(comm_, setup_, solver_, std::move(configuration)),
      residuals(solver_, fields.global(), step) {
  if (partition.box_leader())
    for (const OwnedPart& part : partition.parts) written_boxes.push_back(part.box);
}

std::vector<std::pair<std::string, double>> Run::model_diagnostics() const {
  // Every box runs the same model, so the names agree; a rank without boxes adds none.
  std::vector<std::pair<std::string, double>> values = solver.model_diagnostics();
  int count = static_cast<int>(values.size());
  MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT, MPI_MAX, comm);
  values.resize(count, {std::string(), -1e300});
  std::vector<double> numbers;
  for (const auto& entry : values) numbers.push_back(entry.second);
  MPI_Allreduce(MPI_IN_PLACE, numbers.data(), count, MPI_DOUBLE, MPI_MAX, comm);
  for (int k = 0; k < count; ++k) values[k].second = numbers[k];
  return values;
}

}  // namespace bolt

namespace bolt {

CheckpointHistory Run::saved_history() const {
  CheckpointHistory saved;
  residuals.save(saved);
  save_case_history(history, saved);
  saved.emplace_back("model_counters", solver.model_counters());
  return saved;
}

void Run::continue_history(const CheckpointHistory& saved, const std::string& file) {
  residuals.restore(saved, file);
  history = restore_case_history(saved, file);
  solver.restore_model_counters(history_entry(saved, "model_counters", file));
}

void Run::write_checkpoint(const char* why, const LoopState& state) {
  checkpoints.write(why, state.step, state.time(), saved_history());
}

}  // namespace bolt
