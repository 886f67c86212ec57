#include "models/hs_mc/petsc_block_solver.hpp"

#include <petscksp.h>

#include "core/error.hpp"
#include "core/petsc_check.hpp"
#include "core/solver_options.hpp"

namespace bolt {

namespace {

constexpr PetscChecker check{"-mc_correction petsc"};

constexpr const char* kOptionsPrefix = "mc_correction_";
const bool kOptionsPrefixRegistered =
    register_solver_options_prefix(kOptionsPrefix, {"mc_correction", {"petsc"}});

}  // namespace

struct PetscBlockSolver5::Impl {
  std::int64_t blocks = 0;
  Mat A = nullptr;
  Vec b = nullptr, x = nullptr;
  KSP ksp = nullptr;
  PetscInt first_block = 0;  // global index of this rank's first block row
  bool options_checked = false;
};

PetscBlockSolver5::PetscBlockSolver5(std::int64_t blocks, bool across_ranks)
    : impl_(std::make_unique<Impl>()) {
  PetscBool initialised = PETSC_FALSE;
  check(PetscInitialized(&initialised), "PetscInitialized");
  require(initialised == PETSC_TRUE,
          "the PETSc conservation solve needs PETSc initialised (PetscInitialize)");
  require(blocks >= 0 && blocks * 5 < std::int64_t(1) << 31,
          "PETSc conservation solve: ", blocks, " cells do not fit 32-bit PETSc indices");
  Impl& m = *impl_;
  m.blocks = blocks;
  const MPI_Comm comm = across_ranks ? PETSC_COMM_WORLD : PETSC_COMM_SELF;
  const PetscInt local = PetscInt(5 * blocks);
  // One block per block row, none off the diagonal: the preallocation is exact.
  check(MatCreateBAIJ(comm, 5, local, local, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 0,
                      nullptr, &m.A),
        "MatCreateBAIJ");
  check(MatSetOption(m.A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE), "MatSetOption");
  PetscInt row_start = 0, row_end = 0;
  check(MatGetOwnershipRange(m.A, &row_start, &row_end), "MatGetOwnershipRange");
  m.first_block = row_start / 5;
  check(MatCreateVecs(m.A, &m.x, &m.b), "MatCreateVecs");
  check(KSPCreate(comm, &m.ksp), "KSPCreate");
  check(KSPSetType(m.ksp, KSPPREONLY), "KSPSetType");
  PC pc = nullptr;
  check(KSPGetPC(m.ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, PCPBJACOBI), "PCSetType");
  // -mc_correction_ksp_view etc. inspect it; the type is fixed above and may be overridden.
  check(KSPSetOptionsPrefix(m.ksp, kOptionsPrefix), "KSPSetOptionsPrefix");
  check(KSPSetFromOptions(m.ksp), "KSPSetFromOptions");
}

PetscBlockSolver5::~PetscBlockSolver5() {
  if (!impl_) return;
  KSPDestroy(&impl_->ksp);
  VecDestroy(&impl_->x);
  VecDestroy(&impl_->b);
  MatDestroy(&impl_->A);
}

void PetscBlockSolver5::solve(const std::vector<double>& matrices, const std::vector<double>& rhs,
                              std::vector<double>& x) {
  Impl& m = *impl_;
  require(matrices.size() == std::size_t(25 * m.blocks) && rhs.size() == std::size_t(5 * m.blocks),
          "PETSc conservation solve: ", matrices.size(), " matrix entries and ", rhs.size(),
          " right-side entries for ", m.blocks, " blocks");
  for (std::int64_t i = 0; i < m.blocks; ++i) {
    const PetscInt block = m.first_block + PetscInt(i);
    check(MatSetValuesBlocked(m.A, 1, &block, 1, &block, matrices.data() + 25 * i, INSERT_VALUES),
          "MatSetValuesBlocked");
  }
  check(MatAssemblyBegin(m.A, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(m.A, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  PetscScalar* b = nullptr;
  check(VecGetArray(m.b, &b), "VecGetArray");
  for (std::size_t k = 0; k < rhs.size(); ++k) b[k] = rhs[k];
  check(VecRestoreArray(m.b, &b), "VecRestoreArray");
  check(KSPSetOperators(m.ksp, m.A, m.A), "KSPSetOperators");
  check(KSPSolve(m.ksp, m.b, m.x), "KSPSolve");
  if (!m.options_checked) {
    reject_unused_solver_options(kOptionsPrefix, "conservation correction's solver", true);
    m.options_checked = true;
  }
  KSPConvergedReason reason;
  check(KSPGetConvergedReason(m.ksp, &reason), "KSPGetConvergedReason");
  require(reason >= 0, "PETSc conservation solve diverged (reason ", int(reason),
          "): a singular 5 x 5 block?");
  const PetscScalar* result = nullptr;
  check(VecGetArrayRead(m.x, &result), "VecGetArrayRead");
  x.assign(result, result + rhs.size());
  check(VecRestoreArrayRead(m.x, &result), "VecRestoreArrayRead");
}

std::string PetscBlockSolver5::description() const {
  MatType mat_type = nullptr;
  KSPType ksp_type = nullptr;
  PCType pc_type = nullptr;
  PC pc = nullptr;
  check(MatGetType(impl_->A, &mat_type), "MatGetType");
  check(KSPGetType(impl_->ksp, &ksp_type), "KSPGetType");
  check(KSPGetPC(impl_->ksp, &pc), "KSPGetPC");
  check(PCGetType(pc, &pc_type), "PCGetType");
  return std::string(mat_type) + ", bs 5, " + ksp_type + " + " + pc_type;
}

}  // namespace bolt
