#pragma once
// The memory bandwidth of the host's OpenMP threads as STREAM measures it (McCalpin's copy and
// triad over arrays far larger than the caches, each array first touched by the threads that use
// it, best of many passes): the reference the CPU backend's step and sweep are measured against,
// as the GPU's are against its copy bandwidth (core/device_bandwidth.hpp).
#include <cstddef>
#include <memory>

namespace bolt {

// Bytes per array for the default measurement: four times the last-level cache as STREAM asks,
// at least 256 MiB and at most 1 GiB (three arrays stay beside the solver's own memory).
std::size_t default_stream_array_bytes();

class HostStream {
 public:
  // Three arrays of array_bytes (doubles), placed by a parallel first touch with the static
  // schedule the passes use.
  explicit HostStream(std::size_t array_bytes);
  ~HostStream();
  HostStream(const HostStream&) = delete;
  HostStream& operator=(const HostStream&) = delete;

  // `passes` timed passes of copy (c = a) and of triad (a = b + s c); the best of each is kept
  // over every call, so that calls interleaved with other work give the best of all of them.
  void measure(int passes);

  std::size_t array_bytes() const { return n_ * sizeof(double); }
  int passes() const { return passes_; }
  // STREAM's counting: copy moves 2 arrays per pass (read + write), triad 3.
  double copy_bytes_per_second() const;
  double triad_bytes_per_second() const;

 private:
  std::size_t n_ = 0;
  std::unique_ptr<double[]> a_, b_, c_;
  double best_copy_ = 0.0, best_triad_ = 0.0;  // seconds; 0 before the first pass
  int passes_ = 0;
};

}  // namespace bolt
