#pragma once
// The reader of hs_mc's options (-mc_) from PETSc's options database: host code only (the
// registry, the run's options). Kept out of model.hpp so that no MPI header reaches the headers
// a .cu file includes.
#include <mpi.h>

#include <memory>

#include "models/collision_model.hpp"

namespace bolt {

// `chosen`: hs_mc is the run's model, and refuses the relaxation models' body force and
// conservative equilibrium (it has neither).
std::shared_ptr<const CollisionModel> read_mc_model(MPI_Comm comm, bool chosen);

}  // namespace bolt
