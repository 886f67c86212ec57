#pragma once
// The CUDA backend of the launch API (see launch_cpu.hpp for the Team concept). Include only
// from .cu translation units. One team = one thread block working on one item (a spatial cell):
// threads split the velocities, reductions go through warp shuffles and shared memory.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "cell_tiles.hpp"
#include "cuda_check.hpp"
#include "error.hpp"
#include "sums.hpp"
#include "team_kernel_facts.cuh"
#include "team_memory.hpp"

namespace bolt {

struct CudaTeam;
struct CudaExec {
  using Team = CudaTeam;  // what its kernels' functors are run by
  cudaStream_t stream = nullptr;
};

inline void check_cuda_launch(const char* label) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    fail_device("CUDA launch of ", label, " failed: ", cudaGetErrorString(status));
}

struct CudaTeam {
  // A thread issues the loads of a batch of items before it waits on any (see CpuTeam).
  static constexpr bool kBatchesLoads = true;
  // kMaxWarpsPerTeam * K doubles of shared memory: a reduction's K warp shares of warp w at
  // w * K .. w * K + K - 1 (a warp's lanes write, and the exchange's threads read, consecutive
  // doubles: with the sums' rows of kMaxWarpsPerTeam, both had hit one bank 16 times over).
  double* reduce_buffer;
  char* scratch;          // dynamic shared memory for a velocity row, or nullptr
  int scratch_offset;     // of the scratch in the dynamic shared memory, in bytes

  // Unrolled so that a thread has several velocities' loads in flight: the loop body is a chain
  // of dependent loads, and one iteration at a time leaves the memory system idle.
  template <class F>
  __device__ void for_each(int n, F&& f) const {
#pragma unroll 4
    for (int i = threadIdx.x; i < n; i += blockDim.x) f(i);
  }

