#include "driver/run_summary.hpp"

#include <petscsys.h>

#include <cstdio>
#include <string>

#ifdef BOLT_HAVE_CUDA
#include "core/device_bandwidth.hpp"
#endif
#include "io/summary.hpp"

namespace bolt {

namespace {

// What ran: the case, its grids and model, the solver and the decomposition.
nlohmann::json run_identity(const Run& run) {
  const RunOptions& options = run.setup.run;
  const PhysicalGrid& grid = run.setup.engine.grid;
  const Partition& partition = run.partition;
  int ranks = 1;
  MPI_Comm_size(run.comm, &ranks);
  nlohmann::json summary;
  summary["schema"] = "bolt-summary-1";
  summary["case"] = options.case_name;
  summary["case_type"] = to_string(options.case_kind);
  summary["model"] = std::string(options.model->name());
  summary["solver"] = run.solver.name();
  summary["backend"] = std::string(to_string(options.backend));
  summary["precision"] = std::string(to_string(options.precision));
  summary["ranks"] = ranks;
  summary["decomp"] = to_string(partition.kind);
  summary["decomp_reason"] = partition.reason;
  summary["halo_overlap"] = options.halo_overlap;
  summary["space_ranks"] = partition.space_ranks;
  summary["boxes"] = partition.total_parts;
  summary["velocity_ranks"] = partition.velocity_ranks;
  summary["imbalance"] = partition.imbalance;
  summary["grid"] = {grid.cells(0), grid.cells(1), grid.cells(2)};
  summary["velocities"] = run.setup.engine.velocities.size();
  summary["velocity_reduction"] = reduction_name(run.setup.engine.velocities.reduced);
  summary["delta"] = options.gas.delta;
  summary["omega"] = options.gas.omega;
  summary["order"] = options.order;
  return summary;
}

// The halo exchange's and the moment sums' time per warm unit, the largest over the ranks, and
// their shares of the unit (the slowest rank's `seconds` over `units`): printed, and added to
// the summary's timing. The exchange overlaps the interior cells unless -halo_overlap false, so
// its share is what it would cost if nothing hid it.
void report_communication(MPI_Comm comm, CommunicationTimes times, std::int64_t units,
                          double seconds, const char* unit, nlohmann::json& timing) {
  MPI_Allreduce(MPI_IN_PLACE, &times.halo_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &times.sum_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  if (times.halo_seconds == 0.0 && times.sum_seconds == 0.0) return;
  timing["halo_ms_per_step"] = 1e3 * times.halo_seconds / units;
  timing["sum_ms_per_step"] = 1e3 * times.sum_seconds / units;
  timing["halo_share"] = times.halo_seconds / seconds;
  timing["sum_share"] = times.sum_seconds / seconds;
  std::string line = std::string("bolt: per ") + unit + " (warm):";
  const auto part = [&](const char* name, double spent) {
    char text[128];
    std::snprintf(text, sizeof text, " %s %.3f ms (%.1f%% of the %s)", name, 1e3 * spent / units,
                  100.0 * spent / seconds, unit);
    return std::string(text);
  };
  if (times.halo_seconds > 0.0) line += part("halo exchange", times.halo_seconds) + ",";
  line += part("moment sums", times.sum_seconds);
  PetscPrintf(comm, "%s\n", line.c_str());
}

// Time per unit (the slowest rank sets the pace; the traffic is that of all ranks), the device's
// copy bandwidth and the fraction reached, the warm rate and the communication's share.
nlohmann::json run_timing(const Run& run, const LoopState& state) {
  const LoopTiming& timing = state.timing;
  Solver& solver = run.solver;
  double seconds = timing.seconds;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, run.comm);
  double warm_seconds = seconds - timing.first_seconds;
  MPI_Allreduce(MPI_IN_PLACE, &warm_seconds, 1, MPI_DOUBLE, MPI_MAX, run.comm);
  const std::int64_t warm_units = timing.units - timing.first_units;
  double bytes_per_unit = solver.bytes_per_unit();
  MPI_Allreduce(MPI_IN_PLACE, &bytes_per_unit, 1, MPI_DOUBLE, MPI_SUM, run.comm);
  const double seconds_per_unit = seconds / double(timing.units > 0 ? timing.units : 1);
  const double updates = solver.updates_per_unit();
  nlohmann::json out = {
      {"wall_seconds", timing.wall_seconds},
      {"ms_per_step", 1e3 * seconds_per_unit},
      {"updates_per_second", seconds_per_unit > 0.0 ? updates / seconds_per_unit : 0.0},
      {"bytes_per_step", bytes_per_unit}};
#ifdef BOLT_HAVE_CUDA
  // The GPU's own copy bandwidth, measured now, against the traffic the solver's unit counts
  // (DESIGN.md, performance targets): the fraction is comparable between runs and devices.
  if (run.setup.run.backend == Backend::cuda && seconds_per_unit > 0.0) {
    const CopyBandwidth copy = measure_copy_bandwidth(std::size_t(1) << 30, 10);
    out["copy_bandwidth"] = copy.bytes_per_second;
    out["bandwidth_fraction"] = solver.bytes_per_unit() / seconds_per_unit / copy.bytes_per_second;
  }
#endif
  if (warm_units > 0) {
    out["ms_per_step_warm"] = 1e3 * warm_seconds / warm_units;
    report_communication(run.comm, timing.warm_communication, warm_units, warm_seconds,
                         solver.unit(), out);
  }
  return out;
}

// The plan's peaks against the measured ones (this rank; rank 0 writes): the GPU's memory in use
// now (every buffer of the run is allocated) and the host's peak resident set.
nlohmann::json run_memory(const Run& run) {
  const bool gpu = run.setup.run.backend == Backend::cuda;
  nlohmann::json memory = {{"plan_host_peak_bytes", run.plan.host_peak(gpu)},
                           {"host_peak_bytes", host_peak_bytes()}};
  if (gpu) {
    const DeviceMemory device = cuda_device_memory();
    memory["plan_device_peak_bytes"] = run.plan.device_peak();
    memory["device_used_bytes"] = device.total_bytes - device.free_bytes;
  }
  return memory;
}

}  // namespace

bool write_run_summary(Run& run, const LoopState& state) {
  const CaseSetup& setup = run.setup;
  const Totals now = totals(setup.engine.grid, run.fields.global());
  nlohmann::json summary = run_identity(run);
  summary["dt"] = state.dt;
  summary["steps"] = state.step;
  summary["time"] = state.time();
  summary["steady"] = state.steady;
  summary["residual"] = run.latest_row.residual;
  summary["conservation"] = {
      {"mass_error", (now.mass - run.initial.mass) / run.initial.mass},
      {"energy_change", (now.energy - run.initial.energy) / run.initial.energy}};
  summary["timing"] = run_timing(run, state);
  summary["diagnostics"] = summary_diagnostics(
      setup.run, setup.engine.grid, setup.geometry, setup.engine.velocities, state.dt,
      run.solver.domain(), run.fields.global(), state.time(), run.history);
  for (const auto& [name, value] : run.model_diagnostics())
    summary["model_diagnostics"][name] = value;
  for (const auto& [name, value] : run.solver.summary_numbers())
    summary["solver_numbers"][name] = value;
  summary["memory"] = run_memory(run);
  summary["fields_file"] = run.fields_file;
  summary["checkpoint"] = setup.run.output.checkpoint_final ? setup.run.output.checkpoint : "";
  int rank = 0;
  MPI_Comm_rank(run.comm, &rank);
  return run.outputs.attempt("summary", state.step, [&] {
    if (rank == 0) write_summary(setup.run.output.summary, summary);
  });
}

void report_run_end(const Run& run, bool summary_written) {
  const OutputOptions& output = run.setup.run.output;
  int rank = 0;
  MPI_Comm_rank(run.comm, &rank);
  if (rank == 0) {
    if (!run.fields_file.empty())
      std::printf("bolt: fields written to %s (open %s/fields.xmf in ParaView)\n",
                  run.fields_file.c_str(), output.directory.c_str());
    if (summary_written) std::printf("bolt: summary written to %s\n", output.summary.c_str());
  }
  if (run.outputs.failures() > 0)
    PetscFPrintf(run.comm, stderr,
                 "bolt: warning: %d outputs of this run were not written (see above)\n",
                 run.outputs.failures());
}

}  // namespace bolt
