#include "simulation.hpp"

#include <petscsys.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <unistd.h>

#include "case_diagnostics.hpp"
#include "domain_view.hpp"
#include "numerical_guard.hpp"
#include "output_guard.hpp"
#include "parallel_setup.hpp"
#include "preflight.hpp"
#include "restart.hpp"
#include "solver_registry.hpp"
#include "core/run_context.hpp"
#ifdef BOLT_HAVE_CUDA
#include "core/device_bandwidth.hpp"
#endif
#include "core/error.hpp"
#include "decomposition/partition.hpp"
#include "diagnostics/conservation.hpp"
#include "io/case_setup.hpp"
#include "io/checkpoint.hpp"
#include "io/hdf5_fields.hpp"
#include "io/monitor.hpp"
#include "core/option_reader.hpp"
#include "io/run_options.hpp"
#include "io/summary.hpp"

namespace bolt {

namespace {

// SIGTERM, SIGINT, SIGUSR1: finish the step, write a checkpoint, exit with kStoppedBySignal. A
// second signal before that ends the process at once (_exit is async-signal-safe).
volatile std::sig_atomic_t stop_requested = 0;
extern "C" void request_stop(int signal) {
  if (stop_requested) _exit(128 + signal);
  stop_requested = signal;
}

struct Events {
  PetscLogEvent step, diagnostics, fields, checkpoint;
  Events() {
    PetscClassId id;
    PetscClassIdRegister("bolt", &id);
    PetscLogEventRegister("BoltStep", id, &step);
    PetscLogEventRegister("BoltDiagnostics", id, &diagnostics);
    PetscLogEventRegister("BoltFieldIO", id, &fields);
    PetscLogEventRegister("BoltCheckpoint", id, &checkpoint);
  }
};

// A scoped PETSc log event (shown by -log_view).
class Scoped {
 public:
  explicit Scoped(PetscLogEvent event) : event_(event) { PetscLogEventBegin(event_, 0, 0, 0, 0); }
  ~Scoped() { PetscLogEventEnd(event_, 0, 0, 0, 0); }

