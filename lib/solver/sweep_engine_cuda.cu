// The CUDA instantiation of SweepEngineImpl: a thread per velocity slot, the batch's slices
// interleaved (element p of slot t at p * batch + t) so that a warp's accesses coalesce, and the
// moments reduced across the warp (whose 32 velocities are at the same cell: they share an
// octant) before one atomic add per warp.
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

template <class Real, class Relax>
__global__ void sweep_kernel(Sweep<Real, Relax> sweep, std::int64_t first, std::int64_t count,
                             Real* slices, SweepCopies copies) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (t >= count) return;  // count is whole warps: a warp returns whole
  const int copy = int((t / 32) % copies.count);
  sweep.moments += copy * copies.moments_stride;
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s)
      if (sweep.face[a][s].sums) sweep.face[a][s].sums += copy * copies.face_stride[a][s];
  const WarpAccumulator accumulator;
  sweep(first + t, SliceView<Real>{slices + t, count}, accumulator);
}

}  // namespace

template <class Real, class Relax>
void sweep_batch(CudaExec exec, const Sweep<Real, Relax>& sweep, std::int64_t first,
                 std::int64_t count, Real* slices, std::int64_t /*slice_size*/,
                 const std::array<std::array<std::int64_t, 2>, 3>& /*face_size*/,
                 const SweepCopies& copies) {
  constexpr int kThreads = 128;
  const std::int64_t blocks = (count + kThreads - 1) / kThreads;
  sweep_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, exec.stream>>>(sweep, first, count,
                                                                            slices, copies);
  check_cuda_launch("sweep");
}

__global__ void sum_copies_kernel(double* values, std::int64_t size, int copies) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < size;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    double total = values[i];
    for (int c = 1; c < copies; ++c) total += values[c * size + i];
    values[i] = total;
  }
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
