// The CUDA instantiation of ExplicitEngine.
#include "core/launch_cuda.cuh"
#include "solver/explicit/explicit_engine.hpp"

namespace bolt {

std::unique_ptr<Engine> make_cuda_engine(const EngineConfig& config) {
  if (config.precision == Precision::single)
    return std::make_unique<ExplicitEngine<float, CudaExec>>(config);
  return std::make_unique<ExplicitEngine<double, CudaExec>>(config);
}

}  // namespace bolt
