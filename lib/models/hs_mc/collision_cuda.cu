// The CUDA instantiation of McCollisionImpl.
#include "core/launch_cuda.cuh"
#include "models/hs_mc/collision_impl.hpp"

namespace bolt {

std::unique_ptr<McCollisionOperator> make_cuda_mc_collision(const McConfig& config) {
  if (config.precision == Precision::single)
    return std::make_unique<McCollisionImpl<float, CudaExec>>(config);
  return std::make_unique<McCollisionImpl<double, CudaExec>>(config);
}

}  // namespace bolt