 private:
  PetscLogEvent event_;
};

std::string precision_name(Precision p) { return std::string(to_string(p)); }

// The halo exchange's and the moment sums' time per warm step (the solver's unit), the largest
// over the ranks, and their shares of the step (the slowest rank's `step_seconds` over `steps`):
// printed, and added to the summary's timing. The exchange overlaps the interior cells unless
// -halo_overlap false, so its share is what it would cost if nothing hid it.
void report_communication(MPI_Comm comm, CommunicationTimes times, std::int64_t steps,
                          double step_seconds, const char* unit, nlohmann::json& timing) {
  MPI_Allreduce(MPI_IN_PLACE, &times.halo_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &times.sum_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  if (times.halo_seconds == 0.0 && times.sum_seconds == 0.0) return;
  timing["halo_ms_per_step"] = 1e3 * times.halo_seconds / steps;
  timing["sum_ms_per_step"] = 1e3 * times.sum_seconds / steps;
  timing["halo_share"] = times.halo_seconds / step_seconds;
  timing["sum_share"] = times.sum_seconds / step_seconds;
  std::string line = std::string("bolt: per ") + unit + " (warm):";
  const auto part = [&](const char* name, double seconds) {
    char text[128];
    std::snprintf(text, sizeof text, " %s %.3f ms (%.1f%% of the %s)", name, 1e3 * seconds / steps,
                  100.0 * seconds / step_seconds, unit);
    return std::string(text);
  };
  if (times.halo_seconds > 0.0) line += part("halo exchange", times.halo_seconds) + ",";
  line += part("moment sums", times.sum_seconds);
  PetscPrintf(comm, "%s\n", line.c_str());
}

}  // namespace

int run_simulation(MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const RunOptions options = read_run_options(comm);
  PetscBool help = PETSC_FALSE;
  PetscOptionsHasName(nullptr, nullptr, "-help", &help);
  if (help) return 0;  // PETSc printed every option with its default while they were read
  reject_unused_options();
  const CaseSetup setup = make_case_setup(options);
  const RunOptions& run = setup.run;
  const PhysicalGrid& grid = setup.engine.grid;  // the whole grid
  const std::array<int, 3> cells{grid.cells(0), grid.cells(1), grid.cells(2)};
  const VelocityGrid& velocities = setup.engine.velocities;
  bind_ranks_to_gpus(comm, run);
  check_solver_supports(setup);
  Partition partition = make_partition(comm, solver_partition_request(setup));
  struct PartitionGuard {
    Partition& p;
    ~PartitionGuard() { free_partition(p); }
  } partition_guard{partition};
  std::vector<OwnedBox> owned;
  for (const OwnedPart& part : partition.parts) owned.push_back(part.box);
  // Output of the fields: each box once (velocity ranks of a box hold the same fields).
  const std::vector<OwnedBox> written = partition.box_leader() ? owned : std::vector<OwnedBox>{};
  const bool closed = closed_domain(run);  // the guard checks the mass drift only then
  const Events events;
  std::error_code directory_error;
  std::filesystem::create_directories(run.output.directory, directory_error);
  require(!directory_error, "-out_dir ", run.output.directory, ": cannot create the directory (",
          directory_error.message(), ")");

  const std::string model(run.model->name());
  PetscPrintf(comm, "bolt: case %s (%s), model %s, backend %s, precision %s\n",
              run.case_name.c_str(), to_string(run.case_kind), model.c_str(),
              std::string(to_string(run.backend)).c_str(), precision_name(run.precision).c_str());
  PetscPrintf(comm, "bolt: grid %d x %d x %d cells, %d velocities, %lld phase-space cells\n",
              grid.cells(0), grid.cells(1), grid.cells(2), velocities.size(),
              static_cast<long long>(grid.interior_cells() * velocities.size()));
  PetscPrintf(comm, "bolt: %s\n", solver_banner(setup).c_str());
  PetscPrintf(comm,
              "bolt: %d ranks, decomposition %s (%s): %d boxes (%zu sections) on %d ranks x %d "
              "velocity batches, cell imbalance %.1f%%\n",
              size, to_string(partition.kind), partition.reason.c_str(), partition.total_parts,
              setup.geometry.boxes.size(), partition.space_ranks, partition.velocity_ranks,
              100.0 * partition.imbalance);

  const auto communicator = make_communicator(run, partition);
  const std::vector<EngineConfig> locals = solver_engine_configs(setup, partition, communicator);
  const PlannedSolver planned = [&] {
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int ranks_per_node = 1;
    MPI_Comm_size(node, &ranks_per_node);
    MPI_Comm_free(&node);
    return plan_solver(comm, setup, partition, locals, ranks_per_node);
  }();
  const MemoryPlan& plan = planned.plan;
  if (run.dry_run) {
    PetscPrintf(comm, "bolt: dry run (-dry_run): stopping before the phase space is allocated\n");
    return 0;
  }
  // Conservation is measured against the initial state, also after a restart.
  const std::unique_ptr<Solver> solver =
      make_solver(setup, partition, locals, communicator, planned);
  DomainView& domain = solver->domain();
  const double dt = solver->time_step();
  const char* unit = solver->unit();
  const Totals initial = totals(grid, domain.gather_fields(domain.local_fields()));
  std::int64_t step = 0;
  double start_time = 0.0;
  const bool restarted = !run.output.restart.empty();
  const std::string configuration = state_configuration(run, dt);
  const StateLayout layout = solver->state_layout();
  if (restarted) {
    const RestartPoint point = read_restart(comm, run, configuration, layout.boxes, layout.columns);
    const CheckpointInfo& info = point.info;
    // A different model or precision is a legitimate continuation (e.g. BGK to Shakhov, or a
    // float run refined in double), but it is not the bit-identical restart: say so.
    if (info.model != model || info.precision != precision_name(run.precision))
      PetscPrintf(comm, "bolt: note: the checkpoint was written by a %s %s run; continuing with %s %s\n",
                  info.model.c_str(), info.precision.c_str(), model.c_str(),
                  precision_name(run.precision).c_str());
    step = info.step;
    solver->restore(point.f, step);
    start_time = info.time - info.step * dt;
    PetscPrintf(comm, "bolt: restarted from %s at %s %lld\n", point.file.c_str(), unit,
                static_cast<long long>(step));
  }
  const auto time_at = [&](std::int64_t s) { return start_time + s * dt; };
  // The collision model's own numbers (hs_mc: correction size), largest over boxes and ranks.
  // Every box runs the same model, so the names agree; a rank without boxes adds none.
  auto model_diagnostics = [&] {
    std::vector<std::pair<std::string, double>> values = solver->model_diagnostics();
    int count = static_cast<int>(values.size());
    MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT, MPI_MAX, comm);
    values.resize(count, {std::string(), -1e300});
    std::vector<double> numbers;
    for (const auto& entry : values) numbers.push_back(entry.second);
    MPI_Allreduce(MPI_IN_PLACE, numbers.data(), count, MPI_DOUBLE, MPI_MAX, comm);
    for (int k = 0; k < count; ++k) values[k].second = numbers[k];
    return values;
  };