  // For bodies that batch their own loads: unrolling them as well only costs registers.
  template <class F>
  __device__ void for_each_rolled(int n, F&& f) const {
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x) f(i);
  }

  // Sums<K> of f(i, sums) over [0, n): f adds into per-thread accumulators of type Acc (float
  // where float's relative accuracy suffices: fewer registers, no conversions), which a warp
  // adds in Acc too; the team's totals are formed in double.
  template <int K, class Acc = double, class F>
  __device__ Sums<K> reduce(int n, F&& f) const {
    return reduce_unrolled<4, K, Acc>(n, f);
  }

  // The same for bodies that batch their own loads (see for_each_rolled).
  template <int K, class Acc = double, class F>
  __device__ Sums<K> reduce_rolled(int n, F&& f) const {
    return reduce_unrolled<1, K, Acc>(n, f);
  }

  // reduce with the thread's loop unrolled `Unroll` times.
  template <int Unroll, int K, class Acc, class F>
  __device__ Sums<K> reduce_unrolled(int n, F&& f) const {
    Sums<K, Acc> sums = Sums<K, Acc>::zero();
#pragma unroll Unroll
    for (int i = threadIdx.x; i < n; i += blockDim.x) f(i, sums);
    return team_totals(sums);
  }

  // Two sets of sums, K1 and K2, that f(i, first, second) adds into over [0, n), with one
  // exchange between the warps (a warp reduces each set on its own: at most 32 sums at once).
  // Not unrolled: its body batches its own loads (see for_each_rolled).
  template <int K1, int K2, class Acc, class F>
  __device__ TeamTotals reduce_pair_rolled(int n, F&& f) const {
    Sums<K1, Acc> first = Sums<K1, Acc>::zero();
    Sums<K2, Acc> second = Sums<K2, Acc>::zero();
#pragma unroll 1
    for (int i = threadIdx.x; i < n; i += blockDim.x) f(i, first, second);
    const Acc first_share = warp_totals(first);
    const Acc second_share = warp_totals(second);
    __syncthreads();  // the buffer may still be read by a previous reduction
    publish<K1, K1 + K2>(first_share, 0);
    publish<K2, K1 + K2>(second_share, K1);
    exchange<K1 + K2>();
    return TeamTotals{reduce_buffer};
  }

  // Sums<K> of f(i, sums) over [0, n) formed by every warp on its own: lanes stride over n, a
  // butterfly of shuffles adds them, and lane 0's totals go to every lane (the butterfly's
  // order differs between lanes). No barrier, no shared memory: for short sums.
  template <int K, class Acc = double, class F>
  __device__ Sums<K, Acc> group_sums(int n, F&& f) const {
    Sums<K, Acc> sums = Sums<K, Acc>::zero();
    const int lane = threadIdx.x % 32;
    for (int i = lane; i < n; i += 32) f(i, sums);
    for (int k = 0; k < K; ++k) {
      for (int offset = 16; offset > 0; offset /= 2)
        sums[k] += __shfl_xor_sync(0xffffffffu, sums[k], offset);
      sums[k] = __shfl_sync(0xffffffffu, sums[k], 0);
    }
    return sums;
  }

  // The totals over the team of every thread's K partial sums, on every thread. A warp adds its
  // lanes' sums in Acc (a float Acc needs half the shuffles of double and no conversions), the
  // per-warp partials are added in double.
  template <int K, class Acc>
  __device__ Sums<K> team_totals(const Sums<K, Acc>& sums) const {
    const Acc share = warp_totals(sums);
    __syncthreads();  // the buffer may still be read by a previous reduction
    publish<K, K>(share, 0);
    return exchanged_totals<K>();
  }

  // The warp's totals of K sums, scattered over its lanes: lane L holds that of sum
  // L >> (5 - log2 width) (lanes of a group hold equal values; publish writes one per group).
  template <int K, class Acc>
  __device__ Acc warp_totals(const Sums<K, Acc>& sums) const {
    static_assert(K >= 1 && K <= 32, "a warp reduces at most 32 sums at once");
    constexpr int kWidth = warp_reduce_width(K);
    Acc s[kWidth];
    for (int k = 0; k < K; ++k) s[k] = sums[k];
    for (int k = K; k < kWidth; ++k) s[k] = Acc(0);
    warp_reduce_scatter<kWidth>(s, threadIdx.x % 32, 16);
    return s[0];
  }

  // Writes the warp's share of K sums (warp_totals) as sums offset .. offset + K of a reduction
  // of Total sums.
  template <int K, int Total, class Acc>
  __device__ void publish(Acc share, int offset) const {
    constexpr int kShift = 5 - log2_of(warp_reduce_width(K));
    const int lane = threadIdx.x % 32, mine = lane >> kShift;
    if (lane % (1 << kShift) == 0 && mine < K)
      reduce_buffer[threadIdx.x / 32 * Total + offset + mine] = double(share);
  }

  // The team's totals of K published sums: one thread per sum adds the warps' shares in warp
  // order (the same result on every run) into warp 0's slot (no other thread reads that sum's
  // shares meanwhile): total k at reduce_buffer[k].
  template <int K>
  __device__ void exchange() const {
    const int warps = (blockDim.x + 31) / 32;
    __syncthreads();
    for (int k = threadIdx.x; k < K; k += blockDim.x) {
      double total = 0.0;
      for (int w = 0; w < warps; ++w) total += reduce_buffer[w * K + k];
      reduce_buffer[k] = total;
    }
    __syncthreads();
  }
  // The same, then the K totals on every thread.
  template <int K>
  __device__ Sums<K> exchanged_totals() const {
    exchange<K>();
    Sums<K> result;
    for (int k = 0; k < K; ++k) result[k] = reduce_buffer[k];
    return result;
  }

  // The power of two at or above k, and its logarithm.
  static constexpr int warp_reduce_width(int k) {
    return k <= 1 ? 1 : 2 * warp_reduce_width((k + 1) / 2);
  }
  static constexpr int log2_of(int width) { return width <= 1 ? 0 : 1 + log2_of(width / 2); }

  // Reduce-scatter across the lanes of a warp: at each level a lane keeps one half of its Width
  // sums, adds its partner's copy of that half (lane ^ offset) and hands over the other half, so
  // Width sums cost Width - 1 shuffles instead of 5 Width for a shuffle tree per sum; once one
  // sum is left, the remaining levels add it up.
  template <int Width, class T>
  __device__ static void warp_reduce_scatter(T* s, int lane, int offset) {
    if constexpr (Width == 1) {
      for (; offset > 0; offset /= 2) s[0] += __shfl_xor_sync(0xffffffffu, s[0], offset);
    } else {
      constexpr int kHalf = Width / 2;
      const bool upper = lane & offset;
#pragma unroll
      for (int i = 0; i < kHalf; ++i) {
        const T keep = upper ? s[i + kHalf] : s[i];
        const T give = upper ? s[i] : s[i + kHalf];
        s[i] = keep + __shfl_xor_sync(0xffffffffu, give, offset);
      }
      warp_reduce_scatter<kHalf>(s, lane, offset / 2);
    }
  }

  template <class Real>
  __device__ Real* row_scratch(Real* fallback) const {
    return scratch ? reinterpret_cast<Real*>(scratch) : fallback;
  }
  // The scratch of a kernel that always has one, addressed from the shared-memory symbol itself
  // so that the compiler emits shared-memory loads and stores (row_scratch's pointer may be
  // global memory: generic accesses, which queue with the global ones).
  template <class T>
  __device__ T* scratch_memory() const {
    extern __shared__ double dynamic_shared[];
    return reinterpret_cast<T*>(reinterpret_cast<char*>(dynamic_shared) + scratch_offset);
  }
  __device__ void sync() const { __syncthreads(); }
  // Item i of a for_each runs on thread i % blockDim.x, and blockDim.x is a multiple of 32: the
  // items of a group of kTeamGroup share a warp.
  __device__ void sync_group() const { __syncwarp(); }
  __device__ bool leader() const { return threadIdx.x == 0; }
};

