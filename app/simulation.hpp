#pragma once
// The time loop of one run with its hooks: monitor lines, field output, checkpoints (periodic,
// final, and on SIGTERM/SIGUSR1 so a batch job can stop cleanly before its time limit), and the
// JSON summary.
#include <mpi.h>

namespace bolt {

// Returns the process exit status.
int run_simulation(MPI_Comm comm);

}  // namespace bolt
