// PETSc vectors with threaded operations (lib/core/threaded_vec.hpp), against VECSEQ's own:
//  * every operation the iterative solver's accelerators call gives VECSEQ's result, to a few
//    rounding errors of the sums (added in another order) and of the linear combinations
//    (which a BLAS may fuse), on lengths around the sums' block of 4096 entries;
//  * the sums and the combinations give the same bits on 1, 2, 3 and 5 threads;
//  * a zero coefficient drops its vector (a NaN there stays out), and a NaN entry makes the
//    largest entry a NaN, as in VECSEQ;
//  * duplicates, and the arrays of them a solver keeps, have the threaded operations.
#include <gtest/gtest.h>
#include <omp.h>
#include <petsc/private/vecimpl.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "petsc_environment.hpp"
#include "core/threaded_vec.hpp"

namespace bolt {
namespace {

[[maybe_unused]] ::testing::Environment* const kPetsc =
    ::testing::AddGlobalTestEnvironment(new test::PetscEnvironment);

constexpr int kVectors = 6;  // a history's depth: the x[] of VecMDot and VecMAXPY

// Values of mixed sign and magnitude, whose sums depend on the order of the additions.
std::vector<double> values(PetscInt n, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& e : v) e = value(random) * std::pow(10.0, 3.0 * value(random));
  return v;
}

Vec vector_of(const std::vector<double>& entries, bool threaded) {
  Vec v = nullptr;
  EXPECT_EQ(VecCreateSeq(PETSC_COMM_SELF, PetscInt(entries.size()), &v), 0);
  if (threaded) use_threaded_operations(v);
  double* a = nullptr;
  EXPECT_EQ(VecGetArray(v, &a), 0);
  std::copy(entries.begin(), entries.end(), a);
  EXPECT_EQ(VecRestoreArray(v, &a), 0);
  return v;
}

std::vector<double> entries_of(Vec v) {
  PetscInt n = 0;
  const double* a = nullptr;
  EXPECT_EQ(VecGetLocalSize(v, &n), 0);
  EXPECT_EQ(VecGetArrayRead(v, &a), 0);
  std::vector<double> e(a, a + n);
  EXPECT_EQ(VecRestoreArrayRead(v, &a), 0);
  return e;
}

// The results of the operations Anderson and NGMRES use, on vectors of length n.
struct Results {
  std::vector<double> scalars;  // dots, norms
  std::vector<double> tolerances;  // of each scalar: what a sum in another order may change
  std::vector<std::vector<double>> vectors;
};

// A sum of n terms added in two orders differs by a few times sqrt(n) rounding errors of the
// sum of the terms' magnitudes (the errors of a long sum add like a random walk).
double sum_tolerance(std::size_t n, double magnitudes) {
  return 4.0 * std::sqrt(double(n)) * std::numeric_limits<double>::epsilon() * magnitudes;
}

double sum_of(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] * b[i]);
  return sum;
}

Results operations(PetscInt n, bool threaded, int threads) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  Results r;
  Vec x = vector_of(values(n, 1), threaded), y = vector_of(values(n, 2), threaded);
  Vec* history = nullptr;
  EXPECT_EQ(VecDuplicateVecs(x, kVectors, &history), 0);
  for (int j = 0; j < kVectors; ++j) {
    const std::vector<double> e = values(n, 10 + j);
    double* a = nullptr;
    EXPECT_EQ(VecGetArray(history[j], &a), 0);
    std::copy(e.begin(), e.end(), a);
    EXPECT_EQ(VecRestoreArray(history[j], &a), 0);
  }
  const std::vector<double> ones(std::size_t(n), 1.0);
  double dots[kVectors], value = 0.0, both[2];
  EXPECT_EQ(VecMDot(x, kVectors, history, dots), 0);
  r.scalars.assign(dots, dots + kVectors);
  for (int j = 0; j < kVectors; ++j)
    r.tolerances.push_back(
        sum_tolerance(ones.size(), sum_of(entries_of(x), entries_of(history[j]))));
  EXPECT_EQ(VecDot(x, y, &value), 0);
  r.scalars.push_back(value);
  r.tolerances.push_back(sum_tolerance(ones.size(), sum_of(entries_of(x), entries_of(y))));
  // VecNormBegin/End (NGMRES's norms) use the local norm; the norm's cache is cleared between.
  for (NormType type : {NORM_1, NORM_2, NORM_INFINITY}) {
    EXPECT_EQ(VecNormBegin(y, type, &value), 0);
    EXPECT_EQ(VecNormEnd(y, type, &value), 0);
    r.scalars.push_back(value);
    // The 2-norm's relative error is half its square's; the largest entry is exact.
    const double magnitudes = type == NORM_1 ? sum_of(entries_of(y), ones) : value;
    r.tolerances.push_back(type == NORM_INFINITY ? 0.0 : sum_tolerance(ones.size(), magnitudes));
    EXPECT_EQ(VecScale(y, 1.0 + 1.0 / 64.0), 0);
  }
  EXPECT_EQ(VecNorm(x, NORM_1_AND_2, both), 0);
  r.scalars.insert(r.scalars.end(), both, both + 2);
  r.tolerances.push_back(sum_tolerance(ones.size(), sum_of(entries_of(x), ones)));
  r.tolerances.push_back(sum_tolerance(ones.size(), both[1]));
  const double alpha[kVectors] = {0.5, -1.25, 2.0, 0.0, -0.75, 3.5};
  EXPECT_EQ(VecMAXPY(y, kVectors, alpha, history), 0);
  r.vectors.push_back(entries_of(y));
  EXPECT_EQ(VecAXPY(y, -0.3, x), 0);
  r.vectors.push_back(entries_of(y));
  EXPECT_EQ(VecAXPBY(y, 0.7, 1.9, x), 0);
  r.vectors.push_back(entries_of(y));
  EXPECT_EQ(VecAYPX(y, -1.1, x), 0);
  r.vectors.push_back(entries_of(y));
  EXPECT_EQ(VecWAXPY(history[0], 2.5, x, y), 0);
  r.vectors.push_back(entries_of(history[0]));
  EXPECT_EQ(VecCopy(history[1], y), 0);
  r.vectors.push_back(entries_of(y));
  EXPECT_EQ(VecSet(history[2], -4.0), 0);
  r.vectors.push_back(entries_of(history[2]));
  EXPECT_EQ(VecDestroyVecs(kVectors, &history), 0);
  EXPECT_EQ(VecDestroy(&x), 0);
  EXPECT_EQ(VecDestroy(&y), 0);
  omp_set_num_threads(before);
  return r;
}

