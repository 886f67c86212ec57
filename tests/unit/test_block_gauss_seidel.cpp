// The synthetic correction's threaded block operations (block_gauss_seidel.hpp):
//  * the four products (A x, y + A x, A^T x, y + A^T x, also with y the result itself) equal
//    PETSc's own on the same matrix converted to AIJ, to round-off, for a square operator of a
//    3-D grid's face neighbours and a rectangular interpolation-like matrix;
//  * coloured block Gauss-Seidel as a Richardson preconditioner solves a block diagonally
//    dominant system of that pattern to 1e-10, and one application gives the same bits on 1, 2
//    and 3 threads; Richardson's iteration with it, run as sweeps on A x = b, equals x plus the
//    preconditioner applied to the residual; after the operator's values change (doubled) it
//    forms its inverses again and its result halves;
//  * a singular diagonal block is refused with an error, not a NaN.
#include <gtest/gtest.h>
#include <omp.h>
#include <petscksp.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "petsc_environment.hpp"
#include "solver/iterative/block_gauss_seidel.hpp"
#include "solver/iterative/synthetic_multigrid.hpp"

namespace bolt {
namespace {

[[maybe_unused]] ::testing::Environment* const kPetsc =
    ::testing::AddGlobalTestEnvironment(new test::PetscEnvironment);

constexpr int kN = kSyntheticConserved;
constexpr int kCells[3] = {6, 5, 4};

double hash01(std::int64_t i) {  // a fixed pseudo-random value in [0, 1)
  std::uint64_t x = std::uint64_t(i) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return double(x >> 11) / double(1ull << 53);
}

// Each cell and its face neighbours, sorted.
BlockPattern grid_pattern() {
  BlockPattern p;
  p.row_start.push_back(0);
  for (int k = 0; k < kCells[2]; ++k)
    for (int j = 0; j < kCells[1]; ++j)
      for (int i = 0; i < kCells[0]; ++i) {
        const auto at = [&](int a, int b, int c) { return a + kCells[0] * (b + kCells[1] * c); };
        if (k > 0) p.columns.push_back(at(i, j, k - 1));
        if (j > 0) p.columns.push_back(at(i, j - 1, k));
        if (i > 0) p.columns.push_back(at(i - 1, j, k));
        p.columns.push_back(at(i, j, k));
        if (i + 1 < kCells[0]) p.columns.push_back(at(i + 1, j, k));
        if (j + 1 < kCells[1]) p.columns.push_back(at(i, j + 1, k));
        if (k + 1 < kCells[2]) p.columns.push_back(at(i, j, k + 1));
        p.row_start.push_back(std::int64_t(p.columns.size()));
      }
  return p;
}

// Random blocks; with `dominant`, each diagonal block's diagonal exceeds its row's sum of
// magnitudes off the diagonal, over all the row's blocks.
Mat filled(const BlockPattern& pattern, std::int64_t columns, bool dominant) {
  Mat A = create_block_matrix(pattern, columns);
  PetscScalar* v = nullptr;
  EXPECT_EQ(MatSeqBAIJGetArray(A, &v), 0);
  const std::int64_t rows = std::int64_t(pattern.row_start.size()) - 1;
  for (std::int64_t e = 0; e < pattern.row_start[rows] * kN * kN; ++e)
    v[e] = 2.0 * hash01(e) - 1.0;
  if (dominant)
    for (std::int64_t i = 0; i < rows; ++i)
      for (int r = 0; r < kN; ++r) {
        double off = 0.0;
        std::int64_t diagonal = -1;
        for (std::int64_t e = pattern.row_start[i]; e < pattern.row_start[i + 1]; ++e) {
          if (pattern.columns[e] == i) diagonal = e;
          for (int c = 0; c < kN; ++c)
            if (pattern.columns[e] != i || c != r) off += std::abs(v[e * kN * kN + c * kN + r]);
        }
        v[diagonal * kN * kN + r * kN + r] = 1.5 * off + 1.0;
      }
  restore_written_blocks(A, v);
  return A;
}

Vec vector_of(PetscInt n, std::int64_t seed) {
  Vec v = nullptr;
  EXPECT_EQ(VecCreateSeq(PETSC_COMM_SELF, n, &v), 0);
  for (PetscInt i = 0; i < n; ++i)
    EXPECT_EQ(VecSetValue(v, i, std::sin(1.0 + double(seed + i)), INSERT_VALUES), 0);
  EXPECT_EQ(VecAssemblyBegin(v), 0);
  EXPECT_EQ(VecAssemblyEnd(v), 0);
  return v;
}

double largest_difference(Vec a, Vec b) {
  Vec d = nullptr;
  double norm = 0.0;
  EXPECT_EQ(VecDuplicate(a, &d), 0);
  EXPECT_EQ(VecWAXPY(d, -1.0, b, a), 0);
  EXPECT_EQ(VecNorm(d, NORM_INFINITY, &norm), 0);
  VecDestroy(&d);
  return norm;
}

// The four products of A against those of its AIJ copy (PETSc's own code).
void expect_products_as_petscs(Mat A) {
  Mat reference = nullptr;
  ASSERT_EQ(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &reference), 0);
  PetscInt rows = 0, columns = 0;
  ASSERT_EQ(MatGetLocalSize(A, &rows, &columns), 0);
  for (const bool transposed : {false, true}) {
    const PetscInt in = transposed ? rows : columns, out = transposed ? columns : rows;
    Vec x = vector_of(in, 1), y = vector_of(out, 2), z = vector_of(out, 3);
    Vec expected = vector_of(out, 4);
    // Entries of the blocks are below 1 and a row holds at most 7 x 5 of them: 1e-13 is a few
    // rounding errors of such a sum.
    const auto check = [&](const char* what) {
      EXPECT_LE(largest_difference(z, expected), 1e-13)
          << what << (transposed ? " (transposed)" : "");
    };
    if (transposed) {
      ASSERT_EQ(MatMultTranspose(A, x, z), 0);
      ASSERT_EQ(MatMultTranspose(reference, x, expected), 0);
      check("A^T x");
      ASSERT_EQ(MatMultTransposeAdd(A, x, y, z), 0);
      ASSERT_EQ(MatMultTransposeAdd(reference, x, y, expected), 0);
      check("y + A^T x");
      ASSERT_EQ(MatMultTransposeAdd(A, x, z, z), 0);
      ASSERT_EQ(MatMultTransposeAdd(reference, x, expected, expected), 0);
      check("z + A^T x into z");
    } else {
      ASSERT_EQ(MatMult(A, x, z), 0);
      ASSERT_EQ(MatMult(reference, x, expected), 0);
      check("A x");
      ASSERT_EQ(MatMultAdd(A, x, y, z), 0);
      ASSERT_EQ(MatMultAdd(reference, x, y, expected), 0);
      check("y + A x");
      ASSERT_EQ(MatMultAdd(A, x, z, z), 0);
      ASSERT_EQ(MatMultAdd(reference, x, expected, expected), 0);
      check("z + A x into z");
    }
    for (Vec* v : {&x, &y, &z, &expected}) VecDestroy(v);
  }
  MatDestroy(&reference);
}

TEST(BlockGaussSeidel, ProductsAsPetscs) {
  const BlockPattern grid = grid_pattern();
  const std::int64_t cells = std::int64_t(grid.row_start.size()) - 1;
  Mat A = filled(grid, cells, false);
  expect_products_as_petscs(A);
  MatDestroy(&A);
  // Interpolation-like: every fine cell one block, in the column of its coarse cell.
  BlockPattern copy_down;
  copy_down.row_start.push_back(0);
  for (std::int64_t c = 0; c < cells; ++c) {
    copy_down.columns.push_back(c / 3);
    copy_down.row_start.push_back(c + 1);
  }
  Mat P = filled(copy_down, (cells + 2) / 3, false);
  expect_products_as_petscs(P);
  MatDestroy(&P);
}

constexpr std::int64_t kGridCells = std::int64_t(kCells[0]) * kCells[1] * kCells[2];
constexpr PetscInt kUnknowns = PetscInt(kGridCells * kN);

Mat dominant_operator() { return filled(grid_pattern(), kGridCells, true); }

// A preconditioner of `sweeps` coloured Gauss-Seidel sweeps on A.
PC gauss_seidel_on(Mat A, int sweeps) {
  PC pc = nullptr;
  EXPECT_EQ(PCCreate(PETSC_COMM_SELF, &pc), 0);
  EXPECT_EQ(PCSetOperators(pc, A, A), 0);
  use_coloured_gauss_seidel(pc, sweeps);
  return pc;
}

// One application of the smoother (two sweeps) to r, on `threads` threads.
std::vector<double> smoothed(Mat A, Vec r, int threads) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  PC pc = gauss_seidel_on(A, 2);
  Vec z = nullptr;
  EXPECT_EQ(PCSetUp(pc), 0);
  EXPECT_EQ(VecDuplicate(r, &z), 0);
  EXPECT_EQ(PCApply(pc, r, z), 0);
  const double* a = nullptr;
  PetscInt n = 0;
  EXPECT_EQ(VecGetLocalSize(z, &n), 0);
  EXPECT_EQ(VecGetArrayRead(z, &a), 0);
  std::vector<double> values(a, a + n);
  EXPECT_EQ(VecRestoreArrayRead(z, &a), 0);
  VecDestroy(&z);
  PCDestroy(&pc);
  omp_set_num_threads(before);
  return values;
}

