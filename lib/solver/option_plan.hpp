#pragma once
// The plan from the options alone, before anything of the run's size is built: the phase space's
// size in checked arithmetic, and the least memory per rank any decomposition leaves -- the
// solver's share of the phase space (SolverType::least_bytes), the velocity tables every rank
// holds, the fields of the whole grid every rank gathers -- against the free memory. A run that
// cannot fit is refused here in a moment, naming -grid_n and -vgrid_n, instead of after minutes
// of building velocity tables and grids, or with std::bad_alloc. What fits is planned in detail
// later (SolverType::plan, memory_plan.hpp).
#include <mpi.h>

#include <cstdint>

#include "case/run_options.hpp"

namespace bolt {

struct PhaseSpaceSize {
  std::int64_t cells = 0;        // interior cells of the grid
  std::int64_t velocities = 0;   // nodes of the velocity grid
  std::int64_t phase_space = 0;  // their product
};

// Refuses a size beyond 64-bit arithmetic, or more velocities than the kernels' int numbering.
PhaseSpaceSize phase_space_size(const RunOptions& run);

// Refuses (bolt::Error naming the options and both numbers) a run whose least needs exceed the
// free memory of the host or the device on some rank. Collective.
void check_option_plan(MPI_Comm comm, const RunOptions& run, int ranks_per_node);

}  // namespace bolt
