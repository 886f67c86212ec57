#pragma once
// One thread for the BLAS that PETSc calls. bolt's host work runs on OpenMP threads; a BLAS with
// a thread pool of its own (OpenBLAS's pthreads build, Debian's default) wakes as many threads
// again for each vector operation PETSc hands it, and the two pools take each other's cores
// (docs/benchmarks.md, what Anderson costs the host). A number the user sets in
// OPENBLAS_NUM_THREADS is kept.

namespace bolt {

// Call once, after PetscInitialize. Does nothing unless the BLAS is OpenBLAS's pthreads build:
// the OpenMP build shares bolt's threads (and would set OpenMP's own count), the serial one has
// none.
void keep_blas_on_one_thread();

}  // namespace bolt
