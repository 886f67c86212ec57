#include "models/projection/korobov.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace bolt {

namespace {

// (p, z) of the 8-D optimal coefficients, fewest points first.
constexpr std::int64_t kTable[][2] = {
    {10007, 1905},       {20011, 7191},       {30011, 13167},    {50021, 11281},
    {100003, 20285},     {200003, 47369},     {300017, 81575},   {400009, 193141},
    {500009, 42535},     {750019, 10525},     {1000003, 417564}, {1500007, 413996},
    {2000003, 832685},   {3000017, 368334},   {4000037, 72362},  {6000011, 1323844},
    {8000009, 93973},    {10000019, 1833663},
};

}  // namespace

std::vector<std::int64_t> korobov_sizes() {
  std::vector<std::int64_t> sizes;
  for (const auto& row : kTable) sizes.push_back(row[0]);
  return sizes;
}

KorobovRule korobov_rule(std::int64_t points) {
  for (const auto& row : kTable) {
    if (row[0] < points) continue;
    KorobovRule rule;
    rule.p = row[0];
    std::int64_t power = 1;
    for (int j = 0; j < kKorobovDimensions; ++j) {
      rule.a[j] = power;
      power = power * row[1] % rule.p;
    }
    return rule;
  }
  fail("-projection_points ", points, ": the largest Korobov lattice has ",
       kTable[std::size(kTable) - 1][0], " points");
}

std::array<double, kKorobovDimensions> korobov_point(const KorobovRule& rule, std::int64_t s,
                                                      const std::array<double, kKorobovDimensions>& shift) {
  std::array<double, kKorobovDimensions> x;
  for (int j = 0; j < kKorobovDimensions; ++j) {
    // a_j (s + 1) mod p in integers (both below 2^24): no rounding before the shift.
    const double lattice = double(rule.a[j] * ((s + 1) % rule.p) % rule.p) / double(rule.p);
    const double value = lattice + shift[j];
    x[j] = value - std::floor(value);
  }
  return x;
}

}  // namespace bolt
