#pragma once
// What the benchmark needs to know about the GPU it runs on: its name and memory, and its own
// copy bandwidth (a large device-to-device cudaMemcpy), the reference the fused step is measured
// against (DESIGN.md, performance targets). Compiled only with the CUDA backend
// (lib/CMakeLists.txt, if(BOLT_HAVE_CUDA)); callers guard with #ifdef BOLT_HAVE_CUDA.
#include <cstddef>
#include <string>
#include <vector>

namespace bolt {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int sm_count = 0;
  int compute_major = 0, compute_minor = 0;
  std::size_t total_bytes = 0;  // global memory
  std::size_t free_bytes = 0;   // free now (cudaMemGetInfo)
};

// The current device (cudaGetDevice) after making sure a context exists.
DeviceInfo current_device_info();

struct CopyBandwidth {
  std::size_t buffer_bytes = 0;  // bytes copied per repetition (each buffer's size)
  std::vector<double> seconds;   // per repetition, CUDA-event timed
  double median_seconds = 0.0;
  // (bytes read + bytes written) / median time = 2 * buffer_bytes / median_seconds
  double bytes_per_second = 0.0;
};

// Copies a buffer_bytes device buffer into another `repetitions` times (after one untimed copy)
// and reports the median. buffer_bytes is lowered to fit a third of the free memory; both buffers
// are freed before returning.
CopyBandwidth measure_copy_bandwidth(std::size_t buffer_bytes, int repetitions);

}  // namespace bolt
