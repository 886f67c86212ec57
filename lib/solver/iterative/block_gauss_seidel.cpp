// Threaded block products and coloured block Gauss-Seidel (block_gauss_seidel.hpp). Both read
// the matrix through PETSc's public accessors: its block rows (MatGetRowIJ, block-compressed:
// PETSc's own arrays, not copies) and its values (MatSeqBAIJGetArray, each block column by
// column).
#include "solver/iterative/block_gauss_seidel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "core/petsc_check.hpp"
#include "core/threaded_vec.hpp"
#include "solver/iterative/synthetic_operator.hpp"

namespace bolt {

namespace {

constexpr int kN = kSyntheticConserved;
constexpr int kBlock = kN * kN;
constexpr PetscChecker check{"synthetic correction"};

// A SeqBAIJ's block rows and values, held for the length of one operation.
struct Blocks {
  Mat matrix = nullptr;
  PetscInt rows = 0;
  const PetscInt* row_start = nullptr;
  const PetscInt* columns = nullptr;
  PetscScalar* values = nullptr;

  PetscErrorCode get(Mat m) {
    matrix = m;
    PetscBool done = PETSC_FALSE;
    PetscInt block_size = 0;
    PetscCall(MatGetBlockSize(m, &block_size));
    PetscCheck(block_size == kN, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "synthetic correction: a block matrix of %" PetscInt_FMT " x %" PetscInt_FMT
               " blocks, not 5 x 5", block_size, block_size);
    PetscCall(MatGetRowIJ(m, 0, PETSC_FALSE, PETSC_TRUE, &rows, &row_start, &columns, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "synthetic correction: no block rows");
    return MatSeqBAIJGetArray(m, &values);
  }
  PetscErrorCode restore() {
    PetscBool done = PETSC_FALSE;
    PetscCall(MatSeqBAIJRestoreArray(matrix, &values));
    return MatRestoreRowIJ(matrix, 0, PETSC_FALSE, PETSC_TRUE, &rows, &row_start, &columns, &done);
  }
};

// The block columns of a matrix as rows: for block column j, its entries' rows and indices,
// in row order. Formed on the first transposed product and kept with the matrix (its pattern
// does not change after its creation).
struct Transposed {
  std::vector<std::int64_t> start;
  std::vector<PetscInt> rows, entries;
};

PetscErrorCode destroy_transposed(void* transposed) {
  const std::unique_ptr<Transposed> owned(static_cast<Transposed*>(transposed));  // the matrix's
  return 0;
}

PetscErrorCode transposed_of(const Blocks& a, PetscInt columns, const Transposed** transposed) {
  constexpr const char* kName = "bolt_transposed_blocks";
  PetscObject held = nullptr;
  PetscCall(PetscObjectQuery(reinterpret_cast<PetscObject>(a.matrix), kName, &held));
  auto container = reinterpret_cast<PetscContainer>(held);
  if (!container) {
    auto t = std::make_unique<Transposed>();
    const PetscInt entries = a.row_start[a.rows];
    t->start.assign(std::size_t(columns) + 1, 0);
    for (PetscInt e = 0; e < entries; ++e) ++t->start[std::size_t(a.columns[e]) + 1];
    for (PetscInt j = 0; j < columns; ++j) t->start[std::size_t(j) + 1] += t->start[std::size_t(j)];
    t->rows.resize(std::size_t(entries));
    t->entries.resize(std::size_t(entries));
    std::vector<std::int64_t> next(t->start.begin(), t->start.end() - 1);
    for (PetscInt i = 0; i < a.rows; ++i)
      for (PetscInt e = a.row_start[i]; e < a.row_start[i + 1]; ++e) {
        const std::int64_t at = next[std::size_t(a.columns[e])]++;
        t->rows[std::size_t(at)] = i;
        t->entries[std::size_t(at)] = e;
      }
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &container));
    PetscCall(PetscContainerSetPointer(container, t.release()));
    PetscCall(PetscContainerSetUserDestroy(container, destroy_transposed));
    PetscCall(PetscObjectCompose(reinterpret_cast<PetscObject>(a.matrix), kName,
                                 reinterpret_cast<PetscObject>(container)));
    PetscCall(PetscContainerDestroy(&container));  // the matrix holds it
    PetscCall(PetscObjectQuery(reinterpret_cast<PetscObject>(a.matrix), kName, &held));
    container = reinterpret_cast<PetscContainer>(held);
  }
  void* pointer = nullptr;
  PetscCall(PetscContainerGetPointer(container, &pointer));
  *transposed = static_cast<const Transposed*>(pointer);
  return 0;
}

// z = y + A x, or A^T x if `transposed`; y may be null (nothing added) or z itself.
PetscErrorCode product(Mat matrix, Vec x, Vec y, Vec z, bool transposed) {
  Blocks a;
  PetscInt rows = 0, columns = 0;
  const PetscScalar* in = nullptr;
  const PetscScalar* added = nullptr;
  PetscScalar* out = nullptr;
  PetscCall(a.get(matrix));
  PetscCall(MatGetLocalSize(matrix, &rows, &columns));
  const Transposed* t = nullptr;
  if (transposed) PetscCall(transposed_of(a, columns / kN, &t));
  PetscCall(VecGetArrayRead(x, &in));
  if (y && y != z) PetscCall(VecGetArrayRead(y, &added));
  PetscCall(y == z ? VecGetArray(z, &out) : VecGetArrayWrite(z, &out));
  const PetscInt blocks_out = (transposed ? columns : rows) / kN;
#pragma omp parallel for schedule(static)
  for (PetscInt i = 0; i < blocks_out; ++i) {
    double sum[kN] = {};
    const std::int64_t first = transposed ? t->start[std::size_t(i)] : a.row_start[i];
    const std::int64_t last = transposed ? t->start[std::size_t(i) + 1] : a.row_start[i + 1];
    for (std::int64_t k = first; k < last; ++k) {
      if (transposed) {
        const PetscScalar* block = a.values + std::int64_t(t->entries[std::size_t(k)]) * kBlock;
        const PetscScalar* xj = in + std::int64_t(t->rows[std::size_t(k)]) * kN;
        for (int c = 0; c < kN; ++c)
          for (int r = 0; r < kN; ++r) sum[c] += block[c * kN + r] * xj[r];
      } else {
        const PetscScalar* block = a.values + k * kBlock;
        const PetscScalar* xj = in + std::int64_t(a.columns[k]) * kN;
        for (int c = 0; c < kN; ++c)
          for (int r = 0; r < kN; ++r) sum[r] += block[c * kN + r] * xj[c];
      }
    }
    PetscScalar* zi = out + std::int64_t(i) * kN;
    const PetscScalar* yi = y == z ? zi : added ? added + std::int64_t(i) * kN : nullptr;
    for (int r = 0; r < kN; ++r) zi[r] = (yi ? yi[r] : 0.0) + sum[r];
  }
  PetscCall(y == z ? VecRestoreArray(z, &out) : VecRestoreArrayWrite(z, &out));
  if (added) PetscCall(VecRestoreArrayRead(y, &added));
  PetscCall(VecRestoreArrayRead(x, &in));
  PetscCall(PetscLogFlops(2.0 * kBlock * a.row_start[a.rows]));
  return a.restore();
}

PetscErrorCode multiply(Mat A, Vec x, Vec z) { return product(A, x, nullptr, z, false); }
PetscErrorCode multiply_add(Mat A, Vec x, Vec y, Vec z) { return product(A, x, y, z, false); }
PetscErrorCode multiply_transposed(Mat A, Vec x, Vec z) { return product(A, x, nullptr, z, true); }
PetscErrorCode multiply_transposed_add(Mat A, Vec x, Vec y, Vec z) {
  return product(A, x, y, z, true);
}

// The matrix's right (x of A x) and left (A x) vectors.
PetscErrorCode create_vectors(Mat matrix, Vec* right, Vec* left) {
  PetscInt rows = 0, columns = 0;
  PetscCall(MatGetLocalSize(matrix, &rows, &columns));
  if (right) PetscCall(create_threaded_vector(columns, kN, right));
  if (left) PetscCall(create_threaded_vector(rows, kN, left));
  return 0;
}

// The inverse of a 5 x 5 block (column by column), by Gauss-Jordan elimination with partial
// pivoting; false if the block is singular.
bool invert(const PetscScalar* block, PetscScalar* inverse) {
  double a[kN][2 * kN];
  for (int r = 0; r < kN; ++r)
    for (int c = 0; c < kN; ++c) a[r][c] = block[c * kN + r], a[r][kN + c] = r == c ? 1.0 : 0.0;
  for (int k = 0; k < kN; ++k) {
    int pivot = k;
    for (int r = k + 1; r < kN; ++r)
      if (std::abs(a[r][k]) > std::abs(a[pivot][k])) pivot = r;
    if (!(std::abs(a[pivot][k]) > 0.0) || !std::isfinite(a[pivot][k])) return false;
    std::swap(a[k], a[pivot]);
    const double scale = 1.0 / a[k][k];
    for (int c = 0; c < 2 * kN; ++c) a[k][c] *= scale;
    for (int r = 0; r < kN; ++r) {
      if (r == k) continue;
      const double factor = a[r][k];
      for (int c = 0; c < 2 * kN; ++c) a[r][c] -= factor * a[k][c];
    }
  }
  for (int r = 0; r < kN; ++r)
    for (int c = 0; c < kN; ++c) inverse[c * kN + r] = a[r][kN + c];
  return true;
}

// The smoother of one level: the sweeps per application, and the colours and inverted diagonal
// blocks of its operator, formed again whenever the operator's values change (PETSc sets a
// preconditioner up again then).
struct ColouredGaussSeidel {
  int sweeps = 1;
  std::vector<PetscInt> order;          // the cells, colour by colour
  std::vector<std::int64_t> colour_start;  // colour k: order[colour_start[k] .. [k + 1])
  std::vector<PetscScalar> inverse;     // the diagonal blocks' inverses, cell by cell

