// The OpenMP instantiation of ExplicitEngine.
#include "core/launch_cpu.hpp"
#include "solver/explicit/explicit_engine.hpp"

namespace bolt {

std::unique_ptr<Engine> make_cpu_engine(const EngineConfig& config) {
  if (config.precision == Precision::single)
    return std::make_unique<ExplicitEngine<float, CpuExec>>(config);
  return std::make_unique<ExplicitEngine<double, CpuExec>>(config);
}

}  // namespace bolt
