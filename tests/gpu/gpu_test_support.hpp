#pragma once
// What the GPU test files share: whether a device is there, and which backend plays "the GPU".
// BOLT_GPU_TEST_CPU_ONLY=1 runs the "GPU" side on the CPU backend too: a check of the tests' own
// plumbing and case set-up on a machine without a GPU (it proves nothing about the GPU).
#include <cstdlib>
#include <string>

#include "core/backend.hpp"

namespace bolt::test {

inline bool cpu_only() {
  const char* v = std::getenv("BOLT_GPU_TEST_CPU_ONLY");
  return v && *v && std::string(v) != "0";
}
inline Backend second_backend() { return cpu_only() ? Backend::cpu : Backend::cuda; }
inline bool have_device() { return cpu_only() || cuda_device_count() > 0; }

}  // namespace bolt::test