  Monitor monitor(rank == 0, run.output.directory + "/monitor.csv", restarted ? step : -1);
  FieldWriter writer(comm, run.output.directory, grid, restarted ? step : -1);
  // Fields of this rank's boxes (output) and of the whole grid (diagnostics), of step
  // fields_step: computed once per step.
  std::vector<std::vector<double>> local_fields = domain.local_fields();
  std::vector<double> fields = domain.gather_fields(local_fields);
  std::int64_t fields_step = step;
  // The fields this rank writes: its boxes', or none where another rank writes them.
  auto written_fields = [&] {
    return partition.box_leader() ? local_fields : std::vector<std::vector<double>>{};
  };
  auto update_fields = [&] {
    if (fields_step == step) return;
    local_fields = domain.local_fields();
    fields = domain.gather_fields(local_fields);
    fields_step = step;
  };
  CaseHistory history;
  std::vector<double> previous = fields;
  std::int64_t previous_step = step;

  for (int signal : {SIGTERM, SIGINT, SIGUSR1}) std::signal(signal, request_stop);
  // Asked between steps: every rank stops at the same step (a rank that stopped alone would
  // leave the others waiting for its halos).
  const auto stop_now = [&] {
    int stop = stop_requested != 0;
    if (size > 1) MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, comm);
    return stop != 0;
  };

  std::int64_t last_checkpoint = -1;  // step of the last checkpoint this run wrote
  auto checkpoint = [&](const char* why) {
    Scoped scope(events.checkpoint);
    set_run_phase("the checkpoint write at step " + std::to_string(step));
    CheckpointInfo info;
    info.step = step;
    info.time = time_at(step);
    info.dt = dt;
    info.grid = cells;
    info.nv = layout.width;
    info.model = model;
    info.precision = precision_name(run.precision);
    info.configuration = configuration;
    write_checkpoint(comm, run.output.checkpoint, info, layout.boxes, layout.columns,
                     solver->saved_state(), run.output.checkpoint_keep);
    last_checkpoint = step;
    PetscPrintf(comm, "bolt: checkpoint (%s) at step %lld: %s\n", why, static_cast<long long>(step),
                run.output.checkpoint.c_str());
  };
  OutputGuard outputs(comm, run.output.continue_on_error);
  // -out_on_error stop: a checkpoint of this step unless that was the write that failed, then
  // the exit status that says so.
  auto stop_after_output_failure = [&] {
    if (outputs.last_failed() != "checkpoint" && last_checkpoint != step)
      outputs.attempt("checkpoint", step, [&] { checkpoint("output failure"); });
    PetscFPrintf(comm, stderr,
                 "bolt: error: stopped at step %lld because an output could not be written "
                 "(-out_on_error stop); last checkpoint: %s\n",
                 static_cast<long long>(step),
                 last_checkpoint >= 0 ? run.output.checkpoint.c_str() : "none written");
    return kOutputFailure;
  };

