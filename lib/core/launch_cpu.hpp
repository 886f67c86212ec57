#pragma once
// The OpenMP backend of the launch API. Include only from backend translation units (.cpp
// that instantiate kernels for the CPU); kernels see the API through the Team concept:
//   team.for_each(n, f)     f(i) for i in [0, n), split over the team's threads
//   team.reduce<K>(n, f)    Sums<K> of f(i, sums&) over [0, n), the same result on every thread;
//                           reduce<K, Acc> lets a GPU thread and warp accumulate in Acc (f then
//                           takes `auto& sums`); reduce_rolled: not unrolled (see for_each_rolled)
//   team.reduce_pair_rolled<K1, K2>(n, f)  TeamTotals of two sets of sums, K1 then K2, that
//                           f(i, first, second) adds into over [0, n) (a warp reduces at most 32
//                           sums at once: more than 32 in one pass); not unrolled
//   team.team_totals(s)     Sums<K> of every thread's own sums s, the same on every thread
//   team.group_sums<K, Acc>(n, f)  Sums<K, Acc> of f(i, sums&) over [0, n) formed by every
//                           group of kTeamGroup threads on its own (GPU: a warp, no barrier):
//                           short sums every thread needs; the same result on every thread
//   team.row_scratch(p)     the team's scratch memory (scratch_bytes of for_each_team), or p
//                           when it has none
//   team.scratch_memory<T>()  the scratch of a team that has one (GPU: shared-memory accesses)
//   team.sync()             barrier: writes of every thread before it are seen by all after it
//   team.sync_group()       the same within every group of kTeamGroup items (sums.hpp) of the
//                           for_each loops around it: their writes before, their reads after
//   team.for_each_rolled(n, f)  like for_each, not unrolled (bodies that batch their own loads)
//   Team::kBatchesLoads     whether a kernel's loops should take batches of items per thread
//                           (GPU: their loads in flight together) or single ones (CPU: the loop
//                           vectorizes)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include <unistd.h>

#include <omp.h>

#include "cell_tiles.hpp"
#include "sums.hpp"
#include "team_memory.hpp"

// exp in the loops over velocities calls glibc's vector variants (libmvec), as <math.h> declares
// them under -ffast-math; without errno (-fno-math-errno) the calls then vectorize.
extern "C" {
__attribute__((simd("notinbranch"))) double exp(double) noexcept;
__attribute__((simd("notinbranch"))) float expf(float) noexcept;
}

namespace bolt {

struct CpuTeam;
struct CpuExec {
  using Team = CpuTeam;  // what its kernels' functors are run by
};

// One team = one OpenMP thread working on one item (a spatial cell) sequentially.
struct CpuTeam {
  // Kernels take single velocities in their loops (a loop over them vectorizes), not batches
  // whose loads a GPU thread issues together.
  static constexpr bool kBatchesLoads = false;
  static constexpr int kMaxTotals = 64;
  char* scratch = nullptr;  // this thread's scratch, or nullptr
  mutable double totals[kMaxTotals] = {};  // what reduce_pair_rolled returns a view of

  template <class F>
  [[gnu::flatten]] void for_each(int n, F&& f) const {
#pragma omp simd
    for (int i = 0; i < n; ++i) f(i);
  }
  // Partial sums per accumulator in CpuTeam::reduce: lane j adds items j, j + kReduceLanes, ...
  static constexpr int kReduceLanes = 16;
  // Acc is the GPU's per-thread accumulator; one CPU thread sums a whole row, in double, in
  // kReduceLanes partial sums per accumulator added lane by lane at the end: the loop over a
  // block of lanes vectorizes (independent adds, 16 lanes in one or two registers), and
  // the order of the sums is the source's, the same for every vector width and compiler. Not an
  // omp simd loop: OpenMP gives a local whose address f takes (the sums) one copy per lane in
  // memory, which GCC does not vectorize (an omp simd reduction of the sums' array stays scalar:
  // one dependent add per item and accumulator).
  template <int K, class Acc = double, class F>
  [[gnu::flatten]] Sums<K> reduce(int n, F&& f) const {
    constexpr int W = kReduceLanes;
    alignas(64) double acc[K][W] = {};
    const int blocked = n - n % W;
    for (int first = 0; first < blocked; first += W) {
      for (int j = 0; j < W; ++j) {
        Sums<K> s = Sums<K>::zero();
        f(first + j, s);
        for (int k = 0; k < K; ++k) acc[k][j] += s[k];
      }
    }
    for (int j = 0; j < n - blocked; ++j) {
      Sums<K> s = Sums<K>::zero();
      f(blocked + j, s);
      for (int k = 0; k < K; ++k) acc[k][j] += s[k];
    }
    Sums<K> sums;
    for (int k = 0; k < K; ++k) {
      sums[k] = acc[k][0];
      for (int j = 1; j < W; ++j) sums[k] += acc[k][j];
    }
    return sums;
  }
  template <int K, class Acc = double, class F>
  Sums<K> reduce_rolled(int n, F&& f) const {
    return reduce<K, Acc>(n, f);
  }
  template <int K1, int K2, class Acc = double, class F>
  TeamTotals reduce_pair_rolled(int n, F&& f) const {
    static_assert(K1 + K2 <= kMaxTotals, "CpuTeam keeps at most kMaxTotals totals");
    Sums<K1> first = Sums<K1>::zero();
    Sums<K2> second = Sums<K2>::zero();
    for (int i = 0; i < n; ++i) f(i, first, second);
    for (int k = 0; k < K1; ++k) totals[k] = first[k];
    for (int k = 0; k < K2; ++k) totals[K1 + k] = second[k];
    return TeamTotals{totals};
  }
  // Sums<K> of f(i, sums) over [0, n) formed by each group on its own: one thread, all of them.
  template <int K, class Acc = double, class F>
  Sums<K, Acc> group_sums(int n, F&& f) const {
    Sums<K, Acc> sums = Sums<K, Acc>::zero();
    for (int i = 0; i < n; ++i) f(i, sums);
    return sums;
  }
  // The team's totals of every thread's sums: one thread, its own.
  template <int K>
  Sums<K> team_totals(const Sums<K>& mine) const {
    return mine;
  }
  template <class F>
  void for_each_rolled(int n, F&& f) const {
    for (int i = 0; i < n; ++i) f(i);
  }

