#pragma once
// The explicit split time march (papers 000, 002, 003) as a registry entry (solver_registry.cpp).
#include <mpi.h>

#include <memory>

#include "solver/solver_type.hpp"

namespace bolt {

// The march's options are the -ts_ and -stream_ options of the case (case/run_options.hpp),
// which also choose the time step; it reads none of its own.
std::shared_ptr<const SolverType> read_explicit_solver(MPI_Comm comm);

}  // namespace bolt
