// The OpenMP instantiations of SweepEngineImpl, one per relaxation evaluator: a thread per
// velocity, each with its own slice and its own moment and face sums, added together when the
// batch is done.
#include <omp.h>

#include <array>
#include <vector>

#include "core/launch_cpu.hpp"
#include "kernels/sweep.hpp"

namespace bolt {

namespace {

struct HostAccumulator {
  template <int K>
  void add(double* to, const Sums<K>& sums) const {
    for (int k = 0; k < K; ++k) to[k] += sums[k];
  }
};

}  // namespace

// Each thread takes a fixed share of the slots (static schedule) and its sums are added in thread
// order afterwards: for a given thread count the result does not depend on timing, so a restarted
// iteration continues bit-identically. Returns 0: a thread sweeps its velocity alone, in no lines.
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
    std::vector<Real> slice(static_cast<std::size_t>(slice_size), Real(0));
    const HostAccumulator accumulator{};
#pragma omp for schedule(static)
    for (std::int64_t slot = first; slot < first + count; ++slot)
      own(slot, SliceView<Real>{slice.data(), 1}, accumulator);
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
