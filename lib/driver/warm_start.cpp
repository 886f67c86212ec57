#include "driver/warm_start.hpp"

#include <petscsys.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "case/case_setup.hpp"
#include "core/error.hpp"
#include "decomposition/partition.hpp"
#include "diagnostics/field_access.hpp"
#include "driver/parallel_setup.hpp"
#include "grid/velocity_grid.hpp"
#include "kernels/maxwellian.hpp"
#include "solver/iterative/iterative_plan.hpp"
#include "solver/iterative/iterative_steady.hpp"
#include "solver/solver_type.hpp"

namespace bolt {

namespace {

// The most iterations the warm start may take: with Anderson (and the synthetic correction at
// large delta) the cavities converge in tens; a case that needs thousands is better started
// from rest.
constexpr int kMostIterations = 2000;

// The least delta at which the warm start adds the synthetic correction to Anderson. It saves
// sweeps, which Anderson alone needs more of as delta grows, and costs a linear solve per sweep:
// on the hs_mc inputs' planes it breaks even at delta = 10 on 64^2 cells and wins from 20 on
// 64^2 and 128^2 (docs/validation.md, "Where the time to the answer goes"); in 3-D at delta =
// 8.9 it paid on the cube and only broke even on the cavity (docs/benchmarks.md), so one
// threshold serves all.
constexpr double kSyntheticFromDelta = 20.0;

struct PartitionGuard {
  Partition partition;
  ~PartitionGuard() { free_partition(partition); }
};

// The model run: the run's grids, gas, walls and backend with the model equation in place of the
// run's model, in double, its velocities split over the ranks.
RunOptions model_run_options(const RunOptions& run) {
  RunOptions model = run;
  model.model = default_model(run.initial.steady_model);
  model.precision = Precision::double_;
  model.decomposition = DecompositionKind::automatic;
  model.velocity_ranks = 0;
  model.initial.steady_model.clear();
  // The model's state only starts the run: what the velocity grid misses of its Maxwellians'
  // energy (the time march's -vgrid_tolerance check of a non-conservative relaxation) costs the
  // run a slightly longer transient, not accuracy.
  model.velocity_tolerance = 1.0;
  return model;
}

// Density and temperature of the equilibrium at rest, n = T = 1, as the velocity grid's sums
// give them (n_d = sum w Phi0, T_d = (2/3) sum w Phi0 |xi|^2 / n_d; about 1 - 4.4e-3 and
// 1 + 6e-4 on the 20^3 stretched grid of the cavities).
std::pair<double, double> discrete_equilibrium(const VelocityGrid& velocities) {
  double n = 0.0, energy = 0.0;
  for (int v = 0; v < velocities.size(); ++v) {
    double xi2 = 0.0;
    for (int a = 0; a < 3; ++a) xi2 += velocities.xi[a][v] * velocities.xi[a][v];
    const double f = velocities.weight[v] * std::exp(-xi2) / std::pow(kPi, 1.5);
    n += f;
    energy += f * xi2;
  }
  return {n, 2.0 * energy / (3.0 * n)};
}

// The steady fields as the initial state's fields: the gas of every cell at its centre, with its
// stress and heat flux. The fields are the grid's sums; the initial state evaluates Maxwellians
// of the given n and T on the grid, which multiplies them by the grid's n_d and T_d once more.
// Dividing by them makes the initial state's sums the model's (to O(|T - 1| (T_d - 1))): without
// it the run would start with 2 (n_d - 1) too little mass and 2 (T_d - 1) too much energy per
// particle, which its walls remove only over the slow thermal time (D 0.4 % low at delta = 1).
std::shared_ptr<const InitialFields> as_initial_fields(const CaseSetup& setup,
                                                       const std::vector<double>& fields) {
  const PhysicalGrid& grid = setup.engine.grid;
  const auto [n_d, T_d] = discrete_equilibrium(setup.engine.velocities);
  std::array<std::vector<double>, 3> centres, widths;
  for (int a = 0; a < 3; ++a) {
    centres[a] = grid.axes[a].centres;
    widths[a] = grid.axes[a].widths;
  }
  const FieldView view{fields, grid};
  std::vector<unsigned char> fluid;
  std::vector<FieldsGas> gas;
  for (int k = 0; k < grid.cells(2); ++k)
    for (int j = 0; j < grid.cells(1); ++j)
      for (int i = 0; i < grid.cells(0); ++i) {
        const bool is_gas = setup.geometry.fluid(i, j, k);
        fluid.push_back(is_gas ? 1 : 0);
        FieldsGas cell{1.0, {0.0, 0.0, 0.0}, 1.0};
        if (is_gas) {
          const double n = view.at(i, j, k, kN), T = view.at(i, j, k, kT), p = n * T;
          cell.n = n / n_d;
          cell.T = T / T_d;
          for (int a = 0; a < 3; ++a) {
            cell.u[a] = view.at(i, j, k, Field(kUx + a));
            cell.heat[a] = view.at(i, j, k, Field(kQx + a));
            // The field array holds sum w f c_i c_j, half of P_ij in p0 (hdf5_fields.cpp).
            cell.stress[a] = 2.0 * view.at(i, j, k, Field(kPxx + a)) - p;
            cell.stress[3 + a] = 2.0 * view.at(i, j, k, Field(kPxy + a));
          }
        }
        gas.push_back(cell);
      }
  return std::make_shared<const InitialFields>(std::move(centres), std::move(widths),
                                               std::move(fluid), std::move(gas));
}

}  // namespace

InitialState steady_model_initial(MPI_Comm comm, const RunOptions& run,
                                  const NodePlacement& placement) {
  const double start = MPI_Wtime();
  const std::string& name = run.initial.steady_model;
  const CaseSetup setup = make_case_setup(model_run_options(run));
  // Grad's distribution (InitialMaxwellian::grad_factor) and the grid's n_d, T_d are those of
  // the full set: a reduced set's h nodes would need their own.
  require(!setup.engine.velocities.is_reduced(), "-init_steady_model ", name,
          ": the warm start starts from Grad's distribution on the full 3-D velocity space; "
          "this run's is reduced (-vgrid_reduce ",
          reduction_name(setup.engine.velocities.reduced), "): give -vgrid_reduce none");
  const std::string refusal = iterative_refusal(setup.run, setup);
  require(refusal.empty(), "-init_steady_model ", name, ": ", refusal);

  // Anderson, with the synthetic correction where it pays: the fastest of the iterative
  // solver's paths on the cavities (docs/benchmarks.md), tens of sweeps from rest at every delta.
  IterationOptions options;
  options.tolerance = run.initial.steady_tolerance;
  options.max_iterations = kMostIterations;
  options.accelerator = Accelerator::anderson;
  options.synthetic = setup.run.gas.delta >= kSyntheticFromDelta;
  PartitionRequest request = case_partition_request(setup);
  request.kind = DecompositionKind::velocity;
  const PartitionGuard owned{make_partition(comm, request)};
  const Partition& partition = owned.partition;
  std::int64_t batch = 0;
  check_iterative_plan(comm, setup, options, partition.velocity_lo, partition.velocity_count,
                       placement.ranks, PlanOutput::print, batch);
  if (run.dry_run) return run.initial;
  IterativeSteady solver(setup, options, partition,
                         make_communicator(setup.run, partition, placement),
                         batch);
  int iterations = 0;
  solver.march([&] { return kMostIterations - iterations; },
               [&](int taken) {
                 iterations += taken;
                 return !solver.converged(solver.residual({}, {}, taken));
               },
               [] { return false; });
  const double change = solver.residual({}, {}, 0);
  require(solver.converged(change), "-init_steady_model ", name, ": the iterative solver did not ",
          "reach -init_steady_tol ", options.tolerance, " in ", iterations,
          " iterations (last relative change ", change, ")");
  DomainView& domain = solver.domain();
  const std::vector<double> fields = domain.gather_fields(domain.local_fields());

  InitialState initial = run.initial;
  initial.kind = InitKind::fields;
  initial.fields_file = "the " + name + " steady state (-init_steady_model)";
  initial.fields = as_initial_fields(setup, fields);
  initial.steady_model.clear();
  PetscPrintf(comm,
              "bolt: warm start: the %s steady state in %d iterations (Anderson%s, relative "
              "change %.2e), %.2f s; the run starts from its 13 moments (Grad)\n",
              name.c_str(), iterations, options.synthetic ? " and the synthetic correction" : "",
              change, MPI_Wtime() - start);
  return initial;
}

}  // namespace bolt
