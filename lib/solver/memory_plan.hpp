#pragma once
// The pre-run plan: before the phase space is allocated, what this run will take per rank --
// bytes of the device (the GPU, or the host for the CPU backend) and of the host -- printed, and
// checked against the free memory, so that a run that does not fit stops with the numbers and
// what would fit, not with an out-of-memory error from the allocation. Each solver makes its
// plan (SolverType::plan); -dry_run stops after it. These are the pieces they share.
#include <algorithm>
#include <string>

namespace bolt {

struct MemoryPlan {
  double f_bytes = 0.0;       // the two copies of f (padded)
  double device_bytes = 0.0;  // everything on the device (GPU runs) or in the arrays (CPU runs)
  double host_bytes = 0.0;    // peak of the host's own copies (set-up, checkpoints, fields)
  // What the process uses when the plan is made: the GPU's memory in use (the CUDA context,
  // NCCL's buffers) and the host's resident set (libraries, options, grids); and the host's peak
  // so far, which a warm start's solve, freed before the plan, may have set.
  double device_before = 0.0, host_before = 0.0, host_peak_before = 0.0;
  // The plan's peaks, comparable with what the run measures (summary "memory": the process's
  // peak, whichever of the run and what came before it set it).
  double device_peak() const { return device_before + device_bytes; }
  double host_peak(bool gpu) const {
    return std::max(host_peak_before, host_before + host_bytes + (gpu ? 0.0 : device_bytes));
  }
};

// Whether a plan prints its lines, or only refuses a run that does not fit: the main run's plan
// checked ahead of a warm start (driver/simulation.cpp), which is planned and printed again
// after it.
enum class PlanOutput { print, quiet };

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr int kFieldsPerCell = 14;  // n, u, T, P, q (kernels/cell_moments.hpp)

// The peak resident set of this process so far, in bytes.
double host_peak_bytes();
// The resident set of this process now, in bytes.
double host_resident_bytes();
// The host memory one of `ranks_per_node` ranks may take: its share of the node's available
// memory (MemAvailable of /proc/meminfo), at most what a limit of the address space (ulimit -v)
// leaves this process; 0 when unknown.
double host_available_bytes(int ranks_per_node);
// "1.23 GiB".
std::string gib(double bytes);

}  // namespace bolt