  // Greedy colouring in the cells' order over the coupling both ways (row and column), so that
  // no two cells of a colour couple whatever the pattern's symmetry: the checkerboard on a grid
  // of face neighbours.
  void colour(const Blocks& a) {
    const auto at = [](std::int64_t i) { return static_cast<std::size_t>(i); };
    const PetscInt n = a.rows;
    // The coupling by column: the rows whose blocks lie in column j.
    std::vector<std::int64_t> by_column(at(n) + 1, 0);
    for (PetscInt e = 0; e < a.row_start[n]; ++e) ++by_column[at(a.columns[e]) + 1];
    for (PetscInt i = 0; i < n; ++i) by_column[at(i) + 1] += by_column[at(i)];
    std::vector<PetscInt> column_rows(at(a.row_start[n]));
    std::vector<std::int64_t> next(by_column.begin(), by_column.end() - 1);
    for (PetscInt i = 0; i < n; ++i)
      for (PetscInt e = a.row_start[i]; e < a.row_start[i + 1]; ++e)
        column_rows[at(next[at(a.columns[e])]++)] = i;
    std::vector<int> colour_of(at(n), -1);
    int colours = 0;
    std::vector<char> taken;
    for (PetscInt i = 0; i < n; ++i) {
      taken.assign(at(colours) + 1, 0);
      const auto mark = [&](PetscInt j) {
        if (j != i && colour_of[at(j)] >= 0) taken[at(colour_of[at(j)])] = 1;
      };
      for (PetscInt e = a.row_start[i]; e < a.row_start[i + 1]; ++e) mark(a.columns[e]);
      for (std::int64_t e = by_column[at(i)]; e < by_column[at(i) + 1]; ++e)
        mark(column_rows[at(e)]);
      const int c = int(std::find(taken.begin(), taken.end(), 0) - taken.begin());
      colour_of[at(i)] = c;
      colours = std::max(colours, c + 1);
    }
    colour_start.assign(at(colours) + 1, 0);
    for (int c : colour_of) ++colour_start[at(c) + 1];
    for (int c = 0; c < colours; ++c) colour_start[at(c) + 1] += colour_start[at(c)];
    order.resize(at(n));
    std::vector<std::int64_t> place(colour_start.begin(), colour_start.end() - 1);
    for (PetscInt i = 0; i < n; ++i) order[at(place[at(colour_of[at(i)])]++)] = i;
  }

