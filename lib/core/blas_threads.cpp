#include "core/blas_threads.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace bolt {

void keep_blas_on_one_thread() {
  if (std::getenv("OPENBLAS_NUM_THREADS")) return;
  // Looked up, not linked: the BLAS is whichever library libblas.so.3 names on the machine.
  using Parallel = int (*)();
  using SetThreads = void (*)(int);
  void* parallel = dlsym(RTLD_DEFAULT, "openblas_get_parallel");
  void* set = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
  constexpr int kPthreads = 1;  // openblas_get_parallel: 0 serial, 1 pthreads, 2 OpenMP
  if (parallel && set && reinterpret_cast<Parallel>(parallel)() == kPthreads)
    reinterpret_cast<SetThreads>(set)(1);
}

}  // namespace bolt
