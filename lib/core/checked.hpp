#pragma once
// Size arithmetic that cannot wrap: the product of counts (cells, velocities, bytes) as a signed
// 64-bit integer, or a bolt::Error naming the options the sizes came from. The pre-run plan and
// the grids take their sizes from here, so that a huge option is refused by name instead of
// wrapping into a small (or negative) allocation.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "core/error.hpp"

namespace bolt {

// factors[0] * factors[1] * ...; `what` names the options (e.g. "-grid_n 1000000,1000000,1000000")
// in the error when the product exceeds 2^63 - 1. Every factor must be >= 0.
inline std::int64_t checked_product(std::initializer_list<std::int64_t> factors,
                                    const std::string& what) {
  std::int64_t product = 1;
  for (const std::int64_t factor : factors) {
    require(factor >= 0, what, ": negative size ", factor);
    require(!__builtin_mul_overflow(product, factor, &product), what,
            ": the size overflows 64-bit arithmetic (more than 9.2e18)");
  }
  return product;
}

}  // namespace bolt
