#include "core/blas_threads.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace bolt {

void keep_blas_on_one_thread() {
  if (std::getenv("OPENBLAS_NUM_THREADS")) return;
  // Looked up, not linked: the BLAS is whichever library libblas.so.3 names on the machine.
  using SetThreads = void (*)(int);
  if (void* set = dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))
    reinterpret_cast<SetThreads>(set)(1);
}

}  // namespace bolt
