#pragma once
// The physical grid of one box: N_x x N_y x N_z cells (N = 1 on unused axes) with `ghost`
// layers of dummy cells on every axis that has more than one cell. Cells are numbered x-fastest
// over the padded box, so a kernel finds its neighbours by constant strides.
#include <array>
#include <cstdint>

#include "axis.hpp"

namespace bolt {

struct PhysicalGrid {
  int dim = 1;                   // number of axes with more than one cell (0 = homogeneous)
  std::array<Axis, 3> axes;      // x, y, z
  std::array<bool, 3> active{};  // axis has more than one cell (and ghost layers)
  int ghost = 1;

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

}  // namespace bolt
