#pragma once
// One run of bolt, from the options to the summary (simulation.cpp reads as the sequence it is).
#include <mpi.h>

#include "driver/exit_status.hpp"

namespace bolt {

// Returns the process exit status.
int run_simulation(MPI_Comm comm);

}  // namespace bolt
