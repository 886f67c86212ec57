// The OpenMP instantiations of SweepEngineImpl, one per relaxation evaluator: each thread sweeps
// its share of the velocity slots in groups of one octant (SweepLanes), with its own slices and
// its own moment and face sums, added together when the batch is done.
#include <omp.h>

#include <algorithm>
#include <array>
#include <vector>

#include "core/launch_cpu.hpp"
#include "kernels/sweep.hpp"
#include "solver/iterative/sweep_lanes_cpu.hpp"

namespace bolt {

namespace {

struct HostAccumulator {
  template <int K>
  void add(double* to, const Sums<K>& sums) const {
    for (int k = 0; k < K; ++k) to[k] += sums[k];
  }
};

}  // namespace

// Each thread takes a fixed, contiguous share of the slots (as a static schedule splits them) and
// its sums are added in thread order afterwards: for a given thread count the result does not
// depend on timing, so a restarted iteration continues bit-identically. Returns 0: no GPU lines.
template <class Real, class Relax>
int sweep_batch(CpuExec, const Sweep<Real, Relax>& sweep, std::int64_t first, std::int64_t count,
                Real* /*slices: each thread has its own*/, std::int64_t slice_size,
                const std::array<std::array<std::int64_t, 2>, 3>& face_size, int /*lines*/) {
  const std::int64_t cells = sweep.grid.cells();
  struct Partial {
    std::vector<double> moments, solid;
    std::vector<double> faces[3][2];
  };
  std::vector<Partial> partials(omp_get_max_threads());
#pragma omp parallel
  {
    Partial& mine = partials[omp_get_thread_num()];
    Sweep<Real, Relax> own = sweep;
    mine.moments.assign(std::size_t(cells) * kRawMoments, 0.0);
    own.moments = mine.moments.data();
    if (sweep.solids.outflux) {
      mine.solid.assign(std::size_t(cells) * 6, 0.0);
      own.solids.outflux = mine.solid.data();
    }
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        if (sweep.face[a][s].sums) {
          mine.faces[a][s].assign(std::size_t(face_size[a][s]) * kFaceSums, 0.0);
          own.face[a][s].sums = mine.faces[a][s].data();
        }
    // libgomp's static split: the first count % threads threads take one slot more.
    const std::int64_t threads = omp_get_num_threads(), thread = omp_get_thread_num();
    const std::int64_t share = count / threads, extra = count % threads;
    const std::int64_t lo = first + thread * share + std::min(thread, extra);
    const std::int64_t hi = lo + share + (thread < extra ? 1 : 0);
    SweepLanes<Real, Relax, HostAccumulator> lanes(own, HostAccumulator{}, slice_size);
    lanes.sweep_slots(lo, hi);
  }
  for (const Partial& part : partials) {
    for (std::size_t k = 0; k < part.moments.size(); ++k) sweep.moments[k] += part.moments[k];
    for (std::size_t k = 0; k < part.solid.size(); ++k) sweep.solids.outflux[k] += part.solid[k];
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        for (std::size_t k = 0; k < part.faces[a][s].size(); ++k) sweep.face[a][s].sums[k] += part.faces[a][s][k];
  }
  return 0;
}

inline void sum_copies(CpuExec, double*, std::int64_t, int) {}

}  // namespace bolt

#include "solver/iterative/sweep_engine_impl.hpp"

namespace bolt {

SweepEngineFactory cpu_sweep_engine_factory(std::string_view model) {
  return sweep_engine_factory_on<CpuExec>(model);
}

}  // namespace bolt
