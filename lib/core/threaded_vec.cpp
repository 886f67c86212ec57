// Threaded VECSEQ operations (core/threaded_vec.hpp). Each replaces one entry of the vector's
// table of operations, the way PETSc's own vector types fill theirs (petsc/private/vecimpl.h):
// PETSc 3.18 has no public call for these (VecSetOperation names five operations), and bolt is
// compiled against the installed PETSc's header, so the table is that PETSc's. PETSc's
// interface functions have checked the arguments (sizes, types, aliasing) before they call
// these, and they log the event and raise the vector's state after.
#include "core/threaded_vec.hpp"

#include <petsc/private/vecimpl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/ordered_sum.hpp"
#include "core/parallel_copy.hpp"
#include "core/petsc_check.hpp"

namespace bolt {

namespace {

constexpr PetscChecker check{"threaded vector"};

// Entries per block of a combination (y stays in cache over its terms): the sums' block.
constexpr PetscInt kBlock = PetscInt(kOrderedSumBlock);
// Below this length one thread is faster than starting a team (a few microseconds).
constexpr PetscInt kThreadedFrom = 4 * kBlock;

// VECSEQ's own duplicate, which the threaded one calls before it gives the copy the same table.
PetscErrorCode (*seq_duplicate)(Vec, Vec*) = nullptr;

void install(Vec v);

template <class Body>
void each_entry(PetscInt n, Body body) {
#pragma omp parallel for schedule(static) if (n >= kThreadedFrom)
  for (PetscInt i = 0; i < n; ++i) body(i);
}

PetscErrorCode mdot(Vec x, PetscInt k, const Vec y[], PetscScalar* dots) {
  const PetscScalar* a = nullptr;
  std::vector<const PetscScalar*> b(std::size_t(k), nullptr);
  PetscCall(VecGetArrayRead(x, &a));
  for (PetscInt j = 0; j < k; ++j) PetscCall(VecGetArrayRead(y[j], &b[std::size_t(j)]));
  ordered_sums(x->map->n, k, dots,
               [&](std::int64_t i, std::int64_t j) { return a[i] * b[std::size_t(j)][i]; },
               kThreadedFrom);
  for (PetscInt j = 0; j < k; ++j) PetscCall(VecRestoreArrayRead(y[j], &b[std::size_t(j)]));
  PetscCall(VecRestoreArrayRead(x, &a));
  return PetscLogFlops(PetscMax(2.0 * x->map->n - 1.0, 0.0) * PetscLogDouble(k));
}

PetscErrorCode dot(Vec x, Vec y, PetscScalar* value) { return mdot(x, 1, &y, value); }

PetscErrorCode norm(Vec x, NormType type, PetscReal* value) {
  const PetscScalar* a = nullptr;
  const PetscInt n = x->map->n;
  PetscCall(VecGetArrayRead(x, &a));
  if (type == NORM_INFINITY) {
    PetscReal largest = 0.0;
    bool not_a_number = false;  // which max would drop, and VECSEQ returns
#pragma omp parallel for schedule(static) reduction(max : largest) \
    reduction(|| : not_a_number) if (n >= kThreadedFrom)
    for (PetscInt i = 0; i < n; ++i) {
      largest = std::max(largest, std::abs(a[i]));
      not_a_number = not_a_number || std::isnan(a[i]);
    }
    *value = not_a_number ? std::numeric_limits<PetscReal>::quiet_NaN() : largest;
  } else {
    // NORM_1, NORM_2 (or its alias NORM_FROBENIUS), or both (NORM_1_AND_2: value[0] and [1]).
    PetscScalar sums[2];
    ordered_sums(
        n, 2, sums,
        [&](std::int64_t i, std::int64_t j) { return j == 0 ? std::abs(a[i]) : a[i] * a[i]; },
        kThreadedFrom);
    if (type == NORM_1) *value = sums[0];
    if (type == NORM_2 || type == NORM_FROBENIUS) *value = std::sqrt(sums[1]);
    if (type == NORM_1_AND_2) value[0] = sums[0], value[1] = std::sqrt(sums[1]);
  }
  PetscCall(VecRestoreArrayRead(x, &a));
  return PetscLogFlops(PetscMax(2.0 * n - 1.0, 0.0));
}

PetscErrorCode set(Vec x, PetscScalar alpha) {
  PetscScalar* a = nullptr;
  PetscCall(VecGetArrayWrite(x, &a));
  each_entry(x->map->n, [&](PetscInt i) { a[i] = alpha; });
  return VecRestoreArrayWrite(x, &a);
}

PetscErrorCode scale(Vec x, PetscScalar alpha) {
  if (alpha == 1.0) return 0;
  if (alpha == 0.0) return set(x, 0.0);  // a NaN or infinity becomes 0, as in VECSEQ
  PetscScalar* a = nullptr;
  PetscCall(VecGetArray(x, &a));
  each_entry(x->map->n, [&](PetscInt i) { a[i] *= alpha; });
  PetscCall(VecRestoreArray(x, &a));
  return PetscLogFlops(x->map->n);
}

PetscErrorCode copy(Vec from, Vec to) {
  if (from == to) return 0;
  const PetscScalar* a = nullptr;
  PetscScalar* b = nullptr;
  PetscCall(VecGetArrayRead(from, &a));
  PetscCall(VecGetArrayWrite(to, &b));
  if (from->map->n >= kThreadedFrom)
    parallel_copy(a, from->map->n, b);
  else
    std::copy_n(a, from->map->n, b);
  PetscCall(VecRestoreArrayWrite(to, &b));
  return VecRestoreArrayRead(from, &a);
}

// w = alpha x + beta y, with w's old entries read only where w is x or y; a zero coefficient
// drops its vector (which is not read), as in VECSEQ.
PetscErrorCode combine(Vec w, PetscScalar alpha, Vec x, PetscScalar beta, Vec y) {
  if (alpha == 0.0 && beta == 0.0) return set(w, 0.0);
  if (beta == 0.0) std::swap(alpha, beta), std::swap(x, y);
  PetscScalar* c = nullptr;
  const PetscScalar* b = nullptr;
  const PetscScalar* a = nullptr;
  PetscCall(VecGetArray(w, &c));
  if (y != w) PetscCall(VecGetArrayRead(y, &b));
  const PetscScalar* yy = y == w ? c : b;
  if (alpha == 0.0) {
    each_entry(w->map->n, [&](PetscInt i) { c[i] = beta * yy[i]; });
  } else {
    if (x != w) PetscCall(VecGetArrayRead(x, &a));
    const PetscScalar* xx = x == w ? c : a;
    each_entry(w->map->n, [&](PetscInt i) { c[i] = alpha * xx[i] + beta * yy[i]; });
    if (x != w) PetscCall(VecRestoreArrayRead(x, &a));
  }
  if (y != w) PetscCall(VecRestoreArrayRead(y, &b));
  PetscCall(VecRestoreArray(w, &c));
  return PetscLogFlops(3.0 * w->map->n);
}

PetscErrorCode axpy(Vec y, PetscScalar alpha, Vec x) { return combine(y, alpha, x, 1.0, y); }
PetscErrorCode axpby(Vec y, PetscScalar alpha, PetscScalar beta, Vec x) {
  return combine(y, alpha, x, beta, y);
}
PetscErrorCode aypx(Vec y, PetscScalar beta, Vec x) { return combine(y, 1.0, x, beta, y); }
PetscErrorCode waxpy(Vec w, PetscScalar alpha, Vec x, Vec y) {
  return combine(w, alpha, x, 1.0, y);
}

// y += sum_j alpha[j] x[j], a block of y at a time so that it stays in cache over the k terms.
PetscErrorCode maxpy(Vec y, PetscInt k, const PetscScalar* alpha, Vec* x) {
  PetscScalar* c = nullptr;
  std::vector<const PetscScalar*> a(std::size_t(k), nullptr);
  PetscCall(VecGetArray(y, &c));
  for (PetscInt j = 0; j < k; ++j) PetscCall(VecGetArrayRead(x[j], &a[std::size_t(j)]));
  const PetscInt n = y->map->n, blocks = (n + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) if (n >= kThreadedFrom)
  for (PetscInt b = 0; b < blocks; ++b) {
    const PetscInt begin = b * kBlock, end = std::min(n, begin + kBlock);
    for (PetscInt j = 0; j < k; ++j) {
      const PetscScalar* xj = a[std::size_t(j)];
      const PetscScalar aj = alpha[j];
      for (PetscInt i = begin; i < end; ++i) c[i] += aj * xj[i];
    }
  }
  for (PetscInt j = 0; j < k; ++j) PetscCall(VecRestoreArrayRead(x[j], &a[std::size_t(j)]));
  PetscCall(VecRestoreArray(y, &c));
  return PetscLogFlops(2.0 * n * PetscLogDouble(k));
}

PetscErrorCode duplicate(Vec v, Vec* copy) {
  PetscCall(seq_duplicate(v, copy));
  install(*copy);
  return 0;
}

void install(Vec v) {
  VecOps ops = v->ops;
  if (!seq_duplicate) seq_duplicate = ops->duplicate;
  ops->duplicate = duplicate;
  ops->dot = ops->dot_local = dot;
  ops->mdot = ops->mdot_local = mdot;
  ops->norm = ops->norm_local = norm;
  ops->set = set;
  ops->scale = scale;
  ops->copy = copy;
  ops->axpy = axpy;
  ops->axpby = axpby;
  ops->aypx = aypx;
  ops->waxpy = waxpy;
  ops->maxpy = maxpy;
}

}  // namespace

PetscErrorCode create_threaded_vector(PetscInt size, PetscInt block_size, Vec* v) {
  PetscCall(VecCreate(PETSC_COMM_SELF, v));
  PetscCall(VecSetSizes(*v, size, size));
  PetscCall(VecSetBlockSize(*v, block_size));
  PetscCall(VecSetType(*v, VECSEQ));
  install(*v);
  return 0;
}

void use_threaded_operations(Vec v) {
  PetscBool sequential = PETSC_FALSE;
  check(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(v), VECSEQ, &sequential),
        "PetscObjectTypeCompare");
  if (!sequential) fail("threaded vector: only a VECSEQ takes threaded operations");
  install(v);
}

}  // namespace bolt