template <int ReduceWidth, class F>
__device__ void run_team_items(std::int64_t items, std::size_t scratch_bytes, const F& f) {
  extern __shared__ double shared[];
  constexpr int kScratchOffset = kMaxWarpsPerTeam * ReduceWidth * sizeof(double);
  CudaTeam team{shared, scratch_bytes ? reinterpret_cast<char*>(shared) + kScratchOffset : nullptr,
                kScratchOffset};
  for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
    f(team, item);
    __syncthreads();  // the scratch row is reused by the next item
  }
}

template <int ReduceWidth, class F>
__global__ void team_kernel(std::int64_t items, std::size_t scratch_bytes, F f) {
  run_team_items<ReduceWidth>(items, scratch_bytes, f);
}

template <int ReduceWidth, int MaxThreads, class F>
__global__ void __launch_bounds__(MaxThreads)
    bounded_team_kernel(std::int64_t items, std::size_t scratch_bytes, F f) {
  run_team_items<ReduceWidth>(items, scratch_bytes, f);
}

// A functor may declare `static constexpr int kTeamThreads = N` (N > 0): its kernel is then
// compiled for blocks of up to N threads (__launch_bounds__), so that the compiler keeps its
// registers within what N threads per SM allow.
template <class F, class = void>
struct TeamThreadsBound : std::integral_constant<int, 0> {};
template <class F>
struct TeamThreadsBound<F, std::void_t<decltype(F::kTeamThreads)>>
    : std::integral_constant<int, F::kTeamThreads> {};

template <int ReduceWidth, class F>
constexpr auto team_kernel_for() {
  if constexpr (TeamThreadsBound<F>::value > 0)
    return bounded_team_kernel<ReduceWidth, TeamThreadsBound<F>::value, F>;
  else
    return team_kernel<ReduceWidth, F>;
}

// The block shape of a team kernel: threads per block and bytes of dynamic shared memory, on
// the current device.
struct TeamLaunch {
  int threads;
  std::size_t shared;
  int device;
};

// The facts of f's team kernel (one object per kernel, made at its first launch).
template <int ReduceWidth, class F>
TeamKernelFacts& team_kernel_facts() {
  static TeamKernelFacts facts(reinterpret_cast<const void*>(team_kernel_for<ReduceWidth, F>()));
  return facts;
}

// The shape of f's team kernel for teams of team_size threads with scratch_bytes of scratch,
// the kernel's shared memory opted in where it needs more than the default.
template <int ReduceWidth, class F>
TeamLaunch prepare_team_kernel(int team_size, std::size_t scratch_bytes, const char* label) {
  const std::size_t shared = kMaxWarpsPerTeam * ReduceWidth * sizeof(double) + scratch_bytes;
  TeamKernelFacts& facts = team_kernel_facts<ReduceWidth, F>();
  int device = 0;
  cudaGetDevice(&device);
  if (shared > 48 * 1024) facts.allow_shared(device, shared, label);  // above the default
  // Whole warps (CudaTeam::sync_group relies on it).
  return {std::max(32, std::min(team_size, facts.largest_team(device)) / 32 * 32), shared, device};
}

