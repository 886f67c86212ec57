// MPI on host copies of device buffers, for CUDA ranks that share a GPU (-gpu_share): NCCL
// refuses two ranks of one communicator on the same device. The kernels run on the legacy
// default stream, so the blocking copies wait for the work that filled a buffer and come before
// the work queued after them. A development and test configuration: every message and sum
// crosses the host.
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "communicator_factory.hpp"
#include "core/cuda_check.hpp"
#include "core/error.hpp"

namespace bolt {

namespace {

void copy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind) {
  check_cuda(cudaMemcpy(to, from, bytes, kind), "copy of a message through the host");
}

class StagedCommunicator final : public Communicator {
 public:
  StagedCommunicator(MPI_Comm world, MPI_Comm group)
      : host_(make_mpi_communicator(world, group)) {}

  void start_exchange(const std::vector<Message>& sends,
                      const std::vector<Message>& receives) override {
    require(receives_.empty() && send_copies_.empty(), "halo exchange started twice");
    std::vector<Message> host_sends, host_receives;
    for (const Message& m : sends) {
      send_copies_.emplace_back(m.bytes);
      copy(send_copies_.back().data(), m.data, m.bytes, cudaMemcpyDeviceToHost);
      host_sends.push_back({m.peer, send_copies_.back().data(), m.bytes, m.tag});
    }
    for (const Message& m : receives) {
      receive_copies_.emplace_back(m.bytes);
      host_receives.push_back({m.peer, receive_copies_.back().data(), m.bytes, m.tag});
    }
    receives_ = receives;
    host_->start_exchange(host_sends, host_receives);
  }

  void finish_exchange() override {
    host_->finish_exchange();
    for (std::size_t i = 0; i < receives_.size(); ++i)
      copy(receives_[i].data, receive_copies_[i].data(), receives_[i].bytes,
           cudaMemcpyHostToDevice);
    receives_.clear();
    send_copies_.clear();
    receive_copies_.clear();
  }

  void sum_over_velocity_group(double* values, std::size_t count) override {
    if (velocity_group_size() == 1) return;
    std::vector<double> staged(count);
    copy(staged.data(), values, count * sizeof(double), cudaMemcpyDeviceToHost);
    host_->sum_over_velocity_group(staged.data(), count);
    copy(values, staged.data(), count * sizeof(double), cudaMemcpyHostToDevice);
  }

  int velocity_group_rank() const override { return host_->velocity_group_rank(); }
  int velocity_group_size() const override { return host_->velocity_group_size(); }

  void gather_over_velocity_group(void* values, std::size_t bytes) override {
    if (velocity_group_size() == 1) return;
    const std::size_t all = bytes * std::size_t(velocity_group_size());
    std::vector<char> staged(all);
    copy(staged.data(), values, all, cudaMemcpyDeviceToHost);
    host_->gather_over_velocity_group(staged.data(), bytes);
    copy(values, staged.data(), all, cudaMemcpyHostToDevice);
  }

  // The time inside the MPI calls (the copies to and from the host are not counted).
  void record_times(bool on) override { host_->record_times(on); }
  CommunicationTimes take_times() override { return host_->take_times(); }

 private:
  std::unique_ptr<Communicator> host_;  // MPI on the host copies
  std::vector<Message> receives_;       // the device buffers of the exchange in flight
  std::vector<std::vector<char>> send_copies_, receive_copies_;
};

}  // namespace

std::unique_ptr<Communicator> make_staged_communicator(MPI_Comm world, MPI_Comm velocity_group) {
  return std::make_unique<StagedCommunicator>(world, velocity_group);
}

}  // namespace bolt
