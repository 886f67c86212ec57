#pragma once
// Many independent 5 x 5 systems (the conservation correction of the Monte Carlo collision,
// paper 000 Eq. 26, one per spatial cell) solved by PETSc as one block-diagonal matrix: BAIJ with
// block size 5 (MATSEQBAIJ on one rank, MATMPIBAIJ across ranks: each rank owns the blocks of its
// cells), KSPPREONLY + PCPBJACOBI, i.e. x = D^-1 b with each diagonal block inverted exactly.
// The host reference for the batched solve inside the collision kernel; no PETSc type in this
// header, so CUDA translation units may include it. PETSc must be initialised.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bolt {

class PetscBlockSolver5 {
 public:
  // `blocks` systems on this rank; across_ranks: one matrix over PETSC_COMM_WORLD (collective:
  // every rank calls solve together), otherwise PETSC_COMM_SELF.
  explicit PetscBlockSolver5(std::int64_t blocks, bool across_ranks = false);
  ~PetscBlockSolver5();
  PetscBlockSolver5(const PetscBlockSolver5&) = delete;
  PetscBlockSolver5& operator=(const PetscBlockSolver5&) = delete;

  // matrices: 25 per block (row-major), rhs: 5 per block; x gets 5 per block. The operator is
  // refilled on every call (same nonzero pattern).
  void solve(const std::vector<double>& matrices, const std::vector<double>& rhs,
             std::vector<double>& x);
  // Matrix type and solver, e.g. "seqbaij, bs 5, preonly + pbjacobi".
  std::string description() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bolt
