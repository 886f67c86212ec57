#pragma once
// PETSc block matrices of the synthetic correction and the geometric multigrid that solves its
// systems on boxes and planes (docs/physics.md, "Synthetic correction").
//
// The levels merge 2^3 cells into one (a plane's 2^2); the interpolation copies a coarse cell's
// unknowns into its fine cells (piecewise constant, as suits cell averages) and the restriction
// sums them, so a coarse operator is the Galerkin product P^T A P: each of its blocks the sum of
// the fine blocks that couple the two merged cells. Walls and solids need no coarse description.
// The product is formed here on the 5 x 5 blocks, in place, whenever the fine Jacobian changes:
// PETSc forms it for scalar (AIJ) matrices only, whose multiplication and ILU(0) are twice as
// slow as the block ones and whose symbolic factorisation costs more than the Krylov solves.
#include <petscksp.h>

#include <memory>
#include <vector>

#include "solver/iterative/synthetic_operator.hpp"

namespace bolt {

// A sequential block matrix (PETSc SeqBAIJ, 5 x 5 blocks) of `pattern`'s rows and columns,
// with `column_cells` block columns and all values zero. Its values are written through
// MatSeqBAIJGetArray and given back by restore_written_blocks.
Mat create_block_matrix(const BlockPattern& pattern, std::int64_t column_cells);

// Gives back the values of `matrix` written through its array. Such writes leave the matrix's
// state as it was, and PETSc would keep the factors of the old values; an assembly marks them
// new.
void restore_written_blocks(Mat matrix, PetscScalar*& values);

// Levels of geometric multigrid for `cells`: every axis of more than one cell halved while all
// stay even and keep at least 4 cells, a plane's at least once and then until its coarsest level
// has at most 4096 cells. 1: no multigrid (and always on a line, whose system LU factors in
// linear time).
int synthetic_multigrid_levels(const int cells[3]);

class SyntheticMultigrid {
 public:
  // The hierarchy below the fine operator of `cells` with block pattern `fine`.
  SyntheticMultigrid(const int cells[3], const BlockPattern& fine, int levels);
  ~SyntheticMultigrid();
  SyntheticMultigrid(const SyntheticMultigrid&) = delete;
  SyntheticMultigrid& operator=(const SyntheticMultigrid&) = delete;

  // Makes `pc` this multigrid: its levels, interpolations, operators and smoothers (V-cycles,
  // coloured block Gauss-Seidel down and up each level (block_gauss_seidel.hpp), LU on the
  // coarsest where it has at most 4096 cells (16^3, 64^2) or is a plane, else Gauss-Seidel there
  // too).
  void configure(PC pc) const;

  // Forms every coarse operator from the fine operator's blocks (in `fine`'s pattern order).
  void galerkin(const PetscScalar* fine_blocks);

  // The operator of a coarse level (0: the coarsest) and the interpolation from it to the next
  // finer level.
  Mat level_operator(int level) const;
  Mat level_interpolation(int level) const;

 private:
  struct Level;
  std::vector<std::unique_ptr<Level>> coarse_;  // [0] the coarsest
  const BlockPattern& fine_;
};

}  // namespace bolt
