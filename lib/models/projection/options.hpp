#pragma once
// The reader of the projection method's options (-projection_) from PETSc's options database:
// host code only (the registry, the run's options). Kept out of model.hpp so that no MPI header
// reaches the headers a .cu file includes.
#include <mpi.h>

#include <memory>

#include "models/collision_model.hpp"

namespace bolt {

std::shared_ptr<const CollisionModel> read_projection_model(MPI_Comm comm);

}  // namespace bolt
