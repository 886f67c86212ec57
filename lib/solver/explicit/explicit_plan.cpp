#include "solver/explicit/explicit_plan.hpp"

#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "core/backend.hpp"
#include "core/error.hpp"
#include "kernels/views.hpp"
#include "solver/explicit/step_costs.hpp"

namespace bolt {

namespace {

// Rank 0's lines of the plan: the largest rank's f, device (or arrays) and host bytes, the least
// free memory, and on a GPU the expected time per step.
void print_plan(MPI_Comm comm, const CaseSetup& setup, const double largest[3], int ranks,
                double device_free, double host_free) {
  const RunOptions& run = setup.run;
  const bool gpu = run.backend == Backend::cuda;
  const double updates =
      double(setup.engine.grid.interior_cells()) * setup.engine.velocities.size();
  PetscPrintf(comm,
              "bolt: plan: %.4g phase-space cells on %d rank(s); per rank (largest): f %s, %s %s, "
              "host %s\n",
              updates, ranks, gib(largest[0]).c_str(), gpu ? "GPU" : "arrays",
              gib(largest[1]).c_str(), gib(largest[2]).c_str());
  if (gpu) {
    const double ms = 1e-9 * updates / ranks *
                      step_cost_ps(run.model->name(), run.precision == Precision::single);
    PetscPrintf(comm,
                "bolt: plan: free per rank: GPU %s, host %s; about %.3g ms per step on an "
                "H100/H200 at the measured rate of -model_type %s (docs/benchmarks.md)\n",
                gib(device_free).c_str(), gib(host_free).c_str(), ms,
                std::string(run.model->name()).c_str());
  } else {
    PetscPrintf(comm, "bolt: plan: free host memory per rank %s\n", gib(host_free).c_str());
  }
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
    // A checkpoint's f of the boxes, in double, and the stored state beside it where the model's
    // is not f (CollisionModel::stored_variable).
    state += cells * nv * 8.0 * (e.model->stored_variable().empty() ? 1.0 : 2.0);
  }
  // The fields of the rank's boxes and of the whole grid (every rank gathers them).
  const double fields = (double(setup.engine.grid.interior_cells()) +
                         [&] {
                           double own = 0.0;
                           for (const EngineConfig& e : locals) own += e.grid.interior_cells();
                           return own;
                         }()) *
                        kFieldsPerCell * 8.0;
  // The peak is a checkpoint: the f of every box in double, while a GPU run's last box's padded
  // copy is fetched (Engine::copy_state; the host's f is read in place). (Setting the state of a
  // GPU run stages one padded box: less.)
  const bool gpu = setup.run.backend == Backend::cuda;
  plan.host_bytes = state + (gpu ? largest_box : 0.0) + fields;
  return plan;
}

MemoryPlan check_plan(MPI_Comm comm, const CaseSetup& setup,
                      const std::vector<EngineConfig>& locals, int ranks_per_node,
                      PlanOutput output) {
  const RunOptions& run = setup.run;
  const bool gpu = run.backend == Backend::cuda;
  MemoryPlan plan = plan_memory(setup, locals);
  plan.host_before = host_resident_bytes();
  plan.host_peak_before = host_peak_bytes();
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
  double host_free = host_available_bytes(ranks_per_node);
  MPI_Allreduce(MPI_IN_PLACE, &device_free, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &host_free, 1, MPI_DOUBLE, MPI_MIN, comm);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);

  if (output == PlanOutput::print) print_plan(comm, setup, largest, ranks, device_free, host_free);

  const PhysicalGrid& grid = setup.engine.grid;
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
    fail(size, "the run needs ", gib(largest[1]), " of GPU memory per rank (f ", gib(largest[0]),
         "), ", gib(device_free), " are free", advice(largest[1], device_free));
  const double host_need = gpu ? largest[2] : largest[1] + largest[2];
  if (host_free > 0.0 && host_need > 0.97 * host_free)
    fail(size, "the run needs ", gib(host_need), " of host memory per rank, ", gib(host_free),
         " are available per rank on the node", advice(host_need, host_free));
  return plan;
}

}  // namespace bolt
