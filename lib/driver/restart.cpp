#include "driver/restart.hpp"

#include <petscsys.h>

#include <algorithm>
#include <sstream>

#include "core/error.hpp"
#include "core/option_reader.hpp"

namespace bolt {

const std::vector<std::string_view>& options_free_on_restart() {
  static const std::vector<std::string_view> options = {
      // Where and how the run is computed: the same state on other hardware or ranks.
      "backend", "precision", "team_size", "decomp", "decomp_velocity_ranks", "gpu_share",
      "halo_overlap", "mc_team_size", "mc_cells_per_team", "dry_run",
      // How long it runs and what it checks on the way.
      "ts_max_steps", "ts_final_time", "ts_steady_tol", "ts_mean_tol", "guard_mass_drift",
      "vgrid_tolerance",
      // How the time step is chosen: the step itself is compared (dt).
      "ts_dt", "ts_max_courant", "ts_collision_fraction",
      // The path of the iterative solver to its fixed point, not the fixed point.
      "iter_tol", "iter_max", "iter_accel", "iter_accel_history", "iter_synthetic", "iter_batch",
      "iter_lines",
      // The initial state, which the checkpoint replaces.
      "init_type", "init_fields", "init_density", "init_velocity", "init_temperature",
      "init_temperature_axes", "init_second_density", "init_second_velocity",
      "init_second_temperature", "init_left", "init_right", "init_interface",
      "init_steady_model", "init_steady_tol",
      // Outputs.
      "case_name", "out_dir", "out_monitor_every", "out_fields_every", "out_checkpoint_every",
      "out_checkpoint", "out_checkpoint_final", "out_checkpoint_keep", "restart", "summary",
      "out_on_error",
      // Another model continues with a note (restart_solver); its own options go with it.
      "model_type"};
  return options;
}

std::string state_configuration(double dt) {
  const std::vector<std::string_view>& free = options_free_on_restart();
  std::ostringstream out;
  for (const ReadOption& option : options_read()) {
    if (!option_in_use(option) || std::find(free.begin(), free.end(), option.name) != free.end())
      continue;
    out << option.name << '=' << option.value << '\n';
  }
  out.precision(17);
  out << "dt=" << dt << '\n';
  return out.str();
}

namespace {

// The lines of `configuration` but those of the models' own options: a checkpoint of another
// model is continued with a note, and the options of the one model do not apply to the other.
std::string without_model_options(const std::string& configuration) {
  std::istringstream in(configuration);
  std::string kept, line;
  while (std::getline(in, line)) {
    const std::string name = line.substr(0, line.find('='));
    bool model_own = false;
    for (const ReadOption& option : options_read())
      model_own |= option.name == name && option.use && option.use->selector == "model_type";
    if (!model_own) kept += line + '\n';
  }
  return kept;
}

void check_configuration(const std::string& option, const std::string& file,
                         const CheckpointInfo& info, const RunOptions& run,
                         const std::string& configuration) {
  const bool same_model = info.model == run.model->name();
  const std::string difference = configuration_difference(
      same_model ? info.configuration : without_model_options(info.configuration),
      same_model ? configuration : without_model_options(configuration));
  require(difference.empty(), option, " ", file,
          ": the checkpoint belongs to another "
          "configuration (",
          difference, ")");
}

// The state of `point.file` for this run's boxes, checked against the file's checksum: the
// solver's stored state where the checkpoint holds it from a run of the same model and precision
// (the bit-identical continuation), else f.
void read_verified(MPI_Comm comm, const RunOptions& run, RestartPoint& point,
                   const std::vector<OwnedBox>& owned, const VelocityRange& velocities,
                   const std::string& stored_variable) {
  const CheckpointInfo& info = point.info;
  point.stored = !stored_variable.empty() && info.state_variable == stored_variable &&
                 info.model == run.model->name() && info.precision == to_string(run.precision);
  point.f = read_checkpoint_state(comm, point.file, info, owned, velocities, point.stored);
  verify_checkpoint_state(comm, point.file, info, owned, velocities, point.f, point.stored);
}

}  // namespace

RestartPoint read_restart(MPI_Comm comm, const RunOptions& run, const std::string& configuration,
                          const std::vector<OwnedBox>& owned, const VelocityRange& velocities,
                          const std::string& stored_variable) {
  const std::string& restart = run.output.restart;
  if (restart != "latest") {
    RestartPoint point{restart, read_checkpoint_info(comm, restart), {}};
    check_configuration("-restart", restart, point.info, run, configuration);
    read_verified(comm, run, point, owned, velocities, stored_variable);
    return point;
  }
  const std::string& path = run.output.checkpoint;
  const std::vector<std::string> kept = kept_checkpoints(comm, path);
  require(!kept.empty(), "-restart latest: no checkpoint at ", path,
          " (-out_checkpoint) or kept beside it");
  // A damaged file is passed over for the one before it; another configuration is the user's to
  // settle (the kept checkpoints of one run share theirs).
  for (const std::string& file : kept) {
    RestartPoint point{file, {}, {}};
    try {
      point.info = read_checkpoint_info(comm, file);
    } catch (const Error& error) {
      PetscPrintf(comm, "bolt: note: %s; trying the checkpoint before it\n", error.what());
      continue;
    }
    check_configuration("-restart latest", file, point.info, run, configuration);
    try {
      read_verified(comm, run, point, owned, velocities, stored_variable);
      return point;
    } catch (const Error& error) {
      PetscPrintf(comm, "bolt: note: %s; trying the checkpoint before it\n", error.what());
    }
  }
  fail("-restart latest: none of the ", kept.size(), " checkpoints at ", path,
       " is intact (notes above)");
}

RestartPoint restart_solver(MPI_Comm comm, const RunOptions& run, const std::string& configuration,
                            Solver& solver) {
  const StateLayout layout = solver.state_layout();
  RestartPoint point = read_restart(comm, run, configuration, layout.boxes, layout.columns,
                                    solver.stored_variable());
  const CheckpointInfo& info = point.info;
  const std::string model(run.model->name()), precision(to_string(run.precision));
  // A different model or precision is a legitimate continuation (e.g. BGK to Shakhov, or a
  // float run refined in double), but it is not the bit-identical restart: say so.
  if (info.model != model || info.precision != precision)
    PetscPrintf(comm,
                "bolt: note: the checkpoint was written by a %s %s run; continuing with %s %s\n",
                info.model.c_str(), info.precision.c_str(), model.c_str(), precision.c_str());
  if (point.stored)
    solver.restore_stored(point.f, info.step);
  else
    solver.restore(point.f, info.step);
  PetscPrintf(comm, "bolt: restarted from %s at %s %lld\n", point.file.c_str(), solver.unit(),
              static_cast<long long>(info.step));
  point.f.clear();
  return point;
}

}  // namespace bolt
