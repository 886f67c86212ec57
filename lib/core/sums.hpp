#pragma once
// A fixed-size vector of accumulators: what a team reduction returns (double). Moments are
// accumulated in double, also in single-precision runs, so conservation is checked to round-off;
// sums of small increments (whose relative accuracy is what matters), and a GPU warp's share of a
// row's moments in the fused step, may use an accumulator of the run's precision (Team::reduce's
// Acc, in which a warp also adds its lanes' sums; the warps' shares are added in double).
#include "host_device.hpp"

namespace bolt {

// Warps a GPU team has at most (1024 threads); its reduction buffer keeps one partial sum per
// warp and accumulator: kMaxWarpsPerTeam * K doubles of shared memory (launch_cuda.cuh).
constexpr int kMaxWarpsPerTeam = 32;
// Team::sync_group orders the for_each items of every aligned group of kTeamGroup (items i and j
// with i / kTeamGroup == j / kTeamGroup): on the GPU they run on one warp, for any team size.
constexpr int kTeamGroup = 32;

template <int K, class T = double>
struct Sums {
  T value[K];

  BOLT_HOST_DEVICE static Sums zero() {
    Sums s;
    for (int k = 0; k < K; ++k) s.value[k] = T(0);
    return s;
  }
  BOLT_HOST_DEVICE T& operator[](int k) { return value[k]; }
  BOLT_HOST_DEVICE const T& operator[](int k) const { return value[k]; }
  BOLT_HOST_DEVICE Sums& operator+=(const Sums& other) {
    for (int k = 0; k < K; ++k) value[k] += other.value[k];
    return *this;
  }
};

// What Team::reduce_pair_rolled returns: the team's totals of its K1 + K2 sums (the first
// set's, then the second's), read where the team keeps them, so that a GPU thread loads
// only those it needs (all of them in every thread's registers spilled in McCollision). Valid
// until the team's next reduction.
struct TeamTotals {
  const double* base;
  BOLT_HOST_DEVICE double operator[](int k) const { return base[k]; }
};

}  // namespace bolt
