#include "driver/loop_hooks.hpp"

#include <petscsys.h>

#include <cmath>

#include "core/phase_events.hpp"
#include "core/run_context.hpp"
#include "diagnostics/window_mean.hpp"
#include "driver/exit_status.hpp"
#include "driver/numerical_guard.hpp"
#include "driver/run_summary.hpp"

namespace bolt {

namespace {

// -out_on_error stop: a checkpoint of this unit unless that was the write that failed, then the
// exit status that says so.
int stop_after_output_failure(Run& run, const LoopState& state) {
  if (run.outputs.last_failed() != "checkpoint" && run.checkpoints.last() != state.step)
    run.outputs.attempt("checkpoint", state.step,
                        [&] { run.write_checkpoint("output failure", state); });
  PetscFPrintf(run.comm, stderr,
               "bolt: error: stopped at step %lld because an output could not be written "
               "(-out_on_error stop); last checkpoint: %s\n",
               static_cast<long long>(state.step), run.checkpoints.last_file().c_str());
  return kOutputFailure;
}

void write_monitor_row(Run& run, LoopState& state) {
  const Phase phase("BoltDiagnostics");
  const CaseSetup& setup = run.setup;
  run.fields.update(state.step);
  const std::vector<double>& fields = run.fields.global();
  const Totals now = totals(setup.engine.grid, fields);
  const Totals& initial = run.initial;
  MonitorRow& row = run.latest_row;
  row.step = state.step;
  row.time = state.time();
  row.residual = run.residuals.residual(fields, state.step);
  row.mass_error = (now.mass - initial.mass) / initial.mass;
  double dp = 0.0;
  for (int a = 0; a < 3; ++a) dp += std::pow(now.momentum[a] - initial.momentum[a], 2);
  row.momentum_change = std::sqrt(dp) / initial.mass;
  row.energy_change = (now.energy - initial.energy) / initial.energy;
  {
    const Phase case_phase("BoltCaseDiagnostics");
    row.diagnostics = monitor_diagnostics(setup.run, setup.engine.grid, setup.geometry,
                                          run.solver.domain(), fields, state.time(), run.history);
  }
  {
    const Phase model_phase("BoltModelDiagnostics");
    for (const auto& d : run.model_diagnostics()) row.diagnostics.push_back(d);
  }
  const double seconds_per_step = state.timing.seconds_per_unit();
  row.ms_per_step = 1e3 * seconds_per_step;
  row.updates_per_second =
      seconds_per_step > 0.0 ? run.solver.updates_per_unit() / seconds_per_step : 0.0;
  row.eta_seconds =
      seconds_per_step * run.residuals.units_left(row.residual, state.step, state.last_step);
  run.outputs.attempt("monitor row", state.step, [&] { run.monitor.write(row); });
}

// The numerical guard: a failed state ends the run with kNumericalFailure, its fields written as
// a diagnostic dump; the last checkpoint stays as it was. `mass_error` as in monitor.csv.
void stop_if_unsound(Run& run, LoopState& state, double mass_error) {
  const CaseSetup& setup = run.setup;
  const PhysicalGrid& grid = setup.engine.grid;
  const std::string failure = numerical_failure(
      run.fields.global(), {grid.cells(0), grid.cells(1), grid.cells(2)}, setup.geometry,
      closed_domain(setup.run), mass_error, setup.run.guard_mass_drift, run.solver.failure_hint());
  if (failure.empty()) return;
  const std::string dump =
      run.writer.write(state.step, state.time(), run.written_boxes, run.fields.written());
  PetscFPrintf(run.comm, stderr,
               "bolt: error: the solution failed at step %lld (t = %.6g): %s. Fields of this "
               "step: %s; last checkpoint: %s\n",
               static_cast<long long>(state.step), state.time(), failure.c_str(), dump.c_str(),
               run.checkpoints.last_file().c_str());
  state.exit_code = kNumericalFailure;
}

void guard_the_solution(Run& run, LoopState& state) {
  stop_if_unsound(run, state, run.latest_row.mass_error);
}

// A checkpoint replaces the last one: the guard checks the state first (also between monitor
// rows), so that a run that fails keeps its last sound checkpoint to continue from. True when
// the checkpoint may be written.
bool sound_for_checkpoint(Run& run, LoopState& state) {
  run.fields.update(state.step);
  const Totals now = totals(run.setup.engine.grid, run.fields.global());
  stop_if_unsound(run, state, (now.mass - run.initial.mass) / run.initial.mass);
  return !state.exit_code;
}

void stop_on_signal(Run& run, LoopState& state) {
  if (!stop_signalled(run.comm)) return;
  if (!sound_for_checkpoint(run, state)) return;
  run.write_checkpoint("signal", state);
  PetscPrintf(run.comm, "bolt: stopped by a signal at step %lld; continue with -restart %s\n",
              static_cast<long long>(state.step), run.setup.run.output.checkpoint.c_str());
  state.exit_code = kStoppedBySignal;
}

// A unit of a regular monitor row (a multiple of -out_monitor_every): the row a continued run
// measures against and a checkpoint carries the samples up to.
bool regular_row(const Run& run, const LoopState& state) {
  return state.step % run.setup.run.output.monitor_every == 0;
}

// A stop at a regular row checkpoints after the row (the hook "signal after a row"), so that the
// continued run has it as the uninterrupted one does; elsewhere at once.
void stop_on_signal_between_rows(Run& run, LoopState& state) {
  if (!regular_row(run, state)) stop_on_signal(run, state);
}

void detect_steady_state(Run& run, LoopState& state) {
  const double residual = run.latest_row.residual;
  // Only a regular row is a baseline and a sample a checkpoint carries: the rows of a run's last
  // step or of a stop are ones the uninterrupted run does not have.
  if (regular_row(run, state)) {
    run.residuals.accept(run.fields.global(), state.step, residual);
    run.history.regular = run.history.time.size();
  }
  state.steady = state.step > 0 && run.solver.converged(residual);
}

// -ts_mean_tol: the run ends once the window means of D and G after the transient are known to
// that relative accuracy (diagnostics/window_mean.hpp). It reads the samples of the
// regular rows only, which a checkpoint carries: a continued run with the same
// -out_monitor_every stops where the uninterrupted one does (the batches count samples).
void stop_when_means_known(Run& run, LoopState& state) {
  const double tolerance = run.setup.run.mean_tolerance;
  if (tolerance <= 0.0 || !regular_row(run, state)) return;
  const CaseHistory& history = run.history;
  for (const std::vector<double>* series : {&history.drag, &history.flow_rate}) {
    const std::vector<double> regular(series->begin(),
                                      series->begin() + std::ptrdiff_t(history.regular));
    const WindowMean w = window_mean(regular, kWindowBatches);
    // Known to the tolerance: its standard error, and the drift between the window's halves
    // (what is left of the approach to the steady state), each below it.
    const double allowed = tolerance * std::abs(w.mean);
    if (!w.ready || w.error > allowed || std::abs(w.drift) > allowed) return;
  }
  PetscPrintf(run.comm,
              "bolt: the window means of D and G are known to %g (relative standard error) at "
              "step %lld: stopping\n",
              tolerance, static_cast<long long>(state.step));
  state.steady = true;
}

void write_fields(Run& run, LoopState& state) {
  const Phase phase("BoltFieldIO");
  set_run_phase("the fields write at step " + std::to_string(state.step));
  run.fields.update(state.step);
  run.outputs.attempt("fields", state.step, [&] {
    run.writer.write(state.step, state.time(), run.written_boxes, run.fields.written());
  });
}

void write_periodic_checkpoint(Run& run, LoopState& state) {
  if (!sound_for_checkpoint(run, state)) return;
  run.outputs.attempt("checkpoint", state.step,
                      [&] { run.write_checkpoint("periodic", state); });
}

void stop_after_failed_output(Run& run, LoopState& state) {
  if (run.outputs.stopping()) state.exit_code = stop_after_output_failure(run, state);
}

void write_final_outputs(Run& run, LoopState& state) {
  set_run_phase("the final output at step " + std::to_string(state.step));
  const bool checkpoint =
      run.setup.run.output.checkpoint_final && run.checkpoints.last() != state.step;
  if (checkpoint && !sound_for_checkpoint(run, state)) return;  // its dump holds the fields
  run.fields.update(state.step);
  {
    const Phase phase("BoltFieldIO");
    run.outputs.attempt("fields", state.step, [&] {
      run.fields_file =
          run.writer.write(state.step, state.time(), run.written_boxes, run.fields.written());
    });
  }
  if (checkpoint)
    run.outputs.attempt("checkpoint", state.step,
                        [&] { run.write_checkpoint("final", state); });
  stop_after_failed_output(run, state);
}

void finish_with_summary(Run& run, LoopState& state) {
  const bool written = write_run_summary(run, state);
  stop_after_failed_output(run, state);
  if (!state.exit_code) report_run_end(run, written);
}

}  // namespace

void add_run_hooks(TimeLoop& loop, Run& run) {
  const OutputOptions& output = run.setup.run.output;
  const auto bind = [&run](void (*hook)(Run&, LoopState&)) {
    return [&run, hook](LoopState& state) { hook(run, state); };
  };
  const Schedule monitor{output.monitor_every, true, false};
  loop.add_hook("signal", {0, false, true}, bind(stop_on_signal_between_rows));
  loop.add_hook("monitor", monitor, bind(write_monitor_row));
  loop.add_hook("numerical guard", monitor, bind(guard_the_solution));
  loop.add_hook("steady state", monitor, bind(detect_steady_state));
  loop.add_hook("window means", monitor, bind(stop_when_means_known));
  loop.add_hook("signal after a row", {output.monitor_every, false, false}, bind(stop_on_signal));
  if (output.fields_every > 0)
    loop.add_hook("fields", {output.fields_every, false, false}, bind(write_fields));
  if (output.checkpoint_every > 0)
    loop.add_hook("checkpoint", {output.checkpoint_every, false, false},
                  bind(write_periodic_checkpoint));
  loop.add_hook("output failure", {0, false, true}, bind(stop_after_failed_output));
  loop.add_final_hook("final output", bind(write_final_outputs));
  loop.add_final_hook("summary", bind(finish_with_summary));
}

}  // namespace bolt
