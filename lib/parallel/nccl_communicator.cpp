#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "communicator_factory.hpp"
#include "core/cuda_check.hpp"
#include "core/error.hpp"

namespace bolt {

namespace {

void check_nccl(ncclResult_t status, const char* what) {
  if (status != ncclSuccess) fail_device("NCCL ", what, " failed: ", ncclGetErrorString(status));
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

// The GPU time of one phase: a pair of timing events around each of its pieces of work on a
// stream, summed when taken. A full pool is summed at once (the host then waits for the work of
// its last pair), so a long stretch of steps between two takes keeps a bounded set of events.
class PhaseTimer {
 public:
  PhaseTimer() = default;
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  ~PhaseTimer() {
    for (auto& [begin, end] : events_) {
      cudaEventDestroy(begin);
      cudaEventDestroy(end);
    }
  }

  void begin(cudaStream_t stream) {
    if (used_ == kPool) seconds_ += sum_used();
    if (used_ == events_.size()) {
      std::pair<cudaEvent_t, cudaEvent_t> pair;
      check_cuda(cudaEventCreate(&pair.first), "event create");
      check_cuda(cudaEventCreate(&pair.second), "event create");
      events_.push_back(pair);
    }
    check_cuda(cudaEventRecord(events_[used_].first, stream), "event record");
  }
  void end(cudaStream_t stream) {
    check_cuda(cudaEventRecord(events_[used_++].second, stream), "event record");
  }
  double take() { return std::exchange(seconds_, 0.0) + sum_used(); }

 private:
  static constexpr std::size_t kPool = 256;

  double sum_used() {
    double seconds = 0.0;
    for (std::size_t i = 0; i < used_; ++i) {
      check_cuda(cudaEventSynchronize(events_[i].second), "event synchronize");
      float ms = 0.0f;
      check_cuda(cudaEventElapsedTime(&ms, events_[i].first, events_[i].second), "event time");
      seconds += 1e-3 * ms;
    }
    used_ = 0;
    return seconds;
  }

  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> events_;
  std::size_t used_ = 0;
  double seconds_ = 0.0;
};

class NcclCommunicator final : public Communicator {
 public:
  NcclCommunicator(MPI_Comm world, MPI_Comm group) {
    MPI_Comm_rank(world, &rank_);
    MPI_Comm_rank(group, &group_rank_);
    MPI_Comm_size(group, &group_size_);
    world_ = make_nccl_comm(world);
    group_ = group_size_ > 1 ? make_nccl_comm(group) : nullptr;
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
    if (recording_) halo_.begin(stream_);
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
    if (recording_) halo_.end(stream_);
    check_cuda(cudaEventRecord(arrived_, stream_), "event record");
  }

  void finish_exchange() override {
    check_cuda(cudaStreamWaitEvent(nullptr, arrived_, 0), "stream wait");
  }

  void sum_over_velocity_group(double* values, std::size_t count) override {
    if (!group_) return;
    if (recording_) sum_.begin(nullptr);
    check_nccl(ncclAllReduce(values, values, count, ncclFloat64, ncclSum, group_, nullptr),
               "all-reduce");
    if (recording_) sum_.end(nullptr);
  }

  int velocity_group_rank() const override { return group_rank_; }
  int velocity_group_size() const override { return group_size_; }

  void gather_over_velocity_group(void* values, std::size_t bytes) override {
    if (!group_) return;
    auto* parts = static_cast<char*>(values);
    check_nccl(ncclAllGather(parts + group_rank_ * bytes, parts, bytes, ncclChar, group_, nullptr),
               "all-gather");
  }

  void record_times(bool on) override { recording_ = on; }
  CommunicationTimes take_times() override { return {halo_.take(), sum_.take()}; }

 private:
  int rank_ = 0, group_rank_ = 0, group_size_ = 1;
  ncclComm_t world_ = nullptr, group_ = nullptr;
  cudaStream_t stream_ = nullptr;          // the messages
  cudaEvent_t packed_ = nullptr, arrived_ = nullptr;
  bool recording_ = false;
  PhaseTimer halo_, sum_;
};

}  // namespace

std::unique_ptr<Communicator> make_nccl_communicator(MPI_Comm world, MPI_Comm velocity_group) {
  return std::make_unique<NcclCommunicator>(world, velocity_group);
}

}  // namespace bolt
