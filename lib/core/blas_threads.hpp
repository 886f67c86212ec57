#pragma once
// One thread for the BLAS that PETSc calls. bolt's host work runs on OpenMP threads; a BLAS with
// a thread pool of its own (OpenBLAS's pthreads build, Debian's default) wakes as many threads
// again for each vector operation PETSc hands it, and the two pools take each other's cores: on
// a 16-core host the iterative solver's Anderson ran 7 times slower than with one BLAS thread.
// A number the user sets in OPENBLAS_NUM_THREADS is kept.

namespace bolt {

// Call once, after PetscInitialize. Does nothing where the BLAS is not OpenBLAS.
void keep_blas_on_one_thread();

}  // namespace bolt
