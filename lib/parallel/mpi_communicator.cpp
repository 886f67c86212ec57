#include <climits>
#include <utility>

#include "communicator_factory.hpp"
#include "core/error.hpp"

namespace bolt {

namespace {

// Counts in MPI calls are int: messages are sent as 8-byte items where they can be, which
// allows 16 GiB per message, and refused with a message above that.
MPI_Datatype item_type(std::size_t bytes, int& count) {
  const bool words = bytes % 8 == 0;
  const std::size_t items = words ? bytes / 8 : bytes;
  require(items <= std::size_t(INT_MAX), "halo message of ", bytes,
          " bytes is too large for one MPI message; use more ranks along the split axes");
  count = static_cast<int>(items);
  return words ? MPI_DOUBLE : MPI_BYTE;
}

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator(MPI_Comm world, MPI_Comm group) : world_(world), group_(group) {
    MPI_Comm_rank(group, &group_rank_);
    MPI_Comm_size(group, &group_size_);
  }

  void start_exchange(const std::vector<Message>& sends,
                      const std::vector<Message>& receives) override {
    require(requests_.empty(), "halo exchange started twice");
    const double start = MPI_Wtime();
    requests_.reserve(sends.size() + receives.size());
    for (const Message& m : receives) {
      int count = 0;
      const MPI_Datatype type = item_type(m.bytes, count);
      requests_.emplace_back();
      MPI_Irecv(m.data, count, type, m.peer, m.tag, world_, &requests_.back());
    }
    for (const Message& m : sends) {
      int count = 0;
      const MPI_Datatype type = item_type(m.bytes, count);
      requests_.emplace_back();
      MPI_Isend(m.data, count, type, m.peer, m.tag, world_, &requests_.back());
    }
    if (recording_) times_.halo_seconds += MPI_Wtime() - start;
  }

  void finish_exchange() override {
    const double start = MPI_Wtime();
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
    if (recording_) times_.halo_seconds += MPI_Wtime() - start;
  }

  void sum_over_velocity_group(double* values, std::size_t count) override {
    require(count <= std::size_t(INT_MAX), "moment sums of ", count,
            " values are too many for one MPI_Allreduce");
    const double start = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(count), MPI_DOUBLE, MPI_SUM, group_);
    if (recording_) times_.sum_seconds += MPI_Wtime() - start;
  }

  int velocity_group_rank() const override { return group_rank_; }
  int velocity_group_size() const override { return group_size_; }

  void gather_over_velocity_group(void* values, std::size_t bytes) override {
    if (group_size_ == 1) return;
    require(bytes <= std::size_t(INT_MAX), "a part of ", bytes,
            " bytes is too large for one MPI_Allgather");
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, values, static_cast<int>(bytes), MPI_BYTE,
                  group_);
  }

  void record_times(bool on) override { recording_ = on; }
  CommunicationTimes take_times() override { return std::exchange(times_, CommunicationTimes{}); }

 private:
  MPI_Comm world_, group_;
  int group_rank_ = 0, group_size_ = 1;
  std::vector<MPI_Request> requests_;  // of the exchange in flight
  bool recording_ = false;
  CommunicationTimes times_;
};

}  // namespace

std::unique_ptr<Communicator> make_mpi_communicator(MPI_Comm world, MPI_Comm velocity_group) {
  return std::make_unique<MpiCommunicator>(world, velocity_group);
}

}  // namespace bolt
