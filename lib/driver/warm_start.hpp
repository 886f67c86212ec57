#pragma once
// The warm start (-init_steady_model shakhov|bgk): before the run, the steady state of a model
// equation with the run's viscosity (delta, omega), on the run's spatial and velocity grids and
// its backend, is found by the iterative solver of paper 004 in this process, and the run starts
// from it. The iterative solver keeps moments, never f, so the run starts from Grad's 13-moment
// distribution of the model's steady moments (n, u, T, the stress and the heat flux of every
// cell): the flow, its shear stress and heat flux are the model's at t = 0; what Grad's form
// misses (the Knudsen layers' higher moments) relaxes in a flight time across the domain or a
// few collision times, whichever is shorter. A restart never redoes it: the checkpoint replaces
// the initial state.
#include <mpi.h>

#include "case/run_options.hpp"

namespace bolt {

struct NodePlacement;  // driver/parallel_setup.hpp

// run.initial with the model's steady moments as its fields (InitKind::fields; the model solve
// starts from run.initial as given). Prints one line with the iterations and seconds it took.
// A dry run (-dry_run) checks and prints the model run's plan only and returns run.initial.
// Throws bolt::Error naming -init_steady_model when the iterative solver cannot run the case or
// does not reach -init_steady_tol. Collective.
InitialState steady_model_initial(MPI_Comm comm, const RunOptions& run,
                                  const NodePlacement& placement);

}  // namespace bolt
