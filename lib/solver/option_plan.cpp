#include "solver/option_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "core/backend.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "grid/velocity_grid_size.hpp"
#include "solver/memory_plan.hpp"
#include "solver/solver_type.hpp"

namespace bolt {

namespace {

// A velocity in the tables every rank keeps (VelocityGrid: xi, weight, node and reflection
// indices), in the case's copy and the engines' (at least one).
constexpr double kVelocityTableBytes = 2.0 * (4 * 8.0 + 6 * 4.0);

std::string grid_option(const RunOptions& run) {
  return "-grid_n " + std::to_string(run.axes[0].cells) + "," + std::to_string(run.axes[1].cells) +
         "," + std::to_string(run.axes[2].cells);
}

std::string velocity_option(const RunOptions& run) {
  const auto& n = run.velocity_grid.nodes;
  return "-vgrid_n " + std::to_string(n[0]) + "," + std::to_string(n[1]) + "," +
         std::to_string(n[2]);
}

}  // namespace

PhaseSpaceSize phase_space_size(const RunOptions& run) {
  PhaseSpaceSize size;
  size.cells = checked_product({run.axes[0].cells, run.axes[1].cells, run.axes[2].cells},
                               grid_option(run));
  size.velocities = velocity_grid_size(run.velocity_grid);
  require(size.velocities <= std::numeric_limits<int>::max(), velocity_option(run), ": ",
          size.velocities, " velocities, more than the ", std::numeric_limits<int>::max(),
          " the kernels number");
  size.phase_space =
      checked_product({size.cells, size.velocities}, grid_option(run) + " with " + velocity_option(run));
  return size;
}

void check_option_plan(MPI_Comm comm, const RunOptions& run, int ranks_per_node) {
  const PhaseSpaceSize size = phase_space_size(run);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const bool gpu = run.backend == Backend::cuda;
  const double tables = kVelocityTableBytes * double(size.velocities);
  const double fields = double(size.cells) * kFieldsPerCell * 8.0;
  const double phase_space = run.solver->least_bytes(run, size, ranks);
  double free[2] = {host_available_bytes(ranks_per_node),
                    gpu ? cuda_device_memory().free_bytes : 0.0};
  MPI_Allreduce(MPI_IN_PLACE, free, 2, MPI_DOUBLE, MPI_MIN, comm);
  const double host_free = free[0], device_free = free[1];
  const std::string what = grid_option(run) + " with " + velocity_option(run) + " (" +
                           std::to_string(size.velocities) + " velocities, " +
                           std::to_string(size.phase_space) + " phase-space cells)";
  // 3 % of the free memory stays for the libraries' own buffers, as in the detailed plan.
  const auto fits = [](double need, double free) { return free <= 0.0 || need <= 0.97 * free; };
  require(fits(tables, host_free), velocity_option(run), ": the velocity tables alone need ",
          gib(tables), " of host memory on every rank, ", gib(host_free),
          " are available per rank; fewer velocities (-vgrid_n) are needed");
  require(fits(tables + fields, host_free), what, ": the fields of the whole grid, which every rank "
          "gathers, and the velocity tables need ", gib(tables + fields), " of host memory per rank, ",
          gib(host_free), " are available per rank; a coarser -grid_n is needed");
  const std::string advice =
      " -- more ranks (-decomp space or velocity) share it" +
      std::string(run.precision == Precision::double_ ? ", -precision float halves it" : "");
  if (gpu)
    require(fits(phase_space, device_free), what, ": the run needs at least ", gib(phase_space),
            " of GPU memory per rank on ", ranks, " rank(s), ", gib(device_free), " are free",
            advice);
  const double host = tables + fields + (gpu ? 0.0 : phase_space);
  require(fits(host, host_free), what, ": the run needs at least ", gib(host),
          " of host memory per rank on ", ranks, " rank(s), ", gib(host_free),
          " are available per rank", advice);
}

}  // namespace bolt
