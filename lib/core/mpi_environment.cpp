#include "core/mpi_environment.hpp"

#include <cstdlib>

namespace bolt {

bool started_by_mpi_launcher() {
  for (const char* name : kMpiLauncherVariables)
    if (std::getenv(name) != nullptr) return true;
  return false;
}

void prepare_mpi_start() {
  setenv("OMPI_MCA_sharedfp", "^sm", 0);
  if (started_by_mpi_launcher()) return;
  setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
  setenv("OMPI_MCA_pml", "ob1", 0);
  setenv("OMPI_MCA_btl", "self", 0);
  setenv("HWLOC_COMPONENTS", "-cuda,-nvml,-opencl,-gl,-rsmi,-levelzero", 0);
}

}  // namespace bolt
