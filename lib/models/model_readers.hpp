#pragma once
// The registry's side that reads PETSc's options database (host code only: it needs MPI; the
// registry itself, model_registry.hpp, does not).
#include <mpi.h>

#include <memory>
#include <string_view>

#include "collision_model.hpp"

namespace bolt {

// The model `name` with its options from PETSc's options database. The options of the other
// families are read as well (once each, unchecked): -help lists them all, and a case file made
// for one model runs with another given on the command line (-model_type bgk on an hs_mc case).
// A model refuses another family's options that would change what it computes (hs_mc: a body
// force).
std::shared_ptr<const CollisionModel> read_collision_model(MPI_Comm comm, std::string_view name);

}  // namespace bolt
