#pragma once
// PETSc's sequential vectors with their arithmetic on every host thread. Debian's PETSc is built
// without OpenMP, so a VECSEQ's VecMDot, VecMAXPY, VecNorm and VecCopy run on one core; the
// iterative solver's accelerator keeps a history of whole states in such vectors, and on a 3-D
// case its vector work took longer than the GPU's sweep. The sums add fixed blocks of entries in
// order, so a run gives the same bits on any OMP_NUM_THREADS.
#include <petscvec.h>

namespace bolt {

// Gives v (a VECSEQ) threaded dot products, norms, copies, scalings and linear combinations;
// the vectors duplicated from it (a solver's work vectors and history) have them too.
void use_threaded_operations(Vec v);

// A new sequential vector of `size` entries in blocks of `block_size`, with the threaded
// operations (for PETSc callbacks, which return an error code).
PetscErrorCode create_threaded_vector(PetscInt size, PetscInt block_size, Vec* v);

}  // namespace bolt
