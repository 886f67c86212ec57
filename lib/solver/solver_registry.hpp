#pragma once
// The solvers by name (-solver), in one place (as PETSc's TSRegisterAll): each entry names a
// solver, says what it is and reads its options into its SolverType. A new solver is its files
// plus one entry in solver_registry.cpp.
#include <mpi.h>

#include <memory>

#include "solver/solver_type.hpp"

namespace bolt {

// The solver chosen by -solver, with its options. Every solver's options are read (once each,
// under an OptionUseScope naming the solver), so -help lists them all; one given for another
// solver is refused (reject_options_of_other_choices), except from a case file made for that
// solver that the command line switched.
std::shared_ptr<const SolverType> read_solver_type(MPI_Comm comm);

}  // namespace bolt
