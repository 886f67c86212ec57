// The CUDA instantiations of SweepEngineImpl, one per relaxation evaluator: a thread per velocity
// slot, several warps per warp of velocities sweeping successive lines as a wavefront
// (sweep_wavefront, run by sweep_kernel or its register-capped twin), the batch's slices
// interleaved (element p of slot t at p * batch + t) so that a warp's accesses coalesce, and the
// sums reduced across the warp (its 32 velocities are at the same cell: they share an octant)
// before one atomic add per sum (WarpAccumulator).
#include <algorithm>
#include <array>

#include "core/launch_cuda.cuh"
#include "kernels/sweep.hpp"

namespace bolt {

namespace {

// The sums of a warp's 32 velocities at one cell, added once to memory. Up to 2 sums go through
// the shuffle tree; wider ones are transposed through the warp's shared scratch, where lane
// (k, half) adds the 16 values of sum k of its half of the warp, two at a time (16-byte loads)
// into four running sums (one chain of 16 dependent adds would wait on each add in turn), and
// one shuffle joins the halves: 13 stores and 8 loads per lane instead of 5 shuffles per sum, and
// the sums' atomic adds leave together from 13 lanes instead of one after another from lane 0.
constexpr int kScratchPitch = 34;  // doubles per sum in the scratch: 32 lanes and a pad, so that
                                   // each half's 16 values start on 16 bytes and the 8 lanes of
                                   // a 16-byte load's phase, reading sums k..k+7, hit distinct
                                   // banks
constexpr int kScratchPerWarp = kRawMoments * kScratchPitch;

struct WarpAccumulator {
  double* scratch;  // [kRawMoments][kScratchPitch] of this warp

  template <int K>
  __device__ void add(double* to, Sums<K> sums) const {
    static_assert(K <= kRawMoments, "the scratch holds kRawMoments sums");
    const int lane = threadIdx.x & 31;
    if constexpr (K <= 2) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        for (int offset = 16; offset > 0; offset >>= 1)
          sums[k] += __shfl_xor_sync(0xffffffffu, sums[k], offset);
      if (lane == 0)
        for (int k = 0; k < K; ++k) atomicAdd(to + k, sums[k]);
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) scratch[k * kScratchPitch + lane] = sums[k];
      __syncwarp();
      const int k = lane & 15, half = lane >> 4;
      double total = 0.0;
      if (k < K) {
        const double2* column =
            reinterpret_cast<const double2*>(scratch + k * kScratchPitch + 16 * half);
        double partial[4] = {0.0, 0.0, 0.0, 0.0};
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          const double2 pair = column[i];
          partial[2 * (i % 2)] += pair.x;
          partial[2 * (i % 2) + 1] += pair.y;
        }
        total = (partial[0] + partial[1]) + (partial[2] + partial[3]);
      }
      total += __shfl_xor_sync(0xffffffffu, total, 16);
      if (half == 0 && k < K) atomicAdd(to + k, total);
      __syncwarp();  // the scratch is read before the next sums overwrite it
    }
  }
};

// A block sweeps the 32 velocities of one warp of slots with `lines` warps, over the lines of the
// sweep in order (y fastest, then z): warp w takes the lines w, w + lines, ..., one cell behind
// warp w - 1 along x, so that the line before is done where a warp reads it (a wavefront). A
// warp starts its next line `period` = max(n_x, lines) steps after its last, once warp
// lines - 1, which sweeps the line before, is past the first cell: the wavefront runs on across
// the planes without draining, and the lines need not divide a plane's. The warps meet at
// __syncthreads after each cell; any two are then at different cells along x (their offsets
// differ by less than the period), so no slice element is written by one warp while another
// reads it. A thread per velocity walking every cell alone leaves the GPU nearly empty (a case's
// velocities fill less than one warp per scheduler); the lines multiply the warps in flight.
// Order: the sweep's scheme (Sweep::order), a parameter of the kernel so that the first-order
// sweep keeps its registers.
template <class Real, class Relax, int Order>
__device__ __forceinline__ void sweep_wavefront(const Sweep<Real, Relax>& sweep, std::int64_t first,
                                                std::int64_t count, Real* slices) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, lines = blockDim.x >> 5;
  const std::int64_t t = blockIdx.x * std::int64_t(32) + lane;  // the slot in the batch
  // Warps add into copies of the sums (sweep_sum_copies) by their index.
  const int copy = int((blockIdx.x * std::int64_t(lines) + warp) % sweep.copies.count);
  extern __shared__ double scratch[];  // [lines][kScratchPerWarp]
  const WarpAccumulator accumulator{scratch + warp * kScratchPerWarp};
  const auto velocity = sweep.lane(first + t);
  const SliceView<Real> slice{slices + t, int(count)};
  const int* n = sweep.grid.n;
  const int period = max(n[0], lines);
  const int rounds = (n[1] * n[2] + lines - 1) / lines;
  const int steps = rounds * period + lines - 1;
  int ii = -warp, jj = warp % n[1], kk = warp / n[1];  // this warp's cell (ii < 0: not started)
  SweepCarry<Real> carry;
  for (int s = 0; s < steps; ++s) {
    if (ii >= 0 && ii < n[0] && kk < n[2]) {
      if constexpr (Order == 2)
        sweep.step_second_order(velocity, ii, jj, kk, carry, slice, accumulator, copy);
      else
        carry.value = sweep.step(velocity, ii, jj, kk, carry.value, slice, accumulator, copy);
    }
    __syncthreads();
    if (++ii == period) {  // on to the next line
      ii = 0;
      carry = SweepCarry<Real>{};
      for (jj += lines; jj >= n[1]; jj -= n[1]) ++kk;
    }
  }
}

