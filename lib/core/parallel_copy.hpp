#pragma once
// Copies of large host arrays by every thread: one thread moves a few GB/s, far from what the
// host's memory allows (the iterative solver copies its whole state several times a sweep).
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace bolt {

template <class T>
T* parallel_copy(const T* from, std::int64_t count, T* to) {
  constexpr std::int64_t kChunk = std::int64_t(1) << 16;  // values per task
  const std::int64_t chunks = (count + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < chunks; ++c)
    std::memcpy(to + c * kChunk, from + c * kChunk,
                std::size_t(std::min(kChunk, count - c * kChunk)) * sizeof(T));
  return to + count;
}

}  // namespace bolt
