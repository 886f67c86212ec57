#include "preflight.hpp"

#include <omp.h>
#include <petscsys.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "core/backend.hpp"
#include "core/error.hpp"
#include "iterative_steady.hpp"
#include "kernels/macroscopic.hpp"
#include "kernels/views.hpp"
#include "solver/sweep_engine.hpp"
#include "solver/synthetic_correction.hpp"

namespace bolt {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr int kFieldsPerCell = 14;  // n, u, T, P, q (kernels/cell_moments.hpp)

// The node's available memory (MemAvailable of /proc/meminfo), 0 when unknown.
double host_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0.0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024.0;
    meminfo.ignore(256, '\n');
  }
  return 0.0;
}

std::string gib(double bytes) {
  std::ostringstream out;
  out.precision(bytes < 10.0 * kGiB ? 3 : 4);
  out << bytes / kGiB << " GiB";
  return out.str();
}

}  // namespace

MemoryPlan plan_memory(const CaseSetup& setup, const std::vector<EngineConfig>& locals) {
  MemoryPlan plan;
  const bool single = setup.run.precision == Precision::single;
  const double real = single ? 4.0 : 8.0;
  const int all_velocities = setup.engine.velocities.size();
  double largest_box = 0.0, state = 0.0;
  for (const EngineConfig& e : locals) {
    const int nv = e.velocity_count > 0 ? e.velocity_count : all_velocities;
    const int row = single ? row_stride<float>(nv) : row_stride<double>(nv);
    const double padded = double(e.grid.padded_cells()), cells = double(e.grid.interior_cells());
    const double f = 2.0 * padded * row * real;
    double halos = 0.0;
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        for (const FaceSegmentConfig& segment : e.segments[a][s]) {
          if (segment.peer < 0) continue;
          const double positions =
              segment.count[0] == 0 && segment.count[1] == 0
                  ? double(e.grid.padded((a + 1) % 3)) * e.grid.padded((a + 2) % 3)
                  : double(segment.count[0]) * segment.count[1];
          halos += 2.0 * positions * e.grid.ghost * nv * real;  // send and receive
        }
    const double sums = nv < all_velocities ? cells * double(kRawMoments) * 8.0 : 0.0;
    const double tables = 16.0 * nv * real;  // streaming and velocity tables, face values
    plan.f_bytes += f;
    plan.device_bytes += f + cells * double(kRawMoments) * 8.0 + sums + halos + tables +
                         e.model->operator_bytes(e.grid.interior_cells());
    largest_box = std::max(largest_box, padded * row * real);
    state += cells * nv * 8.0;  // a checkpoint's f of the boxes, in double
  }
  // The fields of the rank's boxes and of the whole grid (every rank gathers them).
  const double fields = (double(setup.engine.grid.interior_cells()) +
                         [&] {
                           double own = 0.0;
                           for (const EngineConfig& e : locals) own += e.grid.interior_cells();
                           return own;
                         }()) *
                        kFieldsPerCell * 8.0;
  // The peak is a checkpoint: the f of every box in double, while the last box's padded copy is
  // fetched (Engine::state). (Setting the state of a GPU run stages one padded box: less.)
  plan.host_bytes = state + largest_box + fields;
  return plan;
}

double host_peak_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) * 1024.0;  // kilobytes on Linux
}

MemoryPlan check_plan(MPI_Comm comm, const CaseSetup& setup,
                      const std::vector<EngineConfig>& locals, int ranks_per_node) {
  const RunOptions& run = setup.run;
  const bool gpu = run.backend == Backend::cuda;
  MemoryPlan plan = plan_memory(setup, locals);
  plan.host_before = host_peak_bytes();
  if (gpu) {
    const DeviceMemory device = cuda_device_memory();
    plan.device_before = device.total_bytes - device.free_bytes;
  }
  // The largest rank's needs and the least free memory.
  double largest[3] = {plan.f_bytes, plan.device_bytes, plan.host_bytes};
  MPI_Allreduce(MPI_IN_PLACE, largest, 3, MPI_DOUBLE, MPI_MAX, comm);
  double total_f = plan.f_bytes;
  MPI_Allreduce(MPI_IN_PLACE, &total_f, 1, MPI_DOUBLE, MPI_SUM, comm);
  double device_free = gpu ? cuda_device_memory().free_bytes : 0.0;
  double host_free = host_available_bytes() / std::max(ranks_per_node, 1);
  MPI_Allreduce(MPI_IN_PLACE, &device_free, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &host_free, 1, MPI_DOUBLE, MPI_MIN, comm);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);

  const PhysicalGrid& grid = setup.engine.grid;
  const double updates = double(grid.interior_cells()) * setup.engine.velocities.size();
  PetscPrintf(comm,
              "bolt: plan: %.4g phase-space cells on %d rank(s); per rank (largest): f %s, %s %s, "
              "host %s\n",
              updates, ranks, gib(largest[0]).c_str(), gpu ? "GPU" : "arrays",
              gib(largest[1]).c_str(), gib(largest[2]).c_str());
  if (gpu) {
    const double ms = 1e-9 * updates / ranks *
                      run.model->gpu_ps_per_update(run.precision == Precision::single);
    PetscPrintf(comm,
                "bolt: plan: free per rank: GPU %s, host %s; about %.3g ms per step on an "
                "H100/H200 at the measured rate of -model_type %s (docs/benchmarks.md)\n",
                gib(device_free).c_str(), gib(host_free).c_str(), ms,
                std::string(run.model->name()).c_str());
  } else {
    PetscPrintf(comm, "bolt: plan: free host memory per rank %s\n", gib(host_free).c_str());
  }

  // What would fit: more ranks share f (space, or velocity batches), float halves it.
  const auto advice = [&](double needed, double free) {
    std::ostringstream out;
    const double factor = needed / std::max(free, 1.0);
    out << " -- about " << int(std::ceil(factor * ranks)) << " ranks of this size would hold it "
        << "(-decomp space or velocity)";
    if (run.precision == Precision::double_) out << ", or -precision float (f in half the memory)";
    return out.str();
  };
  // 3 % of the free memory stays for the launch's own buffers (NCCL, the CUDA context).
  const std::string size = "-grid_n " + std::to_string(grid.cells(0)) + "," +
                           std::to_string(grid.cells(1)) + "," + std::to_string(grid.cells(2)) +
                           " with " + std::to_string(setup.engine.velocities.size()) +
                           " velocities: ";
  if (gpu && device_free > 0.0 && largest[1] > 0.97 * device_free)
    fail(size, "the run needs ", gib(largest[1]), " of GPU memory per rank (f ",
         gib(largest[0]), "), ", gib(device_free), " are free", advice(largest[1], device_free));
  const double host_need = gpu ? largest[2] : largest[1] + largest[2];
  if (host_free > 0.0 && host_need > 0.97 * host_free)
    fail(size, "the run needs ", gib(host_need), " of host memory per rank, ", gib(host_free),
         " are available per rank on the node", advice(host_need, host_free));
  return plan;
}