// Launches f's team kernel, prepared as `launch`, over items > 0.
template <int ReduceWidth, class F>
void launch_team_kernel(CudaExec exec, std::int64_t items, const TeamLaunch& launch,
                        std::size_t scratch_bytes, const F& f, const char* label) {
  constexpr auto kernel = team_kernel_for<ReduceWidth, F>();
  const std::int64_t blocks = std::min<std::int64_t>(items, 1 << 30);
  kernel<<<static_cast<unsigned>(blocks), launch.threads, launch.shared, exec.stream>>>(
      items, scratch_bytes, f);
  check_cuda_launch(label);
}

// Runs f(team, item) for every item; ReduceWidth is the widest Sums<K> the functor reduces.
// scratch_bytes > 0 gives each team a velocity row in shared memory (row_scratch).
template <int ReduceWidth, class F>
void for_each_team(CudaExec exec, std::int64_t items, int team_size, std::size_t scratch_bytes,
                   const F& f, const char* label = "team") {
  if (items <= 0) return;
  const TeamLaunch launch = prepare_team_kernel<ReduceWidth, F>(team_size, scratch_bytes, label);
  launch_team_kernel<ReduceWidth>(exec, items, launch, scratch_bytes, f, label);
}

// f over the cells of a box in the order of its tiles: block k takes the k-th cell of the padded
// tiles, a block in a tile's padding none.
template <class F>
struct TiledCells {
  static constexpr int kTeamThreads = TeamThreadsBound<F>::value;
  F f;
  PaddedTileOrder order;

  template <class Team>
  __device__ void operator()(const Team& team, std::int64_t k) const {
    const int item = order.item(int(k));
    if (item >= 0) f(team, item);
  }
};

// Cells per layer of the GPU's tiles (cell_tiles.hpp) when `resident` teams run at once. A cell's
// streaming reads its neighbours' rows, which come from the L2, not from memory a second time,
// while the blocks that read them run close together; blocks start in the order of their index.
// An eighth of the resident teams was the best of the layers measured on the 3-D cavity
// (docs/benchmarks.md, "Order of the cells"): a layer further back is more often evicted, a
// smaller one leaves more of the tiles' edges, whose neighbours lie in the next tile, to memory.
inline std::int64_t gpu_layer_cells(int resident) { return std::max(1, resident / 8); }

// for_each_team over the n[0] n[1] n[2] cells of a box (item = x + n0 (y + n1 z)), its blocks in
// the order of the box's tiles (gpu_layer_cells; the CPU's order is its own).
template <int ReduceWidth, class F>
void for_each_cell_team(CudaExec exec, const int n[3], std::size_t /*row_bytes*/, int team_size,
                        std::size_t scratch_bytes, const F& f, const char* label = "team") {
  const std::int64_t cells = std::int64_t(n[0]) * n[1] * n[2];
  if (cells <= 0) return;
  require(cells <= std::numeric_limits<int>::max(), label, ": ", cells,
          " cells in one pass, at most ", std::numeric_limits<int>::max());
  using Tiled = TiledCells<F>;
  const TeamLaunch launch =
      prepare_team_kernel<ReduceWidth, Tiled>(team_size, scratch_bytes, label);
  const int resident = team_kernel_facts<ReduceWidth, Tiled>().resident_blocks(
      launch.device, launch.threads, launch.shared, label);
  CellTiles tiles = layer_tiles(n, gpu_layer_cells(resident));
  // Padding past an int's reach: the box's own order, one tile, no padding.
  if (tiles.padded_cells() > std::numeric_limits<int>::max())
    tiles = CellTiles{{n[0], n[1], n[2]}, {n[0], n[1], n[2]}, {1, 1, 1}};
  launch_team_kernel<ReduceWidth>(exec, tiles.padded_cells(), launch, scratch_bytes,
                                  Tiled{f, PaddedTileOrder(tiles)}, label);
}

