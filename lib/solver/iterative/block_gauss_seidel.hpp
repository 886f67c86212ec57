#pragma once
// The synthetic correction's block matrices (PETSc SeqBAIJ, 5 x 5 blocks) on every host thread:
// their product, and coloured block Gauss-Seidel as the multigrid's smoother. Debian's PETSc
// runs a SeqBAIJ product on one core, and ILU(0)'s triangular solves are sequential by nature,
// so that on the 3-D cavities the V-cycle took several times the GPU's sweep. Gauss-Seidel whose
// cells are coloured so that no two cells of a colour couple updates all cells of a colour at
// once, with the same result on any number of threads.
#include <petscksp.h>

namespace bolt {

// Gives `matrix` (a SeqBAIJ of 5 x 5 blocks) its products (A x, y + A x, A^T x, y + A^T x; the
// multigrid's residuals, interpolations and restrictions) on every thread, and vectors
// with threaded operations (core/threaded_vec.hpp) where a solver asks the matrix for them (a
// multigrid's levels, a Krylov method's work).
void use_threaded_block_operations(Mat matrix);

// Makes `pc` `sweeps` sweeps of coloured block Gauss-Seidel on its operator (a SeqBAIJ of 5 x 5
// blocks): z from zero for A z = r, all cells of a colour at once, the colours in turn; as
// Richardson's preconditioner, the sweeps on A x = b itself
// (no residual formed), for the iterations Richardson is given, no tolerance checked. The
// colours and the inverted diagonal blocks are formed when the operator's values change. A
// level's smoothers down and up may share it.
void use_coloured_gauss_seidel(PC pc, int sweeps);

}  // namespace bolt
