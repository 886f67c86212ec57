#include "driver/restart.hpp"

#include <petscsys.h>

#include <sstream>

#include "core/error.hpp"
#include "solver/solver_type.hpp"

namespace bolt {

std::string state_configuration(const RunOptions& run, double dt) {
  std::ostringstream out;
  out.precision(17);
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a) {
    const AxisSpec& s = run.axes[a];
    out << "grid_" << axis[a] << '=' << s.cells << ' ' << s.lo << ' ' << s.hi << ' ' << s.ratio
        << ' ' << int(s.fine_at) << '\n';
  }
  out << "geometry_boxes=" << run.geometry_boxes << '\n'
      << "geometry_solids=" << run.geometry_solids << '\n';
  const VelocityGridSpec& v = run.velocity_grid;
  out << "vgrid=" << v.type << ' ' << v.nodes[0] << ',' << v.nodes[1] << ',' << v.nodes[2] << ' '
      << v.half_width << ' ' << v.centre[0] << ',' << v.centre[1] << ',' << v.centre[2] << ' '
      << v.ratio << '\n';
  out << "dt=" << dt << '\n';
  out << run.solver->configuration();
  return out.str();
}

namespace {

void check_configuration(const std::string& option, const std::string& file,
                         const CheckpointInfo& info, const std::string& configuration) {
  const std::string difference = configuration_difference(info.configuration, configuration);
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
    check_configuration("-restart", restart, point.info, configuration);
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
    check_configuration("-restart latest", file, point.info, configuration);
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
