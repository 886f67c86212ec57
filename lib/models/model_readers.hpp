#pragma once
// The registry's side that reads PETSc's options database (host code only: it needs MPI; the
// registry itself, model_registry.hpp, does not).
#include <mpi.h>

#include <memory>
#include <string_view>

#include "collision_model.hpp"
#include "core/option_reader.hpp"

namespace bolt {

// The model `name` with its options from PETSc's options database. The options of the other
// families are read as well (once each, each family's under an OptionUseScope naming its
// models): -help lists them all, and reject_options_of_other_choices refuses one that was given
// for another model, except from a case file made for that model that the command line switched
// (-model_type bgk on an hs_mc case). hs_mc names the relaxation options that would change what
// it computes (a body force) itself.
std::shared_ptr<const CollisionModel> read_collision_model(MPI_Comm comm, std::string_view name);

// The models whose target takes -model_prandtl (BGK's gives Pr = 1): the runs it is for, so that
// it is refused, not ignored, with another.
OptionUse prandtl_use();

}  // namespace bolt