template <class Real, class Relax, int Order>
__global__ void sweep_kernel(const Sweep<Real, Relax> sweep, std::int64_t first, std::int64_t count,
                             Real* slices) {
  sweep_wavefront<Real, Relax, Order>(sweep, first, count, slices);
}

// The sweep is latency-bound, and left free its kernels take about 90 to 160 registers a thread,
// which hold a multiprocessor to a few blocks of a few lines. Compiled for these caps (of those
// measured, the best over the 2-D and 3-D cavities and the cube: docs/benchmarks.md) more
// blocks, or blocks of more lines, are resident, and they hide more of each cell's load latency
// than the spills the caps add cost. Where the uncapped kernel runs every block of a batch at
// once with its most lines (the 2V sets' few slots), a cap buys nothing and its spills only
// cost: such batches run uncapped.
template <class Real, int Order>
constexpr int kSweepRegisterCap =
    Order == 1 ? (sizeof(Real) == 4 ? 64 : 72) : (sizeof(Real) == 4 ? 96 : 128);

template <class Real, class Relax, int Order>
__global__ void __maxnreg__((kSweepRegisterCap<Real, Order>))
    capped_sweep_kernel(const Sweep<Real, Relax> sweep, std::int64_t first, std::int64_t count,
                        Real* slices) {
  sweep_wavefront<Real, Relax, Order>(sweep, first, count, slices);
}

__global__ void sum_copies_kernel(double* values, std::int64_t size, int copies) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < size;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    double total = values[i];
    for (int c = 1; c < copies; ++c) total += values[c * size + i];
    values[i] = total;
  }
}

// The most lines a block sweeps at once, and the shared scratch of a block of l lines.
constexpr int kMostSweepLines = 16;
constexpr std::size_t sweep_scratch(int lines) {
  return std::size_t(lines) * kScratchPerWarp * sizeof(double);
}

// A sweep kernel and what it allows on the device (its largest block, resident blocks).
template <class Real, class Relax>
struct SweepKernel {
  void (*launch)(const Sweep<Real, Relax>, std::int64_t, std::int64_t, Real*);
  TeamKernelFacts& facts;
};

// The kernel of the sweep's order for a batch of `groups` blocks on `device`: the capped one
// unless the uncapped one runs every block of the batch at once with the lines asked for
// (`lines`, or else the most it allows a grid of `grid_lines` lines), and wherever only the
// capped one allows the lines asked for.
template <class Real, class Relax>
SweepKernel<Real, Relax> pick_sweep_kernel(int order, int device, std::int64_t groups, int lines,
                                           std::int64_t grid_lines) {
  using Kernel = void (*)(const Sweep<Real, Relax>, std::int64_t, std::int64_t, Real*);
  // [order - 1][capped]
  static const Kernel kernels[2][2] = {
      {sweep_kernel<Real, Relax, 1>, capped_sweep_kernel<Real, Relax, 1>},
      {sweep_kernel<Real, Relax, 2>, capped_sweep_kernel<Real, Relax, 2>}};
  // Per kernel: its shared memory, largest block and resident blocks, per device.
  static TeamKernelFacts facts[2][2] = {
      {TeamKernelFacts(reinterpret_cast<const void*>(kernels[0][0])),
       TeamKernelFacts(reinterpret_cast<const void*>(kernels[0][1]))},
      {TeamKernelFacts(reinterpret_cast<const void*>(kernels[1][0])),
       TeamKernelFacts(reinterpret_cast<const void*>(kernels[1][1]))}};
  const int o = order == 2 ? 1 : 0;
  const std::size_t most_scratch = sweep_scratch(kMostSweepLines);
  TeamKernelFacts& uncapped = facts[o][0];
  uncapped.allow_shared(device, most_scratch, "sweep");
  const int uncapped_lines = int(std::min<std::int64_t>(
      std::min(kMostSweepLines, uncapped.largest_team(device) / 32), grid_lines));
  const int probe_lines = lines > 0 ? lines : uncapped_lines;
  const bool capped = probe_lines > uncapped_lines ||
                      groups > uncapped.resident_blocks(device, 32 * probe_lines,
                                                        sweep_scratch(probe_lines), "sweep");
  TeamKernelFacts& picked = facts[o][capped ? 1 : 0];
  picked.allow_shared(device, most_scratch, "sweep");
  return {kernels[o][capped ? 1 : 0], picked};
}

}  // namespace

