#include "solver/iterative/iterative_plan.hpp"

#include <omp.h>
#include <petscsys.h>

#include <algorithm>
#include <string>

#include "core/backend.hpp"
#include "core/error.hpp"
#include "kernels/macroscopic.hpp"
#include "solver/iterative/iterative_steady.hpp"
#include "solver/iterative/sweep_engine.hpp"
#include "solver/iterative/synthetic_correction.hpp"

namespace bolt {

MemoryPlan check_iterative_plan(MPI_Comm comm, const CaseSetup& setup,
                                const IterationOptions& options, int velocity_lo,
                                int velocity_count, int ranks_per_node, PlanOutput output,
                                std::int64_t& batch) {
  const RunOptions& run = setup.run;
  const bool gpu = run.backend == Backend::cuda;
  const PhysicalGrid& grid = setup.engine.grid;
  const VelocityGrid& vg = setup.engine.velocities;
  MemoryPlan plan;
  plan.host_before = host_resident_bytes();
  plan.host_peak_before = host_peak_bytes();
  const DeviceMemory device = gpu ? cuda_device_memory() : DeviceMemory{};
  plan.device_before = device.total_bytes - device.free_bytes;
  const std::int64_t slots = sweep_slot_count(grid, vg, velocity_lo, velocity_count);
  // The fixed arrays, with the copies of the sums the GPU's warps add into.
  const double fixed =
      sweep_fixed_bytes(grid, vg.size(), run.precision, sweep_sum_copies(run.backend, grid),
                        !setup.geometry.solids.empty());
  const double per_slot = sweep_slice_bytes(grid, run.precision, run.order);
  double device_free =
      gpu ? device.free_bytes : host_available_bytes(ranks_per_node);
  MPI_Allreduce(MPI_IN_PLACE, &device_free, 1, MPI_DOUBLE, MPI_MIN, comm);
  // A batch of every slot where it fits in 90 % of what is free beside the fixed arrays; else
  // as many whole warps as do (-iter_batch sets it).
  batch = options.batch > 0 ? std::min<std::int64_t>(options.batch, slots) : slots;
  if (gpu && options.batch == 0 && device_free > 0.0) {
    const double room = 0.9 * device_free - fixed;
    const std::int64_t fit = room > 0.0 ? std::int64_t(room / per_slot) / 32 * 32 : 0;
    batch = std::min(slots, fit);
  }
  // The CPU backend's threads hold a slice each.
  const double slices = gpu ? double(batch) * per_slot : per_slot * 64.0;
  plan.device_bytes = fixed + slices;
  plan.f_bytes = 0.0;
  // The host keeps the moments (state, next, the accelerator's vectors), a sweep's sums as
  // downloaded (on the CPU also each thread's partial sums), the fields, a checkpoint's columns
  // (a signal may ask for one at any sweep), and the synthetic correction's matrices. PETSc's
  // accelerators keep two vectors per iterate of their history and work vectors of their own: 9
  // more for SNESANDERSON, 10 for SNESNGMRES (PETSc 3.18, measured by the host peak of the cube
  // at 96 x 64 x 64 cells on the CPU).
  const double cells = double(grid.interior_cells());
  const Accelerator accelerator = options.accelerator;
  const double work = accelerator == Accelerator::anderson ? 15.0
                      : accelerator == Accelerator::ngmres ? 16.0
                                                           : 3.0;
  const double vectors = work + (accelerator == Accelerator::none ? 0.0 : 2.0 * options.history);
  const double sums = sweep_sums_bytes(grid, !setup.geometry.solids.empty());
  plan.host_bytes =
      cells *
          (vectors * double(kRawMoments) + 2.0 * kFieldsPerCell + IterativeSteady::kStateColumns) *
          8.0 +
      (gpu ? 1.0 : 1.0 + omp_get_max_threads()) * sums +
      (options.synthetic ? synthetic_correction_bytes(grid) : 0.0);
  if (output == PlanOutput::print)
    PetscPrintf(comm,
                "bolt: plan (iterative): %.4g phase-space cells, f never stored; per rank: "
                "moments and targets %s, slices %s (%lld of %lld velocity slots per batch), host "
                "%s; free %s %s\n",
                cells * vg.size(), gib(fixed).c_str(), gib(slices).c_str(), (long long)batch,
                (long long)slots, gib(plan.host_bytes).c_str(), gpu ? "GPU" : "host",
                gib(device_free).c_str());
  const double least = gpu ? fixed + 32.0 * per_slot : fixed + slices;
  if (device_free > 0.0 && (batch < 32 || least > 0.97 * device_free))
    fail("-grid_n ", grid.cells(0), ",", grid.cells(1), ",", grid.cells(2), " with ", vg.size(),
         " velocities: the iterative solver needs ", gib(least),
         " per rank (moments, targets and "
         "one warp of slices), ",
         gib(device_free), " are free -- a coarser grid, or -precision float");
  // The host holds the moments, the sums and the synthetic correction's matrices (on the CPU
  // also the targets and slices): checked as the explicit plan checks its own.
  double host_free = gpu ? host_available_bytes(ranks_per_node) : device_free;
  if (gpu) MPI_Allreduce(MPI_IN_PLACE, &host_free, 1, MPI_DOUBLE, MPI_MIN, comm);
  const double host_need = plan.host_bytes + (gpu ? 0.0 : plan.device_bytes);
  if (host_free > 0.0 && host_need > 0.97 * host_free)
    fail("-grid_n ", grid.cells(0), ",", grid.cells(1), ",", grid.cells(2), " with ", vg.size(),
         " velocities: the iterative solver needs ", gib(host_need),
         " of host memory per rank (moments", options.synthetic ? ", the synthetic correction" : "",
         "), ", gib(host_free), " are available per rank on the node -- a coarser grid",
         options.synthetic ? ", or -iter_synthetic false" : "");
  return plan;
}

}  // namespace bolt
