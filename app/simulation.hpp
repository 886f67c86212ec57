#pragma once
// The time loop of one run with its hooks: monitor lines, field output, checkpoints (periodic,
// final, and on SIGTERM/SIGINT/SIGUSR1 so a batch job can stop cleanly before its time limit), and the
// JSON summary.
#include <mpi.h>

namespace bolt {

// The exit status of a run stopped by SIGTERM, SIGINT or SIGUSR1 after writing its checkpoint
// (0: finished; 2: a bad input or a run-time error; 3: an internal error).
constexpr int kStoppedBySignal = 4;

// The exit status of a run ended by a CUDA or NCCL error (app/bolt.cpp names the rank, host,
// device and phase).
constexpr int kDeviceFault = 6;

// Returns the process exit status.
int run_simulation(MPI_Comm comm);

}  // namespace bolt