// The team size, team_size or wider, at which the current device holds the most threads of f's
// cell-team kernel (for_each_cell_team) at once with scratch_bytes of scratch a team: where the
// scratch, not the registers, limits the teams a multiprocessor holds, wider teams run the
// threads the registers leave room for. Of equals, the narrowest.
template <int ReduceWidth, class F>
int team_size_filling_processor(CudaExec, int team_size, std::size_t scratch_bytes,
                                const char* label) {
  using Tiled = TiledCells<F>;
  TeamKernelFacts& facts = team_kernel_facts<ReduceWidth, Tiled>();
  int device = 0;
  cudaGetDevice(&device);
  return facts.remembered_team(device, team_size, scratch_bytes, [&] {
    int best = 0;
    std::int64_t most = 0;
    for (int size = team_size; size <= facts.largest_team(device); size += 32) {
      const TeamLaunch launch =
          prepare_team_kernel<ReduceWidth, Tiled>(size, scratch_bytes, label);
      const std::int64_t threads =
          std::int64_t(launch.threads) *
          facts.resident_blocks(device, launch.threads, launch.shared, label);
      if (threads > most) most = threads, best = launch.threads;
    }
    return best > 0 ? best : team_size;
  });
}

// Shared memory a block may opt in to on the current device.
inline std::size_t shared_memory_per_team(CudaExec) {
  int device = 0, limit = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  return std::size_t(limit);
}

// The same, and what each of two blocks on one multiprocessor may have.
inline TeamSharedMemory team_shared_memory(CudaExec exec) {
  int device = 0, per_processor = 0, reserved = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&per_processor, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device);
  const std::size_t alone = shared_memory_per_team(exec);
  return {alone, std::min(alone, std::size_t(per_processor / 2 - reserved))};
}

// Multiprocessors of the device (launch_cpu.hpp: 0).
inline int multiprocessors(CudaExec) {
  int device = 0, count = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);
  return count;
}

// stable_sort_pairs (launch_cpu.hpp): CUB's radix sort, which is stable, over key_bits bits.
inline std::size_t sort_pairs_workspace(CudaExec, int n, int key_bits) {
  std::size_t bytes = 0;
  check_cuda(cub::DeviceRadixSort::SortPairs(
                 nullptr, bytes, static_cast<const int*>(nullptr), static_cast<int*>(nullptr),
                 static_cast<const int*>(nullptr), static_cast<int*>(nullptr), n, 0, key_bits),
             "radix sort workspace");
  return bytes;
}
inline void stable_sort_pairs(CudaExec exec, const int* keys_in, int* keys_out,
                              const int* values_in, int* values_out, int n, int key_bits,
                              void* workspace, std::size_t workspace_bytes) {
  check_cuda(cub::DeviceRadixSort::SortPairs(workspace, workspace_bytes, keys_in, keys_out,
                                             values_in, values_out, n, 0, key_bits, exec.stream),
             "radix sort");
}

// A second stream for work that does not depend on the main stream's latest kernels, so that
// the two run side by side: fork() makes it wait for what `main` has issued so far, join() makes
// `main` wait for what it has issued since.
class CudaSideStream {
 public:
  // At the device's greatest priority: its small kernels run beside a long kernel of the main
  // stream, their blocks taking the multiprocessors that kernel's blocks leave, before that
  // kernel's next ones (at equal priority they would wait for its last).
  CudaSideStream() {
    int least = 0, greatest = 0;
    check_cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest), "stream priorities");
    check_cuda(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest),
               "stream create");
    check_cuda(cudaEventCreateWithFlags(&forked_, cudaEventDisableTiming), "event create");
    check_cuda(cudaEventCreateWithFlags(&joined_, cudaEventDisableTiming), "event create");
  }
  ~CudaSideStream() {
    cudaEventDestroy(joined_);
    cudaEventDestroy(forked_);
    cudaStreamDestroy(stream_);
  }
  CudaSideStream(const CudaSideStream&) = delete;
  CudaSideStream& operator=(const CudaSideStream&) = delete;

  CudaExec exec() const { return {stream_}; }
  void fork(CudaExec main) {
    check_cuda(cudaEventRecord(forked_, main.stream), "event record");
    check_cuda(cudaStreamWaitEvent(stream_, forked_, 0), "stream wait");
  }
  void join(CudaExec main) {
    check_cuda(cudaEventRecord(joined_, stream_), "event record");
    check_cuda(cudaStreamWaitEvent(main.stream, joined_, 0), "stream wait");
  }

 private:
  cudaStream_t stream_ = nullptr;
  cudaEvent_t forked_ = nullptr, joined_ = nullptr;
};
inline CudaSideStream side_stream_of(CudaExec) { return {}; }

inline void synchronize(CudaExec exec) {
  check_cuda(cudaStreamSynchronize(exec.stream), "stream synchronize");
}

}  // namespace bolt
