#include "device_bandwidth.hpp"

#include <algorithm>

#include "cuda_check.hpp"
#include "error.hpp"

namespace bolt {

namespace {

// Frees a device pointer / event on every exit path.
struct DevicePointer {
  void* p = nullptr;
  ~DevicePointer() {
    if (p) cudaFree(p);
  }
};
struct Event {
  cudaEvent_t e = nullptr;
  Event() { check_cuda(cudaEventCreate(&e), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(e); }
};

}  // namespace

DeviceInfo current_device_info() {
  DeviceInfo info;
  check_cuda(cudaGetDevice(&info.index), "cudaGetDevice");
  check_cuda(cudaFree(nullptr), "context creation");
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, info.index), "cudaGetDeviceProperties");
  info.name = prop.name;
  info.sm_count = prop.multiProcessorCount;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  check_cuda(cudaMemGetInfo(&info.free_bytes, &info.total_bytes), "cudaMemGetInfo");
  return info;
}

CopyBandwidth measure_copy_bandwidth(std::size_t buffer_bytes, int repetitions) {
  require(repetitions >= 1, "copy bandwidth: repetitions ", repetitions, ": must be at least 1");
  std::size_t free_bytes = 0, total_bytes = 0;
  check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const std::size_t unit = std::size_t(1) << 20;
  buffer_bytes = std::min(buffer_bytes, free_bytes / 3) / unit * unit;
  require(buffer_bytes >= unit, "copy bandwidth: less than 3 MiB of free device memory");

  CopyBandwidth result;
  result.buffer_bytes = buffer_bytes;
  DevicePointer source, destination;
  check_cuda(cudaMalloc(&source.p, buffer_bytes), "cudaMalloc (copy bandwidth)");
  check_cuda(cudaMalloc(&destination.p, buffer_bytes), "cudaMalloc (copy bandwidth)");
  check_cuda(cudaMemset(source.p, 1, buffer_bytes), "cudaMemset");
  check_cuda(cudaMemset(destination.p, 0, buffer_bytes), "cudaMemset");
  // Untimed first copy: page mapping, clocks up.
  check_cuda(cudaMemcpy(destination.p, source.p, buffer_bytes, cudaMemcpyDeviceToDevice),
             "cudaMemcpy");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  Event start, stop;
  for (int r = 0; r < repetitions; ++r) {
    check_cuda(cudaEventRecord(start.e), "cudaEventRecord");
    check_cuda(cudaMemcpyAsync(destination.p, source.p, buffer_bytes, cudaMemcpyDeviceToDevice),
               "cudaMemcpyAsync");
    check_cuda(cudaEventRecord(stop.e), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop.e), "cudaEventSynchronize");
    float ms = 0.0f;
    check_cuda(cudaEventElapsedTime(&ms, start.e, stop.e), "cudaEventElapsedTime");
    result.seconds.push_back(1e-3 * ms);
  }
  std::vector<double> sorted = result.seconds;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  result.median_seconds = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  result.bytes_per_second = 2.0 * double(buffer_bytes) / result.median_seconds;
  return result;
}

}  // namespace bolt
