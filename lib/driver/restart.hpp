#pragma once
// Where a run continues from (-restart FILE, or -restart latest: the newest valid checkpoint kept
// at -out_checkpoint), checked before its state is used: the checkpoint's header and values
// against their checksums, and its configuration against this run's, naming what differs. A
// corrupted candidate of `latest` is passed over for the one before it.
#include <mpi.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "io/checkpoint.hpp"
#include "case/run_options.hpp"
#include "solver/solver.hpp"

namespace bolt {

// The options a run may change when it continues a checkpoint (docs/output.md names them): they
// steer the run, its outputs or the hardware, choose the initial state the checkpoint replaces,
// or choose the time step, which is compared itself. Every other option is part of the state.
const std::vector<std::string_view>& options_free_on_restart();

// The options a checkpoint's f belongs to, as "name=value" lines: every option the run uses
// (options_read) but those free on a restart, with its value as read (so "1.0" is "1"), and the
// time step. A model or precision change is a legitimate continuation, reported with a note;
// the models' own options are then not compared.
std::string state_configuration(double dt);

struct RestartPoint {
  std::string file;
  CheckpointInfo info;
  // Per owned box, its cells x the owned velocities: f, or where `stored` the solver's stored
  // state (/state: a checkpoint of the same model and precision that holds it).
  BoxValues f;
  bool stored = false;
};

// Collective. `stored_variable`: the solver's (Solver::stored_variable). Throws bolt::Error
// naming the option and the file when nothing valid is found.
RestartPoint read_restart(MPI_Comm comm, const RunOptions& run, const std::string& configuration,
                          const std::vector<OwnedBox>& owned, const VelocityRange& velocities,
                          const std::string& stored_variable = {});

// Reads the restart point for the solver's state layout and restores the solver from it (its
// stored state where the checkpoint holds it, else f); the point's values are released once
// restored. The caller takes the run's history from point.info.history. Collective.
RestartPoint restart_solver(MPI_Comm comm, const RunOptions& run, const std::string& configuration,
                            Solver& solver);

}  // namespace bolt
