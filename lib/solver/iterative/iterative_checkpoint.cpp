// The iterative solver's checkpoint: per cell the moments and the walls' and solids' densities,
// every rank holding the whole state and writing a share of the columns.
#include <petscsys.h>

#include <algorithm>

#include "solver/iterative/iterative_steady.hpp"
#include "decomposition/gather.hpp"
#include "kernels/macroscopic.hpp"

namespace bolt {

StateLayout IterativeSteady::state_layout() const {
  StateLayout layout;
  const PhysicalGrid& grid = setup_.engine.grid;
  layout.boxes.push_back({{0, 0, 0}, {grid.cells(0), grid.cells(1), grid.cells(2)}});
  // Every rank holds the same state: each writes and reads a share of its columns.
  const int ranks = partition_.velocity_ranks, rank = partition_.velocity_rank;
  const int lo = int(std::int64_t(kStateColumns) * rank / ranks);
  const int hi = int(std::int64_t(kStateColumns) * (rank + 1) / ranks);
  layout.columns = {lo, hi - lo};
  layout.width = kStateColumns;
  return layout;
}

void IterativeSteady::save_state(BoxValues& f, BoxValues& stored) {
  const StateLayout layout = state_layout();
  const PhysicalGrid& grid = setup_.engine.grid;
  HostValues rows(std::size_t(cells_) * layout.columns.count);
  for (std::int64_t c = 0; c < cells_; ++c) {
    double all[kStateColumns] = {};
    std::copy_n(moments_.data() + c * kRawMoments, kRawMoments, all);
    const int at[3] = {int(c % grid.cells(0)), int(c / grid.cells(0) % grid.cells(1)),
                       int(c / grid.cells(0) / grid.cells(1))};
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        if (!solid_density_.empty()) all[kRawMoments + 2 * a + s] = solid_density_[c * 6 + 2 * a + s];
        if (wall_density_[a][s].empty() || at[a] != (s == 0 ? 0 : grid.cells(a) - 1)) continue;
        const int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
        all[kRawMoments + 2 * a + s] = wall_density_[a][s][at[a1] + std::size_t(grid.cells(a1)) * at[a2]];
      }
    std::copy_n(all + layout.columns.lo, layout.columns.count, rows.data() + c * layout.columns.count);
  }
  f.assign(1, std::move(rows));
  stored.clear();
}

void IterativeSteady::restore(const BoxValues& state, std::int64_t unit) {
  const StateLayout layout = state_layout();
  const PhysicalGrid& grid = setup_.engine.grid;
  const std::array<int, 3> cells{grid.cells(0), grid.cells(1), grid.cells(2)};
  const std::vector<double> all = allgather_blocks(
      partition_.velocity_group, cells, kStateColumns,
      {{layout.boxes.front(), layout.columns.lo, layout.columns.count}}, state.front());
  for (std::int64_t c = 0; c < cells_; ++c) {
    const double* row = all.data() + c * kStateColumns;
    std::copy_n(row, kRawMoments, moments_.data() + c * kRawMoments);
    const int at[3] = {int(c % cells[0]), int(c / cells[0] % cells[1]), int(c / cells[0] / cells[1])};
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) {
        if (!solid_density_.empty()) solid_density_[c * 6 + 2 * a + s] = row[kRawMoments + 2 * a + s];
        if (wall_density_[a][s].empty() || at[a] != (s == 0 ? 0 : cells[a] - 1)) continue;
        const int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
        wall_density_[a][s][at[a1] + std::size_t(cells[a1]) * at[a2]] = row[kRawMoments + 2 * a + s];
      }
  }
  sweeps_ = unit;
  // PETSc's SNES keeps the accelerator's history in private data that no public call saves or
  // sets: the continued run reaches the same fixed point, but in other sweeps (docs/output.md).
  if (accelerator_ != Accelerator::none)
    PetscPrintf(partition_.world,
                "bolt: note: -iter_accel %s starts its history anew at a restart: the continued "
                "run is not bit-identical to one that never stopped\n",
                accelerator_ == Accelerator::anderson ? "anderson" : "ngmres");
}

}  // namespace bolt