void expect_close(const std::vector<double>& a, const std::vector<double>& b,
                  const std::vector<double>& tolerances, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i)
    ASSERT_LE(std::abs(a[i] - b[i]), tolerances[i])
        << what << " " << i << ": " << a[i] << ", " << b[i];
}

TEST(ThreadedVec, GivesVecSeqResults) {
  for (PetscInt n : {1, 4095, 4097, 3 * 4096 + 17, 100003}) {
    const Results plain = operations(n, false, 1);
    const Results threaded = operations(n, true, 3);
    expect_close(plain.scalars, threaded.scalars, plain.tolerances, "dot or norm");
    // The combinations' entries stay below 1e5: 1e-10 is a few rounding errors of each of
    // their terms, which a BLAS may fuse and the threaded loops do not.
    const std::vector<double> combination(plain.vectors[0].size(), 1e-10);
    for (std::size_t v = 0; v < plain.vectors.size(); ++v)
      expect_close(plain.vectors[v], threaded.vectors[v], combination, "combination");
  }
}

TEST(ThreadedVec, SameBitsOnAnyNumberOfThreads) {
  const PetscInt n = 100003;
  const Results one = operations(n, true, 1);
  for (int threads : {2, 3, 5}) {
    const Results many = operations(n, true, threads);
    ASSERT_EQ(std::memcmp(one.scalars.data(), many.scalars.data(),
                          one.scalars.size() * sizeof(double)), 0)
        << "dots or norms on " << threads << " threads";
    for (std::size_t v = 0; v < one.vectors.size(); ++v)
      ASSERT_EQ(std::memcmp(one.vectors[v].data(), many.vectors[v].data(), n * sizeof(double)), 0)
          << "combination " << v << " on " << threads << " threads";
  }
}

TEST(ThreadedVec, ZeroCoefficientDropsItsVector) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Vec x = vector_of({1.0, 2.0, 3.0}, true), y = vector_of({nan, nan, nan}, true);
  ASSERT_EQ(VecAXPBY(y, 2.0, 0.0, x), 0);  // y = 2 x
  EXPECT_EQ(entries_of(y), (std::vector<double>{2.0, 4.0, 6.0}));
  ASSERT_EQ(VecSet(y, nan), 0);
  ASSERT_EQ(VecScale(y, 0.0), 0);
  EXPECT_EQ(entries_of(y), (std::vector<double>{0.0, 0.0, 0.0}));
  // The largest entry of a vector with a NaN is a NaN, as VECSEQ's, on one thread or all.
  for (const PetscInt n : {3, 100003}) {
    Vec v = vector_of(values(n, 3), true);
    double largest = 0.0;
    ASSERT_EQ(VecSetValue(v, n / 2, nan, INSERT_VALUES), 0);
    ASSERT_EQ(VecAssemblyBegin(v), 0);
    ASSERT_EQ(VecAssemblyEnd(v), 0);
    ASSERT_EQ(VecNorm(v, NORM_INFINITY, &largest), 0);
    EXPECT_TRUE(std::isnan(largest)) << n << " entries";
    VecDestroy(&v);
  }
  VecDestroy(&x);
  VecDestroy(&y);
}

TEST(ThreadedVec, DuplicatesAreThreaded) {
  Vec plain = vector_of({1.0}, false), threaded = vector_of({1.0}, true);
  Vec copy = nullptr;
  Vec* copies = nullptr;
  ASSERT_EQ(VecDuplicate(threaded, &copy), 0);
  ASSERT_EQ(VecDuplicateVecs(copy, 2, &copies), 0);
  EXPECT_NE(threaded->ops->mdot, plain->ops->mdot);
  for (Vec v : {copy, copies[0], copies[1]}) {
    EXPECT_EQ(v->ops->mdot, threaded->ops->mdot);
    EXPECT_EQ(v->ops->maxpy, threaded->ops->maxpy);
    EXPECT_EQ(v->ops->norm_local, threaded->ops->norm_local);
    EXPECT_EQ(v->ops->duplicate, threaded->ops->duplicate);
  }
  VecDestroyVecs(2, &copies);
  VecDestroy(&copy);
  VecDestroy(&threaded);
  VecDestroy(&plain);
}

}  // namespace
}  // namespace bolt
