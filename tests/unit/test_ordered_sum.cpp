// Threaded host sums (lib/core/ordered_sum.hpp): the same bits on any number of threads, where
// a plain OpenMP reduction's may differ; every item visited once, whatever the range (empty,
// shorter than a block, a block and a remainder).
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <cstring>
#include <cmath>
#include <random>
#include <vector>

#include "core/ordered_sum.hpp"

namespace bolt {
namespace {

Sums<2> sum_on(int threads, const std::vector<double>& values) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  const Sums<2> sums = ordered_sum<2>(std::int64_t(values.size()), [&](std::int64_t i, Sums<2>& s) {
    s[0] += values[std::size_t(i)];
    s[1] += values[std::size_t(i)] * values[std::size_t(i)];
  });
  omp_set_num_threads(before);
  return sums;
}

TEST(OrderedSum, SameBitsOnAnyNumberOfThreads) {
  // Values of mixed sign and magnitude, whose sum depends on the order of the additions.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> values(100003);
  for (double& v : values) v = value(random) * std::pow(10.0, 8.0 * value(random));
  const Sums<2> one = sum_on(1, values);
  for (int threads : {2, 3, 5, 8}) {
    const Sums<2> many = sum_on(threads, values);
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ(std::memcmp(&one[k], &many[k], sizeof(double)), 0)
          << "sum " << k << " on " << threads << " threads: " << many[k] << " against " << one[k];
  }
}

TEST(OrderedSum, EveryItemOnce) {
  for (std::int64_t n : {0, 1, 4095, 4096, 4097, 3 * 4096 + 17}) {
    std::vector<int> visits(std::size_t(n), 0);
    const Sums<1> count = ordered_sum<1>(n, [&](std::int64_t i, Sums<1>& s) {
      ++visits[std::size_t(i)];
      s[0] += 1.0;
    });
    EXPECT_EQ(count[0], double(n));
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(visits[std::size_t(i)], 1) << "item " << i;
  }
}

}  // namespace
}  // namespace bolt