TEST(BlockGaussSeidel, SolvesADominantSystem) {
  Mat A = dominant_operator();
  const PetscInt n = kUnknowns;
  Vec x_true = vector_of(n, 5), b = vector_of(n, 6), x = vector_of(n, 7);
  ASSERT_EQ(MatMult(A, x_true, b), 0);
  KSP ksp = nullptr;
  PC pc = nullptr;
  ASSERT_EQ(KSPCreate(PETSC_COMM_SELF, &ksp), 0);
  ASSERT_EQ(KSPSetOperators(ksp, A, A), 0);
  ASSERT_EQ(KSPSetType(ksp, KSPRICHARDSON), 0);
  // Its iterations as Gauss-Seidel on A x = b (the preconditioner's Richardson form).
  ASSERT_EQ(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 200), 0);
  ASSERT_EQ(KSPGetPC(ksp, &pc), 0);
  use_coloured_gauss_seidel(pc, 1);
  ASSERT_EQ(KSPSolve(ksp, b, x), 0);
  EXPECT_LE(largest_difference(x, x_true), 1e-10) << "after 200 iterations";
  const std::vector<double> one = smoothed(A, b, 1);
  for (int threads : {2, 3}) {
    const std::vector<double> many = smoothed(A, b, threads);
    EXPECT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(double)), 0)
        << "one application on " << threads << " threads";
  }
  KSPDestroy(&ksp);
  for (Vec* v : {&x_true, &b, &x}) VecDestroy(v);
  MatDestroy(&A);
}

