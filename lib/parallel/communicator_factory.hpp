#pragma once
// The communicators of a run (communicator.hpp), made from its MPI communicators. Host code only:
// it needs MPI, which the engines' CUDA translation units must not include.
#include <mpi.h>

#include <memory>

#include "communicator.hpp"

namespace bolt {

// `world` holds every rank; `velocity_group` the ranks owning this rank's cells.
std::unique_ptr<Communicator> make_mpi_communicator(MPI_Comm world, MPI_Comm velocity_group);
#ifdef BOLT_HAVE_CUDA
// Collective over `world`: every rank must be bound to its GPU before the call.
std::unique_ptr<Communicator> make_nccl_communicator(MPI_Comm world, MPI_Comm velocity_group);
// MPI through host copies of device buffers: for ranks that share a GPU, which NCCL refuses.
std::unique_ptr<Communicator> make_staged_communicator(MPI_Comm world, MPI_Comm velocity_group);
#endif

}  // namespace bolt
