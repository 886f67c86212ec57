#pragma once
// Division of ints in [0, 2^31) by a divisor fixed on the host, as a multiply-high, an add and a
// shift (Granlund and Montgomery, PLDI 1994, the round-up method): on the GPU a division by a
// value known only at run time is a subroutine of some twenty instructions.
#include <cstdint>

#include "error.hpp"
#include "host_device.hpp"

namespace bolt {

class FastDivisor {
 public:
  FastDivisor() = default;
  // divisor >= 1. With s = ceil(log2 divisor), magic = floor(2^32 (2^s - divisor) / divisor) + 1
  // is below 2^32, and (mulhi(n, magic) + n) >> s = n / divisor for every n below 2^31.
  explicit FastDivisor(int divisor) : divisor_(divisor) {
    require(divisor >= 1, "FastDivisor: divisor ", divisor, ", must be at least 1");
    while ((std::uint64_t(1) << shift_) < std::uint64_t(divisor)) ++shift_;
    magic_ = std::uint32_t((std::uint64_t(1) << 32) * ((std::uint64_t(1) << shift_) - divisor) /
                               std::uint64_t(divisor) +
                           1);
  }

  BOLT_HOST_DEVICE int divisor() const { return divisor_; }
  BOLT_HOST_DEVICE int divide(int n) const {
    const std::uint32_t u = std::uint32_t(n);
#if defined(__CUDA_ARCH__)
    const std::uint32_t high = __umulhi(u, magic_);
#else
    const std::uint32_t high = std::uint32_t((std::uint64_t(u) * magic_) >> 32);
#endif
    return int((high + u) >> shift_);
  }

 private:
  int divisor_ = 1;
  std::uint32_t magic_ = 1;
  int shift_ = 0;
};

}  // namespace bolt
