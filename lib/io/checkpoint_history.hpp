#pragma once
// The history a checkpoint carries beside the state (/history/<name>, one double array each):
// written by rank 0 inside the checkpoint's collective write, read back by every rank, and
// hashed into the header's checksum so that a damaged history is refused like a damaged header.
#include <cstdint>
#include <string>

#include <hdf5.h>
#include <mpi.h>

#include "checkpoint.hpp"

namespace bolt {

// Collective over the ranks that opened `file`; every rank passes the same history.
void write_checkpoint_history(MPI_Comm comm, hid_t file, const std::string& path,
                              const CheckpointHistory& history);
CheckpointHistory read_checkpoint_history(hid_t file, const std::string& path);
// The bytes the header checksum covers: every name and its values.
std::string history_bytes(const CheckpointHistory& history);

}  // namespace bolt