// Richardson's iteration from x, x + (Gauss-Seidel from zero on b - A x), equals the sweeps on
// A x = b from x that the preconditioner runs for Richardson, and Richardson takes that form:
// its operator is 2 A here, the preconditioner's A, so PETSc's own iteration (whose residual
// takes the operator) would give x + (Gauss-Seidel on b - 2 A x) instead.
TEST(BlockGaussSeidel, RichardsonFormIsTheIteration) {
  Mat A = dominant_operator(), twice = nullptr;
  ASSERT_EQ(MatDuplicate(A, MAT_COPY_VALUES, &twice), 0);
  ASSERT_EQ(MatScale(twice, 2.0), 0);
  const PetscInt n = kUnknowns;
  Vec b = vector_of(n, 11), x = vector_of(n, 12), r = vector_of(n, 13), z = vector_of(n, 14);
  Vec expected = nullptr;
  ASSERT_EQ(VecDuplicate(x, &expected), 0);
  KSP ksp = nullptr;
  PC pc = nullptr;
  ASSERT_EQ(KSPCreate(PETSC_COMM_SELF, &ksp), 0);
  ASSERT_EQ(KSPSetOperators(ksp, twice, A), 0);
  ASSERT_EQ(KSPSetType(ksp, KSPRICHARDSON), 0);
  ASSERT_EQ(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE), 0);
  ASSERT_EQ(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 1), 0);
  ASSERT_EQ(KSPGetPC(ksp, &pc), 0);
  use_coloured_gauss_seidel(pc, 3);
  ASSERT_EQ(KSPSetUp(ksp), 0);
  ASSERT_EQ(MatResidual(A, b, x, r), 0);
  ASSERT_EQ(PCApply(pc, r, z), 0);
  ASSERT_EQ(VecWAXPY(expected, 1.0, x, z), 0);
  ASSERT_EQ(KSPSolve(ksp, b, x), 0);
  // Two orders of the same sums on entries of order one: round-off.
  EXPECT_LE(largest_difference(x, expected), 1e-12);
  KSPDestroy(&ksp);
  for (Vec* w : {&b, &x, &r, &z, &expected}) VecDestroy(w);
  MatDestroy(&twice);
  MatDestroy(&A);
}

TEST(BlockGaussSeidel, FollowsTheOperatorsValues) {
  Mat A = dominant_operator();
  const std::int64_t values = grid_pattern().row_start[kGridCells] * kN * kN;
  Vec r = vector_of(kUnknowns, 8), z = vector_of(kUnknowns, 9), z2 = vector_of(kUnknowns, 10);
  PC pc = gauss_seidel_on(A, 3);
  ASSERT_EQ(PCApply(pc, r, z), 0);
  PetscScalar* v = nullptr;
  ASSERT_EQ(MatSeqBAIJGetArray(A, &v), 0);
  for (std::int64_t e = 0; e < values; ++e) v[e] *= 2.0;
  restore_written_blocks(A, v);
  ASSERT_EQ(PCApply(pc, r, z2), 0);
  ASSERT_EQ(VecScale(z2, 2.0), 0);
  // Doubling is exact in binary: the same operations on doubled values.
  EXPECT_LE(largest_difference(z, z2), 1e-14);
  PCDestroy(&pc);
  for (Vec* w : {&r, &z, &z2}) VecDestroy(w);
  MatDestroy(&A);
}

TEST(BlockGaussSeidel, RefusesASingularDiagonalBlock) {
  Mat A = dominant_operator();
  PetscScalar* v = nullptr;
  ASSERT_EQ(MatSeqBAIJGetArray(A, &v), 0);
  const std::int64_t diagonal_of_cell_0 = 0;  // cell 0's first block is its own
  for (int e = 0; e < kN * kN; ++e) v[diagonal_of_cell_0 * kN * kN + e] = 0.0;
  restore_written_blocks(A, v);
  PC pc = gauss_seidel_on(A, 1);
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  EXPECT_NE(PCSetUp(pc), 0);
  PetscPopErrorHandler();
  PCDestroy(&pc);
  MatDestroy(&A);
}

}  // namespace
}  // namespace bolt