// The slots [first, first + count) (whole warps of one octant each), with `lines` lines per warp
// of velocities (0: chosen here); returns the lines.
template <class Real, class Relax>
int sweep_batch(CudaExec exec, const Sweep<Real, Relax>& sweep, std::int64_t first,
                std::int64_t count, Real* slices, std::int64_t /*slice_size*/,
                const std::array<std::array<std::int64_t, 2>, 3>& /*face_size*/, int lines) {
  const std::int64_t groups = count / 32;
  int device = 0;
  cudaGetDevice(&device);
  const std::int64_t sweep_lines = std::int64_t(sweep.grid.n[1]) * sweep.grid.n[2];
  const SweepKernel<Real, Relax> kernel =
      pick_sweep_kernel<Real, Relax>(sweep.order, device, groups, lines, sweep_lines);
  const int largest_block = kernel.facts.largest_team(device);
  const int most = std::min(kMostSweepLines, largest_block / 32);
  const auto launch = [&](std::int64_t from, std::int64_t blocks, int l) {
    // Slot t of the batch keeps its slice at slices + t (stride count) whichever launch sweeps it.
    const std::int64_t offset = from * 32;
    kernel.launch<<<static_cast<unsigned>(blocks), 32 * l, sweep_scratch(l), exec.stream>>>(
        sweep, first + offset, count, slices + offset);
    check_cuda_launch("sweep");
  };
  if (lines > 0) {
    require(lines <= most, "-iter_lines ", lines, ": the sweep's blocks hold at most ", most,
            " lines on this GPU (its registers limit a block to ", largest_block, " threads)");
    launch(0, groups, lines);
    return lines;
  }
  // Every block sweeps the whole grid, so the blocks run in waves of equal length, and a wave a
  // fraction full would take as long as a full one (the sweep is latency-bound: a block is no
  // faster for having a multiprocessor to itself). Whole waves take 4 lines (on the benchmark
  // cases, more lines per block gave fewer blocks at once and no faster a wave, fewer gave longer
  // sweeps; docs/benchmarks.md); the blocks that are left, or all of them when they are fewer than
  // a wave, take the most lines that still let them run at once, which shortens their sweep.
  const auto resident = [&](int l) {
    return std::int64_t(kernel.facts.resident_blocks(device, 32 * l, sweep_scratch(l), "sweep"));
  };
  const int allowed = int(std::min<std::int64_t>(most, sweep_lines));
  lines = std::min(4, allowed);
  const std::int64_t wave = resident(lines);
  const std::int64_t whole = wave > 0 ? groups / wave * wave : 0, last = groups - whole;
  if (whole > 0) launch(0, whole, lines);
  if (last > 0) {
    int fill = lines;
    while (fill < allowed && resident(fill + 1) >= last) ++fill;
    launch(whole, last, fill);
    if (whole == 0) lines = fill;
  }
  return lines;
}

// values[i] += values[c * size + i] over the copies c > 0.
inline void sum_copies(CudaExec exec, double* values, std::int64_t size, int copies) {
  if (copies <= 1 || size == 0) return;
  const std::int64_t blocks = std::min<std::int64_t>((size + 255) / 256, 65536);
  sum_copies_kernel<<<static_cast<unsigned>(blocks), 256, 0, exec.stream>>>(values, size, copies);
  check_cuda_launch("sum_copies");
}

}  // namespace bolt

#include "solver/iterative/sweep_engine_impl.hpp"

namespace bolt {

SweepEngineFactory cuda_sweep_engine_factory(std::string_view model) {
  return sweep_engine_factory_on<CudaExec>(model);
}

}  // namespace bolt
