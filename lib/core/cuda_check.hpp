#pragma once
// The host's check of a CUDA runtime call, for the translation units of the CUDA backend: a
// failure ends the run as a device fault (core/error.hpp) that names the call.
#include <cuda_runtime.h>

#include "error.hpp"

namespace bolt {

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) fail_device("CUDA ", what, " failed: ", cudaGetErrorString(status));
}

}  // namespace bolt
