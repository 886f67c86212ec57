#include <cuda_runtime.h>
#include <nccl.h>

#include "communicator.hpp"
#include "core/error.hpp"

namespace bolt {

namespace {

void check_nccl(ncclResult_t status, const char* what) {
  if (status != ncclSuccess) fail("NCCL ", what, " failed: ", ncclGetErrorString(status));
}

// One NCCL communicator over the ranks of an MPI communicator.
ncclComm_t make_nccl_comm(MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ncclUniqueId id;
  if (rank == 0) check_nccl(ncclGetUniqueId(&id), "unique id");
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm);
  ncclComm_t nccl = nullptr;
  check_nccl(ncclCommInitRank(&nccl, size, id, rank), "communicator set-up");
  return nccl;
}

// Kernels and NCCL calls share the default stream, so the messages see the packed halos and
// the kernels after them see the received ones without extra synchronisation.
class NcclCommunicator final : public Communicator {
 public:
  NcclCommunicator(MPI_Comm world, MPI_Comm group) {
    int group_size = 1;
    MPI_Comm_size(group, &group_size);
    world_ = make_nccl_comm(world);
    group_ = group_size > 1 ? make_nccl_comm(group) : nullptr;
  }
  ~NcclCommunicator() override {
    if (group_) ncclCommDestroy(group_);
    if (world_) ncclCommDestroy(world_);
  }

  void exchange(const std::vector<Message>& sends, const std::vector<Message>& receives) override {
    check_nccl(ncclGroupStart(), "group start");
    for (const Message& m : receives)
      check_nccl(ncclRecv(m.data, m.bytes, ncclUint8, m.peer, world_, nullptr), "receive");
    for (const Message& m : sends)
      check_nccl(ncclSend(m.data, m.bytes, ncclUint8, m.peer, world_, nullptr), "send");
    check_nccl(ncclGroupEnd(), "group end");
  }

  void sum_over_velocity_group(double* values, std::size_t count) override {
    if (!group_) return;
    check_nccl(ncclAllReduce(values, values, count, ncclFloat64, ncclSum, group_, nullptr),
               "all-reduce");
  }

 private:
  ncclComm_t world_ = nullptr, group_ = nullptr;
};

}  // namespace

std::unique_ptr<Communicator> make_nccl_communicator(MPI_Comm world, MPI_Comm velocity_group) {
  return std::make_unique<NcclCommunicator>(world, velocity_group);
}

}  // namespace bolt
