#include "core/error.hpp"
#include "solver/explicit/engine.hpp"

namespace bolt {

std::unique_ptr<Engine> make_engine(const EngineConfig& config) {
  if (config.backend == Backend::cpu) return make_cpu_engine(config);
#ifdef BOLT_HAVE_CUDA
  return make_cuda_engine(config);
#else
  fail("-backend cuda: this bolt was built without the CUDA backend (no nvcc at build time)");
#endif
}

}  // namespace bolt