  template <class Real>
  Real* row_scratch(Real* fallback) const {
    return scratch ? reinterpret_cast<Real*>(scratch) : fallback;
  }
  template <class T>
  T* scratch_memory() const {
    return reinterpret_cast<T*>(scratch);
  }

  void sync() const {}
  void sync_group() const {}
  bool leader() const { return true; }
};

// Runs f(team, item) for every item in [0, items); each thread gets scratch_bytes of scratch.
// ReduceWidth and team_size are hints the CPU backend does not need.
template <int ReduceWidth, class F>
void for_each_team(CpuExec, std::int64_t items, int /*team_size*/, std::size_t scratch_bytes,
                   const F& f, const char* /*label*/ = nullptr) {
#pragma omp parallel
  {
    std::vector<double> scratch((scratch_bytes + sizeof(double) - 1) / sizeof(double));
    CpuTeam team{scratch_bytes ? reinterpret_cast<char*>(scratch.data()) : nullptr};
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t item = 0; item < items; ++item) f(team, item);
  }
}

// L2 bytes of one core, as the C library reads them from the machine; 1 MiB (a common size per
// core) where it cannot tell.
inline std::size_t cpu_l2_bytes() {
  const long bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return bytes > 0 ? std::size_t(bytes) : std::size_t(1) << 20;
}

// for_each_team over the cells of a box of n cells (x fastest: item = x + n0 (y + n1 z)) whose
// rows take row_bytes: the same items, each once, in tiles that keep the neighbours' rows in a
// thread's L2 (cell_tiles.hpp); a tile is one thread's.
template <int ReduceWidth, class F>
void for_each_cell_team(CpuExec, const int n[3], std::size_t row_bytes, int /*team_size*/,
                        std::size_t scratch_bytes, const F& f, const char* /*label*/ = nullptr) {
  if (n[0] <= 0 || n[1] <= 0 || n[2] <= 0) return;
  const CellTiles tiles = cell_tiles(n, row_bytes, cpu_l2_bytes(), omp_get_max_threads());
#pragma omp parallel
  {
    std::vector<double> scratch((scratch_bytes + sizeof(double) - 1) / sizeof(double));
    CpuTeam team{scratch_bytes ? reinterpret_cast<char*>(scratch.data()) : nullptr};
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t t = 0; t < tiles.tiles(); ++t)
      tiles.for_each_cell(t, [&](std::int64_t item) { f(team, item); });
  }
}

inline void synchronize(CpuExec) {}

// The CUDA backend's second stream (launch_cuda.cuh); on the CPU work runs in the order issued.
struct CpuSideStream {
  CpuExec exec() const { return {}; }
  void fork(CpuExec) {}
  void join(CpuExec) {}
};
inline CpuSideStream side_stream_of(CpuExec) { return {}; }

// stable_sort_pairs: (key, value) pairs ordered by key, equal keys in their input order; keys in
// [0, 2^key_bits). The workspace (sort_pairs_workspace bytes) is the caller's.
inline std::size_t sort_pairs_workspace(CpuExec, int /*n*/, int /*key_bits*/) { return 0; }
inline void stable_sort_pairs(CpuExec, const int* keys_in, int* keys_out, const int* values_in,
                              int* values_out, int n, int /*key_bits*/, void* /*workspace*/,
                              std::size_t /*workspace_bytes*/) {
  std::vector<int> order(std::size_t(n > 0 ? n : 0));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return keys_in[a] < keys_in[b]; });
  for (int i = 0; i < n; ++i) {
    keys_out[i] = keys_in[order[i]];
    values_out[i] = values_in[order[i]];
  }
}

// Fast per-team scratch memory (GPU shared memory): none on the CPU. Kernels that need scratch
// anyway ask for it explicitly; the others use their output row.
inline std::size_t shared_memory_per_team(CpuExec) { return 0; }
inline TeamSharedMemory team_shared_memory(CpuExec) { return {}; }
// The GPU's widening of a team to fill a multiprocessor (launch_cuda.cuh): the CPU's teams are
// its threads' loops, as wide as asked.
template <int ReduceWidth, class F>
int team_size_filling_processor(CpuExec, int team_size, std::size_t, const char*) {
  return team_size;
}
// Multiprocessors of a GPU: none.
inline int multiprocessors(CpuExec) { return 0; }

}  // namespace bolt
