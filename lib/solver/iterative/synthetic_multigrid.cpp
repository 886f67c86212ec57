#include "solver/iterative/synthetic_multigrid.hpp"

#include <algorithm>
#include <type_traits>

#include "core/error.hpp"
#include "core/petsc_check.hpp"
#include "solver/iterative/block_gauss_seidel.hpp"

namespace bolt {

namespace {

constexpr int kConserved = kSyntheticConserved;
constexpr int kBlock = kConserved * kConserved;
// The most cells of a coarsest level that LU factors: 16^3 (64^2), whose factors take a few MB.
// (An odd axis can stop the halving while the coarsest level is still large.)
constexpr std::int64_t kFactoredCells = 4096;
// Sweeps of coloured block Gauss-Seidel per smoothing, down and up each level: with two, the
// 3-D cavities and the cube take about as many outer sweeps as with ILU(0), with fewer, more
// (docs/benchmarks.md).
constexpr int kSmoothingSweeps = 2;
static_assert(std::is_same_v<PetscScalar, double>, "the correction's blocks are real doubles");

constexpr PetscChecker check{"synthetic correction"};

// Fine cells merged into one along an axis of `cells` cells: two, except across a plane's single
// layer, which stays one.
int merged_along(int cells) { return cells == 1 ? 1 : 2; }

// A grid of a single cell along exactly one axis.
bool is_plane(const int cells[3]) { return std::count(cells, cells + 3, 1) == 1; }

}  // namespace

void restore_written_blocks(Mat matrix, PetscScalar*& values) {
  check(MatSeqBAIJRestoreArray(matrix, &values), "MatSeqBAIJRestoreArray");
  check(MatAssemblyBegin(matrix, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(matrix, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
}

Mat create_block_matrix(const BlockPattern& pattern, std::int64_t column_cells) {
  const std::int64_t rows = std::int64_t(pattern.row_start.size()) - 1;
  // PETSc counts the matrix's values in PetscInt (32 bits in most builds).
  const std::int64_t values = std::int64_t(pattern.columns.size()) * kBlock;
  require(values <= std::int64_t(PETSC_MAX_INT) &&
              std::max(rows, column_cells) * kConserved <= std::int64_t(PETSC_MAX_INT),
          "synthetic correction: ", rows, " cells with ", pattern.columns.size(),
          " blocks of 5 x 5 exceed PETSc's ", sizeof(PetscInt) * 8,
          "-bit indices (about 12 million cells with 32 bits); run without -iter_synthetic, on "
          "fewer cells, or with a PETSc configured --with-64-bit-indices");
  const std::vector<PetscInt> row_start(pattern.row_start.begin(), pattern.row_start.end());
  const std::vector<PetscInt> columns(pattern.columns.begin(), pattern.columns.end());
  Mat matrix = nullptr;
  check(MatCreate(PETSC_COMM_SELF, &matrix), "MatCreate");
  check(MatSetSizes(matrix, PetscInt(rows * kConserved), PetscInt(column_cells * kConserved),
                    PetscInt(rows * kConserved), PetscInt(column_cells * kConserved)),
        "MatSetSizes");
  check(MatSetType(matrix, MATSEQBAIJ), "MatSetType");
  check(MatSeqBAIJSetPreallocationCSR(matrix, kConserved, row_start.data(), columns.data(),
                                      nullptr),
        "MatSeqBAIJSetPreallocationCSR");
  use_threaded_block_operations(matrix);  // after the preallocation, which sets PETSc's own
  return matrix;
}

int synthetic_multigrid_levels(const int cells[3]) {
  // A line's block-tridiagonal system is factored in linear time: no levels.
  if (std::count(cells, cells + 3, 1) > 1) return 1;
  const bool plane = is_plane(cells);
  int n[3] = {cells[0], cells[1], cells[2]};
  const auto halves = [](int c) { return c == 1 || (c % 2 == 0 && c / 2 >= 4); };
  int levels = 1;
  while (std::all_of(n, n + 3, halves)) {
    // A plane stops at its first level that LU factors: the V-cycle's merged cells lose accuracy
    // at each level (docs/physics.md), and a plane's factors, unlike a box's, stay cheap up to
    // kFactoredCells.
    if (plane && levels > 1 && std::int64_t(n[0]) * n[1] * n[2] <= kFactoredCells) break;
    for (int& c : n) c /= merged_along(c);
    ++levels;
  }
  return levels;
}

struct SyntheticMultigrid::Level {
  int n[3];
  BlockPattern pattern;
  std::vector<std::int64_t> parent;  // [cell of the next finer level] its cell here
  Mat op = nullptr;
  Mat interpolation = nullptr;  // from this level to the next finer
  ~Level() {
    MatDestroy(&op);
    MatDestroy(&interpolation);
  }
};

SyntheticMultigrid::SyntheticMultigrid(const int cells[3], const BlockPattern& fine, int levels)
    : fine_(fine) {
  require(levels >= 2, "synthetic correction: multigrid needs two levels or more");
  const BlockPattern* finer = &fine;
  int finer_n[3] = {cells[0], cells[1], cells[2]};
  std::vector<std::unique_ptr<Level>> from_fine;
  for (int l = 1; l < levels; ++l) {
    auto level = std::make_unique<Level>();
    for (int a = 0; a < 3; ++a) level->n[a] = finer_n[a] / merged_along(finer_n[a]);
    const std::int64_t finer_cells = std::int64_t(finer_n[0]) * finer_n[1] * finer_n[2];
    const std::int64_t cells_here = std::int64_t(level->n[0]) * level->n[1] * level->n[2];
    level->parent.resize(finer_cells);
    for (std::int64_t c = 0; c < finer_cells; ++c) {
      const std::int64_t i = c % finer_n[0], j = c / finer_n[0] % finer_n[1],
                         k = c / finer_n[0] / finer_n[1];
      level->parent[c] = i / merged_along(finer_n[0]) +
                         level->n[0] * (j / merged_along(finer_n[1]) +
                                        level->n[1] * (k / merged_along(finer_n[2])));
    }
    // A merged cell couples to the merged cells its fine cells couple to.
    std::vector<std::vector<std::int64_t>> coupled(cells_here);
    for (std::int64_t c = 0; c < finer_cells; ++c)
      for (std::int64_t e = finer->row_start[c]; e < finer->row_start[c + 1]; ++e)
        coupled[level->parent[c]].push_back(level->parent[finer->columns[e]]);
    level->pattern.row_start.push_back(0);
    for (auto& row : coupled) {
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
      level->pattern.columns.insert(level->pattern.columns.end(), row.begin(), row.end());
      level->pattern.row_start.push_back(std::int64_t(level->pattern.columns.size()));
    }
    level->op = create_block_matrix(level->pattern, cells_here);
    BlockPattern copy_down;
    for (std::int64_t c = 0; c <= finer_cells; ++c) copy_down.row_start.push_back(c);
    copy_down.columns = level->parent;
    level->interpolation = create_block_matrix(copy_down, cells_here);
    PetscScalar* identity = nullptr;
    check(MatSeqBAIJGetArray(level->interpolation, &identity), "MatSeqBAIJGetArray");
    for (std::int64_t c = 0; c < finer_cells; ++c)
      for (int k = 0; k < kConserved; ++k) identity[c * kBlock + k * kConserved + k] = 1.0;
    restore_written_blocks(level->interpolation, identity);
    std::copy_n(level->n, 3, finer_n);
    from_fine.push_back(std::move(level));
    finer = &from_fine.back()->pattern;
  }
  coarse_.assign(std::make_move_iterator(from_fine.rbegin()),
                 std::make_move_iterator(from_fine.rend()));
}

SyntheticMultigrid::~SyntheticMultigrid() = default;

void SyntheticMultigrid::configure(PC pc) const {
  const int levels = int(coarse_.size()) + 1;
  check(PCSetType(pc, PCMG), "PCSetType");
  check(PCMGSetLevels(pc, levels, nullptr), "PCMGSetLevels");
  check(PCMGSetGalerkin(pc, PC_MG_GALERKIN_NONE), "PCMGSetGalerkin");
  // Separate smoothers down and up the V: the one down then starts from zero and skips the
  // multiplication a shared one makes for its residual.
  check(PCMGSetDistinctSmoothUp(pc), "PCMGSetDistinctSmoothUp");
  for (int l = 0; l < levels; ++l) {
    if (l < levels - 1) check(PCMGSetOperators(pc, l, coarse_[l]->op, coarse_[l]->op),
                              "PCMGSetOperators");
    if (l > 0) check(PCMGSetInterpolation(pc, l, coarse_[l - 1]->interpolation),
                     "PCMGSetInterpolation");
    KSP smoother = nullptr;
    PC smoothing = nullptr;
    const int* n = coarse_[0]->n;
    // A plane's coarsest level is factored at any size (its LU fill grows as the log of the
    // cells, and an odd axis can stop its halving above kFactoredCells).
    const bool plane = is_plane(n);
    if (l == 0 && (plane || std::int64_t(n[0]) * n[1] * n[2] <= kFactoredCells)) {
      check(PCMGGetCoarseSolve(pc, &smoother), "PCMGGetCoarseSolve");
      check(KSPSetType(smoother, KSPPREONLY), "KSPSetType");
      check(KSPGetPC(smoother, &smoothing), "KSPGetPC");
      check(PCSetType(smoothing, PCLU), "PCSetType");
      continue;
    }
    if (l == 0) {  // an odd axis stopped a box's halving early: smoothed like the levels above
      check(PCMGGetCoarseSolve(pc, &smoother), "PCMGGetCoarseSolve");
      check(KSPSetType(smoother, KSPRICHARDSON), "KSPSetType");
      check(KSPSetTolerances(smoother, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 1),
            "KSPSetTolerances");
      check(KSPGetPC(smoother, &smoothing), "KSPGetPC");
      use_coloured_gauss_seidel(smoothing, kSmoothingSweeps);
      continue;
    }
    // One smoother's colours and inverted diagonal serve both (and -iter_synthetic_mg_levels_
    // options reach both).
    for (const bool down : {true, false}) {
      check(down ? PCMGGetSmootherDown(pc, l, &smoother) : PCMGGetSmootherUp(pc, l, &smoother),
            "PCMGGetSmoother");
      check(KSPSetType(smoother, KSPRICHARDSON), "KSPSetType");
      check(KSPSetTolerances(smoother, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 1),
            "KSPSetTolerances");
      if (down) {
        check(KSPGetPC(smoother, &smoothing), "KSPGetPC");
        use_coloured_gauss_seidel(smoothing, kSmoothingSweeps);
      } else {
        check(KSPSetPC(smoother, smoothing), "KSPSetPC");
      }
    }
  }
}

Mat SyntheticMultigrid::level_operator(int level) const { return coarse_.at(level)->op; }

Mat SyntheticMultigrid::level_interpolation(int level) const {
  return coarse_.at(level)->interpolation;
}

void SyntheticMultigrid::galerkin(const PetscScalar* fine_blocks) {
  const BlockPattern* finer = &fine_;
  const PetscScalar* finer_blocks = fine_blocks;
  PetscScalar* finer_held = nullptr;  // a coarse level's array, held until the next is formed
  Mat finer_op = nullptr;
  for (auto level = coarse_.rbegin(); level != coarse_.rend(); ++level) {
    Level& here = **level;
    PetscScalar* blocks = nullptr;
    check(MatSeqBAIJGetArray(here.op, &blocks), "MatSeqBAIJGetArray");
    const std::int64_t cells_here = std::int64_t(here.pattern.row_start.size()) - 1;
#pragma omp parallel for schedule(static)
    for (std::int64_t R = 0; R < cells_here; ++R) {
      const std::int64_t first = here.pattern.row_start[R], last = here.pattern.row_start[R + 1];
      std::fill(blocks + first * kBlock, blocks + last * kBlock, 0.0);
      const std::int64_t I = R % here.n[0], J = R / here.n[0] % here.n[1],
                         K = R / here.n[0] / here.n[1];
      // (A level keeps one cell along an axis exactly where its finer level has one.)
      const int m[3] = {merged_along(here.n[0]), merged_along(here.n[1]),
                        merged_along(here.n[2])};
      const std::int64_t fine_n0 = m[0] * here.n[0], fine_n1 = m[1] * here.n[1];
      for (int dk = 0; dk < m[2]; ++dk)
        for (int dj = 0; dj < m[1]; ++dj)
          for (int di = 0; di < m[0]; ++di) {
            const std::int64_t r =
                (m[0] * I + di) + fine_n0 * ((m[1] * J + dj) + fine_n1 * (m[2] * K + dk));
            for (std::int64_t e = finer->row_start[r]; e < finer->row_start[r + 1]; ++e) {
              const std::int64_t C = here.parent[finer->columns[e]];
              const auto* begin = here.pattern.columns.data();
              const std::int64_t at = std::lower_bound(begin + first, begin + last, C) - begin;
              for (int v = 0; v < kBlock; ++v)
                blocks[at * kBlock + v] += finer_blocks[e * kBlock + v];
            }
          }
    }
    if (finer_held) restore_written_blocks(finer_op, finer_held);
    finer = &here.pattern;
    finer_blocks = finer_held = blocks;
    finer_op = here.op;
  }
  if (finer_held) restore_written_blocks(finer_op, finer_held);
}

}  // namespace bolt
