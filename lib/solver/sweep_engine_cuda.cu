// The CUDA instantiation of SweepEngineImpl: a thread per velocity slot, several warps per
// warp of velocities sweeping successive lines as a wavefront (sweep_kernel), the batch's slices
// interleaved (element p of slot t at p * batch + t) so that a warp's accesses coalesce, and the
// moments reduced across the warp (its 32 velocities are at the same cell: they share an octant)
// before one atomic add per warp.
#include <cmath>

#include "core/launch_cuda.cuh"
#include "kernels/sweep.hpp"

namespace bolt {

namespace {

struct WarpAccumulator {
  template <int K>
  __device__ void add(double* to, Sums<K> sums) const {
#pragma unroll
    for (int k = 0; k < K; ++k)
      for (int offset = 16; offset > 0; offset >>= 1)
        sums[k] += __shfl_xor_sync(0xffffffffu, sums[k], offset);
    if ((threadIdx.x & 31) == 0)
      for (int k = 0; k < K; ++k) atomicAdd(to + k, sums[k]);
  }
};

// A block sweeps the 32 velocities of one warp of slots with `lines` warps: warp w takes the
// lines jj = w, w + lines, ... of each plane, one cell behind warp w - 1 along x, so that the
// line before is done where it reads it (a wavefront across the lines); the warps meet at
// __syncthreads after each cell. A thread per velocity walking every cell alone leaves the GPU
// nearly empty (13 824 velocities: under one warp per scheduler of an H100); the lines multiply
// the warps in flight.
template <class Real, class Relax>
__global__ void sweep_kernel(const Sweep<Real, Relax> sweep, std::int64_t first,
                             std::int64_t count, Real* slices) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, lines = blockDim.x >> 5;
  const std::int64_t t = blockIdx.x * std::int64_t(32) + lane;  // the slot in the batch
  // Warps add into copies of the sums (sweep_sum_copies) by their index.
  const int copy = int((blockIdx.x * std::int64_t(lines) + warp) % sweep.copies.count);
  const WarpAccumulator accumulator;
  const auto velocity = sweep.lane(first + t);
  const SliceView<Real> slice{slices + t, count};
  const int* n = sweep.grid.n;
  for (int kk = 0; kk < n[2]; ++kk)
    for (int band = 0; band < n[1]; band += lines) {
      const int jj = band + warp;
      Real previous = Real(0);
      for (int s = 0; s < n[0] + lines - 1; ++s) {
        const int ii = s - warp;
        if (jj < n[1] && ii >= 0 && ii < n[0])
          previous = sweep.step(velocity, ii, jj, kk, previous, slice, accumulator, copy);
        __syncthreads();
      }
    }
}

__global__ void sum_copies_kernel(double* values, std::int64_t size, int copies) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < size;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    double total = values[i];
    for (int c = 1; c < copies; ++c) total += values[c * size + i];
    values[i] = total;
  }
}

}  // namespace

// The slots [first, first + count) (whole warps of one octant each).
template <class Real, class Relax>
void sweep_batch(CudaExec exec, const Sweep<Real, Relax>& sweep, std::int64_t first,
                 std::int64_t count, Real* slices, std::int64_t /*slice_size*/,
                 const std::array<std::array<std::int64_t, 2>, 3>& /*face_size*/,
                 const SweepCopies& copies) {
  // Lines in flight per warp of velocities: about enough for 16 warps per multiprocessor, as a
  // power of two from 4 to 16, and no more than a plane has or the kernel's registers allow.
  // More lines put more warps in flight but lengthen the wavefront's fill and the barrier every
  // warp of a block meets after each cell: past 16 warps per multiprocessor that costs more than
  // the latency they hide, and 3 or 5 lines swept slower than 4 or 8 (docs/benchmarks.md).
  const std::int64_t groups = count / 32;
  const double wanted = double(multiprocessors(exec)) * 16.0 / double(groups);
  static const int largest_block = [] {
    cudaFuncAttributes attributes{};
    cudaFuncGetAttributes(&attributes, sweep_kernel<Real, Relax>);
    return attributes.maxThreadsPerBlock;
  }();
  const int most = int(std::min<std::int64_t>({16, sweep.grid.n[1], largest_block / 32}));
  int lines = 4;
  while (lines < 16 && double(lines) * std::sqrt(2.0) < wanted) lines *= 2;  // nearest in log2
  while (lines > most && lines > 1) lines /= 2;
  Sweep<Real, Relax> with_copies = sweep;
  with_copies.copies = copies;
  sweep_kernel<<<static_cast<unsigned>(groups), 32 * lines, 0, exec.stream>>>(with_copies, first,
                                                                              count, slices);
  check_cuda_launch("sweep");
}

// values[i] += values[c * size + i] over the copies c > 0.
inline void sum_copies(CudaExec exec, double* values, std::int64_t size, int copies) {
  if (copies <= 1 || size == 0) return;
  const std::int64_t blocks = std::min<std::int64_t>((size + 255) / 256, 65536);
  sum_copies_kernel<<<static_cast<unsigned>(blocks), 256, 0, exec.stream>>>(values, size, copies);
  check_cuda_launch("sum_copies");
}

}  // namespace bolt

#include "sweep_engine_impl.hpp"

namespace bolt {

std::unique_ptr<SweepEngine> make_cuda_sweep_engine(const SweepConfig& config) {
  if (config.precision == Precision::single)
    return std::make_unique<SweepEngineImpl<float, CudaExec>>(config);
  return std::make_unique<SweepEngineImpl<double, CudaExec>>(config);
}

}  // namespace bolt
