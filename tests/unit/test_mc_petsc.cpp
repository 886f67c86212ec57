// The conservation correction solved by PETSc on the host (block-diagonal BAIJ, bs 5,
// KSPPREONLY + PCPBJACOBI) as the reference for the batched 5 x 5 solve inside the collision
// kernel:
//  * the PETSc solver itself on known block systems;
//  * batched and PETSc give the same A, B, C (the y of every cell) and the same rows, 1e-12;
//  * the whole corrected step of the kernel equals reference MC step + reference system +
//    PETSc solve + reference correction, 1e-12.
// PETSc is initialised once for this executable (MPI is already up: PETSc uses it and leaves
// MPI_Finalize to the test main).
#include <gtest/gtest.h>
#include <petscsys.h>

#include <cmath>
#include <cstdio>

#include "mc_helpers.hpp"
#include "petsc_environment.hpp"
#include "models/hs_mc/petsc_block_solver.hpp"

namespace bolt {
namespace {

[[maybe_unused]] ::testing::Environment* const kPetsc =
    ::testing::AddGlobalTestEnvironment(new test::PetscEnvironment);

// Blocks A_i = M_i M_i^T + I (well conditioned), x_i known: the solve returns x to round-off.
TEST(PetscBlockSolver, SolvesBlockDiagonalSystems) {
  const int blocks = 37;
  std::vector<double> A(25 * blocks), b(5 * blocks, 0.0), x_true(5 * blocks), x;
  for (int i = 0; i < blocks; ++i) {
    double M[5][5];
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 5; ++c) M[r][c] = 2.0 * test::hash01(1000 * i + 5 * r + c) - 1.0;
    for (int k = 0; k < 5; ++k) x_true[5 * i + k] = std::sin(1.0 + i + 0.3 * k);
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 5; ++c) {
        double s = r == c ? 1.0 : 0.0;
        for (int k = 0; k < 5; ++k) s += M[r][k] * M[c][k];
        A[25 * i + 5 * r + c] = s;
        b[5 * i + r] += s * x_true[5 * i + c];
      }
  }
  PetscBlockSolver5 solver(blocks);
  solver.solve(A, b, x);
  std::printf("  %s\n", solver.description().c_str());
  EXPECT_EQ(solver.description(), "seqbaij, bs 5, preonly + pbjacobi");
  EXPECT_LE(test::relative_difference(x_true, x), 1e-12);
  // Refilled operator (same pattern, new values): the preconditioner must follow.
  for (double& a : A) a *= 2.0;
  solver.solve(A, b, x);
  for (double& v : x) v *= 2.0;
  EXPECT_LE(test::relative_difference(x_true, x), 1e-12);
}

// Same samples, same rows, the two solvers: y (A, B, C = eps y) per cell and the corrected rows
// agree to round-off. The systems have condition numbers of a few hundred (moments up to
// |xi|^4 of Phi0), so 1e-12 leaves a factor ~10 over the expected ~1e-14.
TEST(McCorrection, PetscAndBatchedGiveTheSameCorrection) {
  for (double eps : {1.0, 1e-3}) {
    const VelocityGrid vg = test::mc_grid({10, 11, 9}, 3.0, 0.92);
    const std::vector<double> h = test::deviation_rows(vg, 8, eps, 0.1);
    McConfig config = test::mc_config(vg, 6000, 0.04, 3.0, 0.5, eps);
    auto batched = make_mc_collision(config);
    config.options.correction = McCorrection::external;
    auto petsc = make_mc_collision(config);
    batched->draw(4);
    petsc->draw(4);
    const std::vector<double> hb = batched->collide(h), hp = petsc->collide(h);
    std::vector<double> yb, yp;
    for (std::size_t c = 0; c < batched->records().size(); c += kMcRecord)
      for (int k = 0; k < 5; ++k) {
        yb.push_back(batched->records()[c + k]);
        yp.push_back(petsc->records()[c + k]);
      }
    const McCorrectionSummary s = summarize_records(petsc->records(), eps);
    const double d_y = test::relative_difference(yp, yb), d_h = test::relative_difference(hp, hb);
    std::printf("  eps %.0e: |y| up to %.2e, |(A,B,C)| up to %.2e; PETSc vs batched: y %.2e, h %.2e\n",
                eps, s.max_y, s.max_abc, d_y, d_h);
    EXPECT_GT(s.max_y, 0.0);
    EXPECT_LE(d_y, 1e-12);
    EXPECT_LE(d_h, 1e-12);
  }
}

// The corrected step, all of it from the reference side: reference collision, reference system,
// PETSc solve, reference correction.
TEST(McCorrection, CorrectedKernelStepMatchesReference) {
  const VelocityGrid vg = test::mc_grid({9, 10, 11}, 3.0, 0.9);
  const double eps = 0.4;
  const std::vector<double> h = test::deviation_rows(vg, 5, eps, 0.1);
  const McConfig config = test::mc_config(vg, 5000, 0.05, 1.5, 0.5, eps);
  auto op = make_mc_collision(config);
  op->draw(9);
  const std::vector<double> fast = op->collide(h);
  McReferenceParams p;
  p.kappa = op->kappa();
  p.epsilon = eps;
  p.dt = config.dt;
  p.samples = config.options.samples;
  p.seed = config.options.seed;
  p.step = 9;
  const std::vector<double> prime = reference_mc_collision(vg, p, h).h;
  const int nv = vg.size(), cells = int(h.size() / nv);
  std::vector<double> matrices(25 * cells), rhs(5 * cells), y;
  for (int c = 0; c < cells; ++c)
    reference_correction_system(vg, eps, h.data() + c * nv, prime.data() + c * nv,
                                matrices.data() + 25 * c, rhs.data() + 5 * c);
  PetscBlockSolver5 solver(cells);
  solver.solve(matrices, rhs, y);
  std::vector<double> ref;
  for (int c = 0; c < cells; ++c) {
    const std::vector<double> row =
        reference_apply_correction(vg, eps, prime.data() + c * nv, y.data() + 5 * c);
    ref.insert(ref.end(), row.begin(), row.end());
  }
  const double d_h = test::relative_difference(ref, fast), d_n = test::number_difference(vg, ref, fast);
  std::printf("  corrected step, kernel vs reference + PETSc: h %.2e, numbers %.2e\n", d_h, d_n);
  EXPECT_LE(d_h, 1e-12);
  EXPECT_LE(d_n, 1e-12);
}

}  // namespace
}  // namespace bolt
