#pragma once
// The physical grid of one box: N_x x N_y x N_z cells (N = 1 on unused axes) with `ghost`
// layers of dummy cells on every axis that has more than one cell. Cells are numbered x-fastest
// over the padded box, so a kernel finds its neighbours by constant strides.
#include <array>
#include <cstdint>
#include <vector>

#include "axis.hpp"

namespace bolt {

struct PhysicalGrid {
  int dim = 1;                   // number of axes with more than one cell (0 = homogeneous)
  std::array<Axis, 3> axes;      // x, y, z
  std::array<bool, 3> active{};  // axis has more than one cell (and ghost layers)
  int ghost = 1;
  // Global index of this box's first interior cell per axis: 0 for a whole grid, the sub-box's
  // corner when a rank owns part of it (the decomposition slices the global grid).
  std::array<int, 3> origin{0, 0, 0};
  // Cell widths over the padded extent of each active axis. Ghost cells beyond the global ends
  // repeat the end cell; ghost cells inside the global grid (another rank's cells) have their
  // true widths, so a sliced grid streams exactly as the whole one does.
  std::array<std::vector<double>, 3> padded_widths;

  int cells(int axis) const { return axes[axis].cells(); }
  std::int64_t interior_cells() const;
  // Padded extent along an axis (cells + 2 ghost on active axes).
  int padded(int axis) const { return cells(axis) + (active[axis] ? 2 * ghost : 0); }
  std::int64_t padded_cells() const;
  std::array<std::int64_t, 3> strides() const;  // of the padded numbering
  int offset(int axis) const { return active[axis] ? ghost : 0; }
  // Padded index of interior cell (i, j, k).
  std::int64_t padded_index(int i, int j, int k) const;
};

PhysicalGrid make_physical_grid(const std::array<AxisSpec, 3>& specs, int ghost);

// The part of the whole grid `global` covering `count` cells from `lo` on each axis (what one rank owns). Axes
// that are active globally stay active (with ghost layers) even where the slice has one cell.
PhysicalGrid slice_grid(const PhysicalGrid& global, const std::array<int, 3>& lo,
                        const std::array<int, 3>& count);

}  // namespace bolt