  // Both limits are absolute (step number, time), so a restarted run stops where the
  // uninterrupted one would have.
  std::int64_t last_step = solver_last_unit(run);
  if (run.final_time > 0.0 && dt > 0.0)
    last_step = std::min<std::int64_t>(
        last_step, static_cast<std::int64_t>(std::ceil((run.final_time - start_time) / dt - 1e-9)));
  const double updates_per_step = solver->updates_per_unit();
  double step_seconds = 0.0;
  std::int64_t timed_steps = 0;
  // The first stretch of steps includes one-time costs (NCCL connections, first-touch pages):
  // kept apart for the warm rate.
  double first_seconds = 0.0;
  std::int64_t first_steps = 0;
  // Halo exchange and moment sums of the steps after the first stretch (the warm rate's steps).
  CommunicationTimes warm_communication;
  double last_residual = 0.0;
  // Units left: to the last step; where the solver stops at a tolerance, no more than the
  // residual's rate of decrease since the previous monitor row takes to reach it.
  double previous_residual = 0.0;
  const auto units_left = [&](double residual, std::int64_t at) -> double {
    const double to_last = double(last_step - at);
    if (solver->converged(residual)) return 0.0;
    const double tolerance = solver->tolerance();
    if (tolerance <= 0.0 || previous_residual <= 0.0 || residual <= 0.0 || at == previous_step)
      return to_last;
    const double rate = std::log(residual / previous_residual) / double(at - previous_step);
    if (rate >= 0.0) return to_last;
    return std::min(to_last, std::max(0.0, std::log(tolerance / residual) / rate));
  };
  bool steady = false;
  const auto wall_start = std::chrono::steady_clock::now();

