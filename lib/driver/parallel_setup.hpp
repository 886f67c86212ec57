#pragma once
// What a run does once per rank before the solver exists: bind the rank to its GPU and make the
// communicator that moves halos and moment sums.
#include <mpi.h>

#include <memory>
#include <vector>

#include "decomposition/partition.hpp"
#include "case/case_setup.hpp"
#include "parallel/communicator.hpp"

namespace bolt {

// CUDA backend: the node-local rank picks the GPU (two ranks of a node on one GPU is an error
// unless -gpu_share). Prints the rank -> host -> GPU (or CPU) map on rank 0, and a note where a
// rank's host work is held to fewer cores than its share of the node. Collective.
void bind_ranks_to_gpus(MPI_Comm comm, const RunOptions& run);

// nullptr on one rank with one box (nothing to move).
std::shared_ptr<Communicator> make_communicator(const RunOptions& run, const Partition& partition);

}  // namespace bolt
