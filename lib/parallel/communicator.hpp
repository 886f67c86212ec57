#pragma once
// Moves data between the ranks of a run: the halo messages of the space decomposition and the
// moment sums of the velocity decomposition. Three implementations behind one interface: MPI on
// host memory (CPU backend), NCCL on device memory (CUDA backend; Open MPI is often built
// without CUDA support, and NCCL uses NVLink directly), and MPI through host copies of device
// memory for CUDA ranks that share a GPU (which NCCL refuses). No MPI here: the engines' CUDA
// translation units include this interface; the communicators are made by
// communicator_factory.hpp.
#include <cstddef>
#include <memory>
#include <vector>

namespace bolt {

struct Message {
  int peer;           // world rank
  void* data;         // host or device memory, as the communicator expects
  std::size_t bytes;
  int tag;            // tells apart messages between the same two ranks (MPI)
};

// Seconds a rank spent moving data, per phase. On the GPU (NCCL) each phase is timed between
// events on the stream it runs on: the halo exchange from the moment the packed faces are ready
// until its last message has arrived (also the part hidden behind the interior cells), a moment
// sum from the end of the kernels before it until every rank of the group has contributed (so
// it includes waiting for the slowest). On the CPU (MPI) it is the time spent inside the calls;
// through host copies, the time inside the MPI calls (the copies not counted).
struct CommunicationTimes {
  double halo_seconds = 0.0;
  double sum_seconds = 0.0;
  CommunicationTimes& operator+=(const CommunicationTimes& other) {
    halo_seconds += other.halo_seconds;
    sum_seconds += other.sum_seconds;
    return *this;
  }
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  // Posts every receive and send and returns when all are complete. Messages between the same
  // two ranks pair up in the order listed (NCCL) and by tag (MPI): list them in the same order
  // on both sides.
  void exchange(const std::vector<Message>& sends, const std::vector<Message>& receives) {
    start_exchange(sends, receives);
    finish_exchange();
  }
  // The same in two halves, for work in between (the interior cells while halos travel): the
  // buffers must stay untouched until finish_exchange returns (on the GPU: until work queued
  // after it runs).
  virtual void start_exchange(const std::vector<Message>& sends,
                              const std::vector<Message>& receives) = 0;
  virtual void finish_exchange() = 0;
  // Sums `count` doubles in place over the ranks that own the same cells (the velocity group).
  virtual void sum_over_velocity_group(double* values, std::size_t count) = 0;
  // This rank's place in its velocity group, and the group's ranks.
  virtual int velocity_group_rank() const = 0;
  virtual int velocity_group_size() const = 0;
  // Gathers in place equal parts of `bytes` over the velocity group: rank r's at values + r *
  // bytes, every rank ending with all of them (work on the cells that the group shares out).
  virtual void gather_over_velocity_group(void* values, std::size_t bytes) = 0;
  // Times are recorded only while on (off at the start), so that the sums of the diagnostics
  // between steps are not counted as step work.
  virtual void record_times(bool on) = 0;
  // The times recorded since the last call; on the GPU it waits for the recorded work.
  virtual CommunicationTimes take_times() = 0;
};

}  // namespace bolt
