#pragma once
// The pre-run plan: before the phase space is allocated, what this run will take per rank --
// grid, phase-space size, bytes of the device (the GPU, or the host for the CPU backend) and of
// the host, time step and Courant number, the expected time per step -- printed, and checked
// against the free memory: a run that does not fit stops here with the numbers and what would
// fit, not with an out-of-memory error from the allocation. -dry_run stops after the plan.
#include <mpi.h>

#include <vector>

#include "io/case_setup.hpp"
#include "solver/engine.hpp"

namespace bolt {

struct MemoryPlan {
  double f_bytes = 0.0;       // the two copies of f (padded)
  double device_bytes = 0.0;  // everything on the device (GPU runs) or in the arrays (CPU runs)
  double host_bytes = 0.0;    // peak of the host's own copies (set-up, checkpoints, fields)
  // What the process used before the plan (check_plan): the GPU's memory in use (the CUDA
  // context, NCCL's buffers) and the host's resident set (libraries, options, grids).
  double device_before = 0.0, host_before = 0.0;
  // The plan's peaks, comparable with what the run measures (summary "memory").
  double device_peak() const { return device_before + device_bytes; }
  double host_peak(bool gpu) const { return host_before + host_bytes + (gpu ? 0.0 : device_bytes); }
};

// The peak resident set of this process so far, in bytes.
double host_peak_bytes();

// This rank's plan for the engines `locals` (its boxes and velocities).
MemoryPlan plan_memory(const CaseSetup& setup, const std::vector<EngineConfig>& locals);

// Prints the plan (rank 0: the largest rank's numbers and the totals) and checks it against the
// free memory of each rank's device and node; throws bolt::Error with what would fit when it
// does not. Returns this rank's plan. Collective.
MemoryPlan check_plan(MPI_Comm comm, const CaseSetup& setup,
                      const std::vector<EngineConfig>& locals, int ranks_per_node);

// The plan of the iterative solver: moments, targets and face arrays of the whole grid, one
// slice per velocity slot of a batch, the host's copies of the moments (and the accelerator's
// history). Chooses the batch (`batch`: the slots swept at once) so that it fits; throws
// bolt::Error when not even one warp's slices do. Collective.
MemoryPlan check_iterative_plan(MPI_Comm comm, const CaseSetup& setup, int velocity_lo,
                                int velocity_count, int ranks_per_node, std::int64_t& batch);

}  // namespace bolt