MemoryPlan check_iterative_plan(MPI_Comm comm, const CaseSetup& setup, int velocity_lo,
                                int velocity_count, int ranks_per_node, std::int64_t& batch) {
  const RunOptions& run = setup.run;
  const bool gpu = run.backend == Backend::cuda;
  const PhysicalGrid& grid = setup.engine.grid;
  const VelocityGrid& vg = setup.engine.velocities;
  MemoryPlan plan;
  plan.host_before = host_peak_bytes();
  const DeviceMemory device = gpu ? cuda_device_memory() : DeviceMemory{};
  plan.device_before = device.total_bytes - device.free_bytes;
  const std::int64_t slots = sweep_slot_count(grid, vg, velocity_lo, velocity_count);
  // The fixed arrays, with the copies of the sums the GPU's warps add into.
  const double fixed = sweep_fixed_bytes(grid, vg.size(), run.precision,
                                         sweep_sum_copies(run.backend, grid),
                                         !setup.geometry.solids.empty());
  const double per_slot = sweep_slice_bytes(grid, run.precision);
  double device_free = gpu ? device.free_bytes : host_available_bytes() / std::max(ranks_per_node, 1);
  MPI_Allreduce(MPI_IN_PLACE, &device_free, 1, MPI_DOUBLE, MPI_MIN, comm);
  // A batch of every slot where it fits in 90 % of what is free beside the fixed arrays; else
  // as many whole warps as do (-iter_batch sets it).
  batch = run.iteration.batch > 0 ? std::min<std::int64_t>(run.iteration.batch, slots) : slots;
  if (gpu && run.iteration.batch == 0 && device_free > 0.0) {
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
  const Accelerator accelerator = run.iteration.accelerator;
  const double work = accelerator == Accelerator::anderson ? 15.0
                      : accelerator == Accelerator::ngmres ? 16.0
                                                           : 3.0;
  const double vectors =
      work + (accelerator == Accelerator::none ? 0.0 : 2.0 * run.iteration.history);
  const double sums = sweep_sums_bytes(grid, !setup.geometry.solids.empty());
  plan.host_bytes = cells *
                        (vectors * double(kRawMoments) + 2.0 * kFieldsPerCell +
                         IterativeSteady::kStateColumns) *
                        8.0 +
                    (gpu ? 1.0 : 1.0 + omp_get_max_threads()) * sums +
                    (run.iteration.synthetic ? synthetic_correction_bytes(grid) : 0.0);
  PetscPrintf(comm,
              "bolt: plan (iterative): %.4g phase-space cells, f never stored; per rank: moments "
              "and targets %s, slices %s (%lld of %lld velocity slots per batch), host %s; free "
              "%s %s\n",
              cells * vg.size(), gib(fixed).c_str(), gib(slices).c_str(), (long long)batch,
              (long long)slots, gib(plan.host_bytes).c_str(), gpu ? "GPU" : "host",
              gib(device_free).c_str());
  const double least = gpu ? fixed + 32.0 * per_slot : fixed + slices;
  if (device_free > 0.0 && (batch < 32 || least > 0.97 * device_free))
    fail("-grid_n ", grid.cells(0), ",", grid.cells(1), ",", grid.cells(2), " with ", vg.size(),
         " velocities: the iterative solver needs ", gib(least), " per rank (moments, targets and "
         "one warp of slices), ", gib(device_free), " are free -- a coarser grid, or -precision float");
  return plan;
}

}  // namespace bolt
