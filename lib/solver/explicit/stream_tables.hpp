#pragma once
// Host-side construction of the per-velocity streaming tables (kernels/streaming.hpp) for a time
// step: whole-cell shifts and residual Courant numbers on uniform axes, |xi| dt and 1/dx on
// stretched ones.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"
#include "kernels/streaming.hpp"

namespace bolt {

struct HostStreamTables {
  std::vector<int> shift;  // 32 bits: fewer bytes per update; checked against the grid size
  std::vector<signed char> step;                 // [axis * nv + v]
  std::vector<double> fraction;                  // [axis * nv + v]
  std::array<std::vector<double>, 3> scale;      // [axis][padded coordinate]
  int max_shift = 0;
};

HostStreamTables make_stream_tables(const PhysicalGrid& grid, const VelocityGrid& velocities,
                                    double dt);

// Velocities per run, on average, below which the CPU streams the row per velocity, both
// neighbours loaded and one selected: a run's loop has a vector's length at least (8 doubles on
// AVX-512), or its set-up and masked remainder cost more than the loads it saves.
constexpr int kMinStreamRun = 8;

// The runs of StreamRuns for the nv velocities of signed_fraction (laid out as
// StreamTables's, axes tables of table_stride), or none where they would be short on average.
// The sets built here list each sign octant contiguously (velocity_grid.hpp), so they give at
// most one run per octant, and one more where a node lies at xi = 0 on a streaming axis (its
// step 0 splits the octant that holds it); a reduced set's g and h nodes share a velocity's
// signs, and a rank's share of the velocities cuts a run at its ends only.
template <class Real>
std::vector<StreamRun> sign_runs(const std::vector<Real>& signed_fraction, int axes,
                                 int table_stride, int nv) {
  std::vector<StreamRun> runs;
  for (int v = 0; v < nv; ++v) {
    StreamRun run{v, v + 1, {0, 0, 0}};
    for (int k = 0; k < axes; ++k)
      run.step[k] = StreamTables<Real>::upwind_step(signed_fraction[k * table_stride + v], 1);
    if (!runs.empty() && std::equal(run.step, run.step + 3, runs.back().step))
      runs.back().end = v + 1;
    else
      runs.push_back(run);
  }
  if (std::int64_t(runs.size()) * kMinStreamRun > nv) runs.clear();
  return runs;
}

// Largest Courant number sum_d |xi_d| dt / dx_d over velocities and cells.
double max_courant(const PhysicalGrid& grid, const VelocityGrid& velocities, double dt);

}  // namespace bolt
