#pragma once
// What the driver says of a team kernel (launch_cuda.cuh) that does not change between its
// launches, asked once per kernel and device. Include only from .cu translation units.
#include <cuda_runtime.h>

#include <cstddef>
#include <mutex>
#include <vector>

#include "cuda_check.hpp"
#include "error.hpp"

namespace bolt {

// What the driver says of one team kernel that does not change between its passes, per device
// (a process may drive any of its devices, and a kernel's attributes are the device's): asked
// once, not on every pass. One per kernel: team_kernel_facts's function-local static. `device`
// is the current one (cudaGetDevice), on which the driver's calls act.
class TeamKernelFacts {
 public:
  explicit TeamKernelFacts(const void* kernel) : kernel_(kernel) {}

  // Allows the kernel `shared` bytes of dynamic shared memory per block on `device`, within what
  // the device allows. The allowance is a bound on launches, not a reservation: the largest one
  // made serves every smaller launch, so only a larger one asks the driver.
  void allow_shared(int device, std::size_t shared, const char* label) {
    const std::lock_guard<std::mutex> lock(mutex_);
    DeviceFacts& facts = of(device);
    if (shared <= facts.allowed_shared) return;
    int limit = 0;
    cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (shared > std::size_t(limit))
      fail(label, ": needs ", shared, " bytes of shared memory per block, the device allows ", limit);
    const cudaError_t status =
        cudaFuncSetAttribute(kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared));
    if (status != cudaSuccess) fail(label, ": cannot reserve shared memory: ", cudaGetErrorString(status));
    facts.allowed_shared = shared;
  }

  // Whole warps of the largest block the kernel can run on `device` (its registers may not allow
  // the device's largest).
  int largest_team(int device) {
    const std::lock_guard<std::mutex> lock(mutex_);
    DeviceFacts& facts = of(device);
    if (facts.largest_team == 0) {
      cudaFuncAttributes attributes{};
      check_cuda(cudaFuncGetAttributes(&attributes, kernel_), "kernel attributes");
      facts.largest_team = attributes.maxThreadsPerBlock / 32 * 32;
    }
    return facts.largest_team;
  }

  // Blocks of `threads` threads and `shared` bytes of dynamic shared memory resident at once on
  // the whole of `device` (allow_shared first: above the default, the query needs the allowance).
  int resident_blocks(int device, int threads, std::size_t shared, const char* label) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const Residency& r : residency_)
      if (r.device == device && r.threads == threads && r.shared == shared) return r.blocks;
    int processors = 0, per_processor = 0;
    cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device);
    const cudaError_t status =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_processor, kernel_, threads, shared);
    if (status != cudaSuccess) fail_device(label, ": occupancy: ", cudaGetErrorString(status));
    residency_.push_back({device, threads, shared, per_processor * processors});
    return residency_.back().blocks;
  }

  // The team size `choose` returns for teams of team_size threads with scratch_bytes of scratch
  // on `device` (team_size_filling_processor's), asked once (it asks the driver many times).
  template <class Choose>
  int remembered_team(int device, int team_size, std::size_t scratch_bytes, Choose choose) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (const Team& t : teams_)
        if (t.device == device && t.asked == team_size && t.scratch == scratch_bytes)
          return t.chosen;
    }
    const int chosen = choose();  // unlocked: it asks this object's other facts
    const std::lock_guard<std::mutex> lock(mutex_);
    teams_.push_back({device, team_size, scratch_bytes, chosen});
    return chosen;
  }

 private:
  struct DeviceFacts {
    int device;
    std::size_t allowed_shared;  // 0: the default only
    int largest_team;            // 0: not asked yet
  };
  struct Residency {
    int device, threads;
    std::size_t shared;
    int blocks;
  };
  struct Team {
    int device, asked;
    std::size_t scratch;
    int chosen;
  };
  DeviceFacts& of(int device) {
    for (DeviceFacts& facts : devices_)
      if (facts.device == device) return facts;
    return devices_.emplace_back(DeviceFacts{device, 0, 0});
  }

  const void* kernel_;
  std::mutex mutex_;  // the facts are static state, shared by every caller of the kernel
  std::vector<DeviceFacts> devices_;
  std::vector<Residency> residency_;
  std::vector<Team> teams_;
};

}  // namespace bolt