  // The inverses of the diagonal blocks; false if one is missing or singular.
  bool invert_diagonal(const Blocks& a) {
    inverse.resize(std::size_t(a.rows) * kBlock);
    bool all = true;
#pragma omp parallel for schedule(static) reduction(&& : all)
    for (PetscInt i = 0; i < a.rows; ++i) {
      const PetscInt* begin = a.columns + a.row_start[i];
      const PetscInt* end = a.columns + a.row_start[i + 1];
      const PetscInt* diagonal = std::lower_bound(begin, end, i);
      all = all && diagonal != end && *diagonal == i &&
            invert(a.values + std::int64_t(diagonal - a.columns) * kBlock,
                   inverse.data() + std::int64_t(i) * kBlock);
    }
    return all;
  }

  // `count` sweeps of Gauss-Seidel on A x = b, from x or, if `from_zero`, from zero (whose
  // first colour then needs no neighbours), each the colours in order. (In reverse order every
  // other sweep, a checkerboard's two colours would repeat at each turn, an update that changes
  // nothing.)
  void sweep(const Blocks& a, const PetscScalar* b, PetscScalar* x, int count,
             bool from_zero) const {
    const int colours = int(colour_start.size()) - 1;
    if (from_zero) {
      const std::int64_t values = std::int64_t(a.rows) * kN;
#pragma omp parallel for schedule(static)
      for (std::int64_t v = 0; v < values; ++v) x[v] = 0.0;
    }
    for (int s = 0; s < count; ++s)
      for (int c = 0; c < colours; ++c) {
        const bool neighbours_zero = from_zero && s == 0 && c == 0;
#pragma omp parallel for schedule(static)
        for (std::int64_t at = colour_start[std::size_t(c)]; at < colour_start[std::size_t(c) + 1];
             ++at) {
          const PetscInt i = order[std::size_t(at)];
          double rest[kN];
          std::copy(b + std::int64_t(i) * kN, b + std::int64_t(i + 1) * kN, rest);
          for (PetscInt e = a.row_start[i]; e < a.row_start[i + 1] && !neighbours_zero; ++e) {
            const PetscInt j = a.columns[e];
            if (j == i) continue;
            const PetscScalar* block = a.values + std::int64_t(e) * kBlock;
            const PetscScalar* xj = x + std::int64_t(j) * kN;
            for (int col = 0; col < kN; ++col)
              for (int row = 0; row < kN; ++row) rest[row] -= block[col * kN + row] * xj[col];
          }
          const PetscScalar* d = inverse.data() + std::int64_t(i) * kBlock;
          PetscScalar* xi = x + std::int64_t(i) * kN;
          for (int row = 0; row < kN; ++row) {
            double sum = 0.0;
            for (int col = 0; col < kN; ++col) sum += d[col * kN + row] * rest[col];
            xi[row] = sum;
          }
        }
      }
  }
};

PetscErrorCode set_up(PC pc) {
  Mat operator_ = nullptr;
  ColouredGaussSeidel* smoother = nullptr;
  PetscCall(PCGetOperators(pc, nullptr, &operator_));
  PetscCall(PCShellGetContext(pc, &smoother));
  Blocks a;
  PetscCall(a.get(operator_));
  smoother->colour(a);
  const bool regular = smoother->invert_diagonal(a);
  PetscCall(a.restore());
  PetscCheck(regular, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT,
             "synthetic correction: a diagonal block of a multigrid level is singular or missing");
  return 0;
}

// `applications` times the preconditioner's sweeps on A x = b, from x or from zero.
PetscErrorCode sweep_with(PC pc, Vec b, Vec x, PetscInt applications, bool from_zero) {
  Mat operator_ = nullptr;
  const ColouredGaussSeidel* smoother = nullptr;
  PetscCall(PCGetOperators(pc, nullptr, &operator_));
  PetscCall(PCShellGetContext(pc, &smoother));
  const int count = int(applications) * smoother->sweeps;
  Blocks a;
  const PetscScalar* in = nullptr;
  PetscScalar* out = nullptr;
  PetscCall(a.get(operator_));
  PetscCall(VecGetArrayRead(b, &in));
  PetscCall(VecGetArray(x, &out));
  smoother->sweep(a, in, out, count, from_zero);
  PetscCall(VecRestoreArray(x, &out));
  PetscCall(VecRestoreArrayRead(b, &in));
  PetscCall(PetscLogFlops(2.0 * kBlock * a.row_start[a.rows] * count));
  return a.restore();
}

PetscErrorCode apply(PC pc, Vec r, Vec z) { return sweep_with(pc, r, z, 1, true); }

// Richardson's `iterations` with this preconditioner, as Gauss-Seidel on A x = b itself (A the
// preconditioning matrix, which bolt's levels also take as their operator): the same iterate as
// x + (sweeps from zero on the residual), without forming the residual. Like PETSc's SOR, it
// runs the iterations it is given and checks no tolerance.
PetscErrorCode apply_richardson(PC pc, Vec b, Vec x, Vec, PetscReal, PetscReal, PetscReal,
                                PetscInt iterations, PetscBool from_zero, PetscInt* done,
                                PCRichardsonConvergedReason* reason) {
  PetscCall(sweep_with(pc, b, x, iterations, from_zero));
  *done = iterations;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  return 0;
}

PetscErrorCode destroy(PC pc) {
  ColouredGaussSeidel* smoother = nullptr;
  PetscCall(PCShellGetContext(pc, &smoother));
  const std::unique_ptr<ColouredGaussSeidel> owned(smoother);  // the preconditioner's until now
  return PCShellSetContext(pc, nullptr);
}

}  // namespace

