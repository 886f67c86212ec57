#pragma once
// Sums over a host loop's range, by every thread, with a result that does not depend on their
// number: the range is cut into blocks of a fixed size, each summed in order, and the blocks'
// sums are added in order. A run then gives the same bits on any OMP_NUM_THREADS.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sums.hpp"

namespace bolt {

// The sums over i in [0, n) of what add(i, sums) adds to `sums` for item i. add may also
// change item i's own data (each item is visited once, by one thread).
template <int K, class Add>
Sums<K> ordered_sum(std::int64_t n, Add add) {
  constexpr std::int64_t kBlock = 4096;
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<Sums<K>> block_sums(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    Sums<K> sums = Sums<K>::zero();
    for (std::int64_t i = b * kBlock, end = std::min(n, i + kBlock); i < end; ++i) add(i, sums);
    block_sums[static_cast<std::size_t>(b)] = sums;
  }
  Sums<K> total = Sums<K>::zero();
  for (const Sums<K>& sums : block_sums) total += sums;
  return total;
}

}  // namespace bolt
