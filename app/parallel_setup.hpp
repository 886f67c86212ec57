#pragma once
// What a run does once per rank before the engine exists: bind the rank to its GPU, choose the
// decomposition, and make the communicator that moves halos and moment sums.
#include <mpi.h>

#include <memory>

#include "decomposition/partition.hpp"
#include "io/case_setup.hpp"
#include "parallel/communicator.hpp"

namespace bolt {

// CUDA backend: the node-local rank picks the GPU (more ranks than GPUs on a node is an error
// unless -gpu_share). Prints the rank -> host -> GPU map on rank 0. Collective.
void bind_ranks_to_gpus(MPI_Comm comm, const RunOptions& run);

PartitionRequest partition_request(const CaseSetup& setup);

// nullptr on one rank (nothing to move).
std::shared_ptr<Communicator> make_communicator(const RunOptions& run, const Partition& partition);

// The engine configuration of this rank's box and velocity batch.
EngineConfig local_engine_config(const CaseSetup& setup, const Partition& partition,
                                 std::shared_ptr<Communicator> communicator);

}  // namespace bolt
