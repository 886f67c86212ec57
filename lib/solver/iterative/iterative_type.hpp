#pragma once
// The iterative steady solver of paper 004 as a registry entry (solver_registry.cpp).
#include <mpi.h>

#include <memory>

#include "solver/solver_type.hpp"

namespace bolt {

// Reads the -iter_ options.
std::shared_ptr<const SolverType> read_iterative_solver(MPI_Comm comm);

}  // namespace bolt
