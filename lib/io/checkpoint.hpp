#pragma once
// Checkpoint/restart of the distribution function in HDF5. A restart continues bit-identically
// (same decomposition): f is stored exactly, together with the step, the time and the time step;
// where the solver's state is not f itself (hs_mc's deviation h, which f = Phi0 (1 + eps h)
// rounds), that state too; and the run's history, which a continued run needs to measure and
// average as the uninterrupted one does.
//
// File layout:
//   /f            [cells][nv], interior cells in global numbering (x fastest): single precision
//                 where every value is a float (a float run's f), else double
//   /state        [cells][nv], optional: the solver's stored state (attribute state_variable
//                 names it), same layout and choice of precision as /f
//   /history/*    double arrays, named by the driver (the residual's baseline, diagnostics'
//                 samples, counters)
//   attributes:   step (int64), time, dt, cells (int64), nv (int), model (string),
//                 precision (string), grid (int array N_x, N_y, N_z), format_version (int),
//                 configuration (string: the options that define the state, "key=value" lines),
//                 state_variable (string, empty without /state), f_checksum, state_checksum,
//                 header_checksum (uint64)
// Writes are collective (parallel HDF5): each rank writes its owned boxes and velocity batch, so a
// checkpoint is independent of the decomposition that wrote it and restarts with any other.
//
// Integrity: f_checksum is the sum mod 2^64 of a 64-bit hash of every value's bits and position
// in /f, so each rank adds up its own part and the sum does not depend on the decomposition;
// header_checksum hashes the attributes and the history. A flipped byte in /f or the header, or a truncated file,
// is refused on reading; so is a checkpoint of another configuration (naming what differs).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include "core/host_values.hpp"
#include "hdf5_fields.hpp"

namespace bolt {

// The velocities a rank owns: [lo, lo + count).
struct VelocityRange {
  int lo = 0, count = 0;
};

// Named series the driver carries across a restart (/history/<name>).
using CheckpointHistory = std::vector<std::pair<std::string, std::vector<double>>>;

// The entry `name` of a checkpoint's history; throws bolt::Error naming `file` where it is missing.
const std::vector<double>& history_entry(const CheckpointHistory& history, const std::string& name,
                                         const std::string& file);

// Per owned box, its cells x the owned velocities.
using BoxValues = std::vector<HostValues>;

struct CheckpointInfo {
  std::int64_t step = 0;
  double time = 0.0;
  double dt = 0.0;
  std::array<int, 3> grid{1, 1, 1};
  int nv = 0;
  std::string model;
  std::string precision;
  std::string configuration;  // "key=value" lines of the options that define the state
  // The solver's stored state where it is not f (/state), e.g. "h" (hs_mc); empty: none.
  std::string state_variable;
  CheckpointHistory history;
  std::uint64_t f_checksum = 0;      // set by write_checkpoint and read_checkpoint_info
  std::uint64_t state_checksum = 0;  // the same for /state
};

// Writes atomically: to temporary_name(path), then renamed, so a run killed while writing keeps
// the previous checkpoint. keep > 1 keeps that many: the one at <path> is renamed to
// <path>.<its step, 12 digits> first, and the oldest of those beyond keep - 1 are removed.
// `state`: the values of /state (in the layout of f) when info.state_variable is set.
void write_checkpoint(MPI_Comm comm, const std::string& path, const CheckpointInfo& info,
                      const std::vector<OwnedBox>& boxes, const VelocityRange& velocities,
                      const BoxValues& f, const BoxValues& state = {}, int keep = 1);

// The lines of `checkpoint` and `run` (configurations) that differ, as "key: checkpoint value,
// this run value" separated by "; "; empty when they agree.
std::string configuration_difference(const std::string& checkpoint, const std::string& run);

// The checkpoints kept at `path` (write_checkpoint's keep), newest first by their step; those
// whose header cannot be read are left out with a line on stderr (rank 0). Collective.
std::vector<std::string> kept_checkpoints(MPI_Comm comm, const std::string& path);

// Reads the header; throws bolt::Error naming the file when it is missing, not a checkpoint or
// its header does not match its checksum.
CheckpointInfo read_checkpoint_info(MPI_Comm comm, const std::string& path);
// Reads the rows of each owned box, columns of the owned velocities, of /f or (`stored`) /state.
BoxValues read_checkpoint_state(MPI_Comm comm, const std::string& path, const CheckpointInfo& info,
                                const std::vector<OwnedBox>& boxes,
                                const VelocityRange& velocities, bool stored = false);
// Throws bolt::Error naming the file when the values the ranks read (together every value that
// was written, each once: the boxes and velocities of a decomposition) do not add up to its
// f_checksum (`stored`: state_checksum). Collective: every rank throws.
void verify_checkpoint_state(MPI_Comm comm, const std::string& path, const CheckpointInfo& info,
                             const std::vector<OwnedBox>& boxes, const VelocityRange& velocities,
                             const BoxValues& values, bool stored = false);

}  // namespace bolt
