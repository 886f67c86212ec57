#include "memory.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "error.hpp"

#ifdef BOLT_HAVE_CUDA
#include "cuda_check.hpp"
#endif

namespace bolt {

bool cuda_backend_compiled() {
#ifdef BOLT_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

int cuda_device_count() {
#ifdef BOLT_HAVE_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: clear the sticky error, report none
    return 0;
  }
  return count;
#else
  return 0;
#endif
}

void use_cuda_device(int index) {
#ifdef BOLT_HAVE_CUDA
  check_cuda(cudaSetDevice(index), "cudaSetDevice");
#else
  fail("use_cuda_device(", index, "): this bolt was built without CUDA");
#endif
}

DeviceMemory cuda_device_memory() {
  DeviceMemory memory;
#ifdef BOLT_HAVE_CUDA
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess) {
    memory.free_bytes = double(free);
    memory.total_bytes = double(total);
  } else {
    cudaGetLastError();
  }
#endif
  return memory;
}

std::string cuda_device_bus_id(int index) {
#ifdef BOLT_HAVE_CUDA
  char id[32] = {};
  check_cuda(cudaDeviceGetPCIBusId(id, sizeof(id), index), "cudaDeviceGetPCIBusId");
  return id;
#else
  return "none (device " + std::to_string(index) + ")";
#endif
}

void* allocate_bytes(Backend where, std::size_t bytes) {
  if (where == Backend::cpu) {
    // 64-byte alignment keeps OpenMP SIMD loops on full cache lines.
    void* pointer = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!pointer) fail("out of host memory allocating ", bytes, " bytes");
    return pointer;
  }
#ifdef BOLT_HAVE_CUDA
  void* pointer = nullptr;
  const cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status != cudaSuccess)
    fail("out of GPU memory allocating ", bytes / (1 << 20), " MiB: ", cudaGetErrorString(status));
  return pointer;
#else
  fail("-backend cuda: this bolt was built without the CUDA backend");
#endif
}

void free_bytes(Backend where, void* pointer) noexcept {
  if (!pointer) return;
  if (where == Backend::cpu) {
    std::free(pointer);
    return;
  }
#ifdef BOLT_HAVE_CUDA
  cudaFree(pointer);
#endif
}

void copy_bytes(void* destination, Backend destination_backend, const void* source,
                Backend source_backend, std::size_t bytes) {
  if (bytes == 0) return;
  if (destination_backend == Backend::cpu && source_backend == Backend::cpu) {
    std::memcpy(destination, source, bytes);
    return;
  }
#ifdef BOLT_HAVE_CUDA
  const cudaMemcpyKind kind =
      destination_backend == Backend::cpu
          ? cudaMemcpyDeviceToHost
          : (source_backend == Backend::cpu ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice);
  check_cuda(cudaMemcpy(destination, source, bytes, kind), "cudaMemcpy");
#else
  fail("copy to or from a GPU in a build without the CUDA backend");
#endif
}

void fill_zero_bytes(Backend where, void* pointer, std::size_t bytes) {
  if (bytes == 0) return;
  if (where == Backend::cpu) {
    // By every thread, in the static blocks the OpenMP loops over cells use: the pages of a
    // large state are touched first (placed) near the threads that work on them, and a 1e10-byte
    // state is not zeroed at one thread's page-fault rate.
    constexpr std::int64_t kChunk = std::int64_t(1) << 20;
    const std::int64_t chunks = std::int64_t((bytes + kChunk - 1) / kChunk);
    char* base = static_cast<char*>(pointer);
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < chunks; ++c)
      std::memset(base + c * kChunk, 0, std::min<std::size_t>(kChunk, bytes - c * kChunk));
    return;
  }
#ifdef BOLT_HAVE_CUDA
  check_cuda(cudaMemset(pointer, 0, bytes), "cudaMemset");
#endif
}

PinnedHostRange::PinnedHostRange(Backend backend, void* data, std::size_t bytes) {
  if (backend == Backend::cpu || bytes == 0) return;
#ifdef BOLT_HAVE_CUDA
  if (cudaHostRegister(data, bytes, cudaHostRegisterDefault) == cudaSuccess)
    data_ = data;
  else
    cudaGetLastError();  // not pinned: clear the error, copy pageable
#else
  static_cast<void>(data);
#endif
}

PinnedHostRange::~PinnedHostRange() {
#ifdef BOLT_HAVE_CUDA
  // A failure would stay the last error, which the next launch's check would report as its own.
  if (data_ && cudaHostUnregister(data_) != cudaSuccess) cudaGetLastError();
#endif
}

}  // namespace bolt