void use_threaded_block_operations(Mat matrix) {
  const auto set = [&](MatOperation operation, auto function) {
    check(MatSetOperation(matrix, operation, reinterpret_cast<void (*)(void)>(function)),
          "MatSetOperation");
  };
  set(MATOP_MULT, multiply);
  set(MATOP_MULT_ADD, multiply_add);
  set(MATOP_MULT_TRANSPOSE, multiply_transposed);
  set(MATOP_MULT_TRANSPOSE_ADD, multiply_transposed_add);
  set(MATOP_CREATE_VECS, create_vectors);
}

void use_coloured_gauss_seidel(PC pc, int sweeps) {
  check(PCSetType(pc, PCSHELL), "PCSetType");
  auto smoother = std::make_unique<ColouredGaussSeidel>();
  smoother->sweeps = sweeps;
  check(PCShellSetContext(pc, smoother.get()), "PCShellSetContext");
  check(PCShellSetDestroy(pc, destroy), "PCShellSetDestroy");
  smoother.release();  // destroy() deletes it with the preconditioner
  check(PCShellSetSetUp(pc, set_up), "PCShellSetSetUp");
  check(PCShellSetApply(pc, apply), "PCShellSetApply");
  check(PCShellSetApplyRichardson(pc, apply_richardson), "PCShellSetApplyRichardson");
  check(PCShellSetName(pc, "coloured block Gauss-Seidel (bolt)"), "PCShellSetName");
}

}  // namespace bolt