  auto next_stop = [&](std::int64_t every) {
    return every > 0 ? (step / every + 1) * every : last_step;
  };
  // The stretch in flight: up to the next stop (monitor, fields, checkpoint, last step), and
  // when it began.
  std::int64_t target = step;
  auto stretch_start = std::chrono::steady_clock::now();
  const auto next_stretch = [&]() -> int {
    if (step >= last_step || steady) return 0;
    target = std::min({last_step, next_stop(run.output.monitor_every),
                       next_stop(run.output.fields_every), next_stop(run.output.checkpoint_every)});
    set_run_phase("steps " + std::to_string(step + 1) + " to " + std::to_string(target));
    PetscLogEventBegin(events.step, 0, 0, 0, 0);
    stretch_start = std::chrono::steady_clock::now();
    return static_cast<int>(target - step);
  };
  // Set where a hook ends the run early (a signal, a numerical failure, an output failure).
  std::optional<int> exit_code;
  // After each stretch: the timing, then the hooks; false ends the march.
  const auto after_stretch = [&](int taken) -> bool {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stretch_start).count();
    PetscLogEventEnd(events.step, 0, 0, 0, 0);
    const CommunicationTimes communication = solver->take_communication_times();
    if (timed_steps == 0) {
      first_seconds = seconds;
      first_steps = taken;
    } else {
      warm_communication += communication;
    }
    step_seconds += seconds;
    timed_steps += taken;
    step += taken;
    const bool ended_early = step < target;  // a converged iteration returns before the target
    if (stop_now()) {
      checkpoint("signal");
      PetscPrintf(comm, "bolt: stopped by a signal at step %lld; continue with -restart %s\n",
                  static_cast<long long>(step), run.output.checkpoint.c_str());
      exit_code = kStoppedBySignal;
      return false;
    }
    const bool monitor_now =
        step % run.output.monitor_every == 0 || step == last_step || ended_early;
    if (monitor_now) {
      Scoped scope(events.diagnostics);
      update_fields();
      const Totals now = totals(grid, fields);
      MonitorRow row;
      row.step = step;
      row.time = time_at(step);
      row.residual = last_residual =
          solver->residual(fields, previous, static_cast<int>(step - previous_step));
      row.mass_error = (now.mass - initial.mass) / initial.mass;
      double dp = 0.0;
      for (int a = 0; a < 3; ++a) dp += std::pow(now.momentum[a] - initial.momentum[a], 2);
      row.momentum_change = std::sqrt(dp) / initial.mass;
      row.energy_change = (now.energy - initial.energy) / initial.energy;
      row.diagnostics =
          monitor_diagnostics(run, grid, setup.geometry, domain, fields, time_at(step), history);
      for (const auto& d : model_diagnostics()) row.diagnostics.push_back(d);
      const double seconds_per_step = step_seconds / std::max<std::int64_t>(timed_steps, 1);
      row.ms_per_step = 1e3 * seconds_per_step;
      row.updates_per_second = seconds_per_step > 0.0 ? updates_per_step / seconds_per_step : 0.0;
      row.eta_seconds = seconds_per_step * units_left(row.residual, step);
      outputs.attempt("monitor row", step, [&] { monitor.write(row); });
      const std::string failure =
          numerical_failure(fields, cells, setup.geometry, closed, row.mass_error,
                            run.guard_mass_drift, solver->failure_hint());
      if (!failure.empty()) {
        // The fields of this step as a diagnostic dump; the last checkpoint stays as it was.
        const std::string dump = writer.write(step, time_at(step), written, written_fields());
        PetscFPrintf(comm, stderr,
                     "bolt: error: the solution failed at step %lld (t = %.6g): %s. Fields of "
                     "this step: %s; last checkpoint: %s\n",
                     static_cast<long long>(step), time_at(step), failure.c_str(), dump.c_str(),
                     last_checkpoint >= 0 ? run.output.checkpoint.c_str() : "none written");
        exit_code = kNumericalFailure;
        return false;
      }
      previous = fields;
      previous_step = step;
      previous_residual = row.residual;
      steady = step > 0 && solver->converged(last_residual);
    }
    if (run.output.fields_every > 0 && step % run.output.fields_every == 0) {
      Scoped scope(events.fields);
      set_run_phase("the fields write at step " + std::to_string(step));
      update_fields();
      outputs.attempt("fields", step,
                      [&] { writer.write(step, time_at(step), written, written_fields()); });
    }
    if (run.output.checkpoint_every > 0 && step % run.output.checkpoint_every == 0)
      outputs.attempt("checkpoint", step, [&] { checkpoint("periodic"); });
    if (outputs.stopping()) {
      exit_code = stop_after_output_failure();
      return false;
    }
    return true;
  };
  solver->march(next_stretch, after_stretch, stop_now);
  if (exit_code) return *exit_code;
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  set_run_phase("the final output at step " + std::to_string(step));
  update_fields();
  std::string fields_file;
  {
    Scoped scope(events.fields);
    outputs.attempt("fields", step, [&] {
      fields_file = writer.write(step, time_at(step), written, written_fields());
    });
  }
  if (run.output.checkpoint_final && last_checkpoint != step)
    outputs.attempt("checkpoint", step, [&] { checkpoint("final"); });
  if (outputs.stopping()) return stop_after_output_failure();
  const Totals now = totals(grid, fields);

  nlohmann::json summary;
  summary["schema"] = "bolt-summary-1";
  summary["case"] = run.case_name;
  summary["case_type"] = to_string(run.case_kind);
  summary["model"] = model;
  summary["solver"] = solver->name();
  summary["backend"] = std::string(to_string(run.backend));
  summary["precision"] = precision_name(run.precision);
  summary["ranks"] = size;
  summary["decomp"] = to_string(partition.kind);
  summary["decomp_reason"] = partition.reason;
  summary["halo_overlap"] = run.halo_overlap;
  summary["space_ranks"] = partition.space_ranks;
  summary["boxes"] = partition.total_parts;
  summary["velocity_ranks"] = partition.velocity_ranks;
  summary["imbalance"] = partition.imbalance;
  summary["grid"] = {grid.cells(0), grid.cells(1), grid.cells(2)};
  summary["velocities"] = velocities.size();
  summary["delta"] = run.gas.delta;
  summary["omega"] = run.gas.omega;
  summary["order"] = run.order;
  summary["dt"] = dt;
  summary["steps"] = step;
  summary["time"] = time_at(step);
  summary["steady"] = steady;
  summary["residual"] = last_residual;
  summary["conservation"] = {{"mass_error", (now.mass - initial.mass) / initial.mass},
                             {"energy_change", (now.energy - initial.energy) / initial.energy}};
  // The slowest rank sets the pace; the traffic is that of all ranks.
  MPI_Allreduce(MPI_IN_PLACE, &step_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  double warm_seconds = step_seconds - first_seconds;
  MPI_Allreduce(MPI_IN_PLACE, &warm_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  const std::int64_t warm_steps = timed_steps - first_steps;
  double bytes_per_step = solver->bytes_per_unit();
  MPI_Allreduce(MPI_IN_PLACE, &bytes_per_step, 1, MPI_DOUBLE, MPI_SUM, comm);
  const double seconds_per_step = step_seconds / std::max<std::int64_t>(timed_steps, 1);
  summary["timing"] = {{"wall_seconds", wall_seconds},
                       {"ms_per_step", 1e3 * seconds_per_step},
                       {"updates_per_second",
                        seconds_per_step > 0.0 ? updates_per_step / seconds_per_step : 0.0},
                       {"bytes_per_step", bytes_per_step}};
#ifdef BOLT_HAVE_CUDA
  // The GPU's own copy bandwidth, measured now, against the traffic the solver's unit counts
  // (DESIGN.md, performance targets): the fraction is comparable between runs and devices.
  if (run.backend == Backend::cuda && seconds_per_step > 0.0) {
    const CopyBandwidth copy = measure_copy_bandwidth(std::size_t(1) << 30, 10);
    const double rank_bytes = solver->bytes_per_unit() / seconds_per_step;
    summary["timing"]["copy_bandwidth"] = copy.bytes_per_second;
    summary["timing"]["bandwidth_fraction"] = rank_bytes / copy.bytes_per_second;
  }
#endif
  // After the first stretch between two stops (monitor, output): what a long run sees.
  if (warm_steps > 0) {
    summary["timing"]["ms_per_step_warm"] = 1e3 * warm_seconds / warm_steps;
    report_communication(comm, warm_communication, warm_steps, warm_seconds, solver->unit(),
                         summary["timing"]);
  }
  summary["diagnostics"] = summary_diagnostics(run, grid, setup.geometry, velocities, dt, domain,
                                               fields, time_at(step), history);
  for (const auto& [name, value] : model_diagnostics()) summary["model_diagnostics"][name] = value;
  for (const auto& [name, value] : solver->summary_numbers()) summary["solver_numbers"][name] = value;
  // The plan's peaks against the measured ones (this rank, rank 0 writes): the GPU's memory in
  // use now (every buffer of the run is allocated) and the host's peak resident set.
  const bool gpu = run.backend == Backend::cuda;
  const DeviceMemory device = gpu ? cuda_device_memory() : DeviceMemory{};
  summary["memory"] = {{"plan_host_peak_bytes", plan.host_peak(gpu)},
                       {"host_peak_bytes", host_peak_bytes()}};
  if (gpu) {
    summary["memory"]["plan_device_peak_bytes"] = plan.device_peak();
    summary["memory"]["device_used_bytes"] = device.total_bytes - device.free_bytes;
  }
  summary["fields_file"] = fields_file;
  summary["checkpoint"] = run.output.checkpoint_final ? run.output.checkpoint : "";
  const bool summary_written = outputs.attempt("summary", step, [&] {
    if (rank == 0) write_summary(run.output.summary, summary);
  });
  if (outputs.stopping()) return stop_after_output_failure();
  if (rank == 0) {
    if (!fields_file.empty())
      std::printf("bolt: fields written to %s (open %s/fields.xmf in ParaView)\n",
                  fields_file.c_str(), run.output.directory.c_str());
    if (summary_written) std::printf("bolt: summary written to %s\n", run.output.summary.c_str());
  }
  if (outputs.failures() > 0)
    PetscFPrintf(comm, stderr, "bolt: warning: %d outputs of this run were not written (see above)\n",
                 outputs.failures());
  return 0;
}

}  // namespace bolt
