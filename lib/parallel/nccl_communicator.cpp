#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>

#include "communicator.hpp"
#include "core/error.hpp"

namespace bolt {

namespace {

void check_nccl(ncclResult_t status, const char* what) {
  if (status != ncclSuccess) fail("NCCL ", what, " failed: ", ncclGetErrorString(status));
}

void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) fail("CUDA ", what, " failed: ", cudaGetErrorString(status));
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

class NcclCommunicator final : public Communicator {
 public:
  NcclCommunicator(MPI_Comm world, MPI_Comm group) {
    int group_size = 1;
    MPI_Comm_rank(world, &rank_);
    MPI_Comm_size(group, &group_size);
    world_ = make_nccl_comm(world);
    group_ = group_size > 1 ? make_nccl_comm(group) : nullptr;
    // Non-blocking: it does not synchronise with the legacy default stream of the kernels. Top
    // priority: the block scheduler starts NCCL's few blocks ahead of the waiting blocks of the
    // interior kernel, which would otherwise hold every SM until it ends (no overlap at all).
    int least = 0, greatest = 0;
    check_cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest), "stream priorities");
    check_cuda(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest),
               "stream create");
    check_cuda(cudaEventCreateWithFlags(&packed_, cudaEventDisableTiming), "event create");
    check_cuda(cudaEventCreateWithFlags(&arrived_, cudaEventDisableTiming), "event create");
  }
  ~NcclCommunicator() override {
    cudaEventDestroy(arrived_);
    cudaEventDestroy(packed_);
    cudaStreamDestroy(stream_);
    if (group_) ncclCommDestroy(group_);
    if (world_) ncclCommDestroy(world_);
  }

  // The messages run on their own stream once the kernels queued so far (the packing) are done,
  // so kernels queued after start_exchange (the interior cells) overlap them; finish_exchange
  // makes the kernel stream wait for them.
  void start_exchange(const std::vector<Message>& sends,
                      const std::vector<Message>& receives) override {
    check_cuda(cudaEventRecord(packed_, nullptr), "event record");
    check_cuda(cudaStreamWaitEvent(stream_, packed_, 0), "stream wait");
    // Between boxes of this rank: a device copy, matched by tag.
    for (const Message& m : sends) {
      if (m.peer != rank_) continue;
      const auto match = std::find_if(receives.begin(), receives.end(), [&](const Message& r) {
        return r.peer == rank_ && r.tag == m.tag;
      });
      require(match != receives.end() && match->bytes == m.bytes, "halo message ", m.tag,
              " to this rank has no matching receive");
      check_cuda(cudaMemcpyAsync(match->data, m.data, m.bytes, cudaMemcpyDeviceToDevice, stream_),
                 "halo copy");
    }
    check_nccl(ncclGroupStart(), "group start");
    for (const Message& m : receives)
      if (m.peer != rank_)
        check_nccl(ncclRecv(m.data, m.bytes, ncclUint8, m.peer, world_, stream_), "receive");
    for (const Message& m : sends)
      if (m.peer != rank_)
        check_nccl(ncclSend(m.data, m.bytes, ncclUint8, m.peer, world_, stream_), "send");
    check_nccl(ncclGroupEnd(), "group end");
    check_cuda(cudaEventRecord(arrived_, stream_), "event record");
  }

  void finish_exchange() override {
    check_cuda(cudaStreamWaitEvent(nullptr, arrived_, 0), "stream wait");
  }

  void sum_over_velocity_group(double* values, std::size_t count) override {
    if (!group_) return;
    check_nccl(ncclAllReduce(values, values, count, ncclFloat64, ncclSum, group_, nullptr),
               "all-reduce");
  }

 private:
  int rank_ = 0;
  ncclComm_t world_ = nullptr, group_ = nullptr;
  cudaStream_t stream_ = nullptr;          // the messages
  cudaEvent_t packed_ = nullptr, arrived_ = nullptr;
};

}  // namespace

std::unique_ptr<Communicator> make_nccl_communicator(MPI_Comm world, MPI_Comm velocity_group) {
  return std::make_unique<NcclCommunicator>(world, velocity_group);
}

}  // namespace bolt
