#pragma once
// Checkpoint/restart of the distribution function in HDF5. A restart continues bit-identically
// (same decomposition): f is stored at full precision of the run (float runs store float values
// exactly in the double dataset), together with the step, the time and the time step.
//
// File layout:
//   /f            double [cells][nv], interior cells in global numbering (x fastest)
//   attributes:   step (int64), time, dt, cells (int64), nv (int), model (string),
//                 precision (string), grid (int array N_x, N_y, N_z), format_version (int)
// Writes are collective (parallel HDF5): each rank writes its owned boxes and velocity batch, so a
// checkpoint is independent of the decomposition that wrote it and restarts with any other.
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "hdf5_fields.hpp"

namespace bolt {

// The velocities a rank owns: [lo, lo + count).
struct VelocityRange {
  int lo = 0, count = 0;
};

struct CheckpointInfo {
  std::int64_t step = 0;
  double time = 0.0;
  double dt = 0.0;
  std::array<int, 3> grid{1, 1, 1};
  int nv = 0;
  std::string model;
  std::string precision;
};

// Writes atomically: to <path>.tmp, then renamed, so a run killed while writing keeps the
// previous checkpoint.
void write_checkpoint(MPI_Comm comm, const std::string& path, const CheckpointInfo& info,
                      const std::vector<OwnedBox>& boxes, const VelocityRange& velocities,
                      const std::vector<std::vector<double>>& f);

// Reads the header; throws bolt::Error naming the file when it is missing or not a checkpoint.
CheckpointInfo read_checkpoint_info(MPI_Comm comm, const std::string& path);
// Reads the rows of each owned box, columns of the owned velocities.
std::vector<std::vector<double>> read_checkpoint_state(MPI_Comm comm, const std::string& path,
                                                       const CheckpointInfo& info,
                                                       const std::vector<OwnedBox>& boxes,
                                                       const VelocityRange& velocities);

}  // namespace bolt
