// The OpenMP instantiation of McCollisionImpl.
#include "core/launch_cpu.hpp"
#include "models/hs_mc/collision_impl.hpp"

namespace bolt {

std::unique_ptr<McCollisionOperator> make_cpu_mc_collision(const McConfig& config) {
  if (config.precision == Precision::single)
    return std::make_unique<McCollisionImpl<float, CpuExec>>(config);
  return std::make_unique<McCollisionImpl<double, CpuExec>>(config);
}

}  // namespace bolt
