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

// A rank's place on its node: the node's ranks (they share its memory), and whether ranks of
// the run share a GPU (-gpu_share).
struct NodePlacement {
  int ranks = 1;
  bool shared_gpus = false;
};

// CUDA backend: the node-local rank picks the GPU (two ranks of a node on one GPU is an error
// unless -gpu_share). Prints the rank -> host -> GPU (or CPU) map on rank 0, and a note where a
// rank's host work is held to fewer cores than its share of the node. Collective.
NodePlacement bind_ranks_to_gpus(MPI_Comm comm, const RunOptions& run);

// nullptr on one rank with one box (nothing to move). CUDA: NCCL, or MPI through host copies
// where ranks share a GPU (NCCL refuses two ranks on one device).
std::shared_ptr<Communicator> make_communicator(const RunOptions& run, const Partition& partition,
                                                const NodePlacement& placement);

}  // namespace bolt
