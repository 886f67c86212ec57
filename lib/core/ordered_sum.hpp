#pragma once
// Sums over a host loop's range, by every thread, with a result that does not depend on their
// number: the range is cut into blocks of a fixed size, each summed in order, and the blocks'
// sums are added in order. A run then gives the same bits on any OMP_NUM_THREADS.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sums.hpp"

namespace bolt {

// Items per block: one thread adds a block's items in order.
inline constexpr std::int64_t kOrderedSumBlock = 4096;

// The sums over i in [0, n) of what add(i, sums) adds to `sums` for item i. add may also
// change item i's own data (each item is visited once, by one thread).
template <int K, class Add>
Sums<K> ordered_sum(std::int64_t n, Add add) {
  constexpr std::int64_t kBlock = kOrderedSumBlock;
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

// The same for a number of sums known at run time: sums[j] = the sum over i in [0, n) of
// term(i, j), for j < k. Below `threaded_from` items one thread adds them all (a team's start
// costs more than it saves); the blocks, and so the bits, are the same.
template <class Term>
void ordered_sums(std::int64_t n, std::int64_t k, double* sums, Term term,
                  std::int64_t threaded_from = 0) {
  constexpr std::int64_t kBlock = kOrderedSumBlock;
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<double> partial(static_cast<std::size_t>(blocks * k));
#pragma omp parallel for schedule(static) if (n >= threaded_from)
  for (std::int64_t b = 0; b < blocks; ++b)
    for (std::int64_t j = 0; j < k; ++j) {
      double sum = 0.0;
      for (std::int64_t i = b * kBlock, end = std::min(n, i + kBlock); i < end; ++i)
        sum += term(i, j);
      partial[static_cast<std::size_t>(b * k + j)] = sum;
    }
  std::fill_n(sums, k, 0.0);
  for (std::int64_t b = 0; b < blocks; ++b)
    for (std::int64_t j = 0; j < k; ++j) sums[j] += partial[static_cast<std::size_t>(b * k + j)];
}

}  // namespace bolt
