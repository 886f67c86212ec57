#include "physical_grid.hpp"

#include <string>

#include "core/error.hpp"

namespace bolt {

std::int64_t PhysicalGrid::interior_cells() const {
  return std::int64_t(cells(0)) * cells(1) * cells(2);
}

std::int64_t PhysicalGrid::padded_cells() const {
  return std::int64_t(padded(0)) * padded(1) * padded(2);
}

std::array<std::int64_t, 3> PhysicalGrid::strides() const {
  return {1, padded(0), std::int64_t(padded(0)) * padded(1)};
}

std::int64_t PhysicalGrid::padded_index(int i, int j, int k) const {
  const auto s = strides();
  return (i + offset(0)) * s[0] + (j + offset(1)) * s[1] + (k + offset(2)) * s[2];
}

PhysicalGrid make_physical_grid(const std::array<AxisSpec, 3>& specs, int ghost) {
  require(ghost >= 1, "ghost layers ", ghost, ": must be at least 1");
  PhysicalGrid grid;
  grid.ghost = ghost;
  grid.dim = 0;
  const char* names[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    grid.axes[a] = make_axis(specs[a], "grid", names[a]);
    grid.active[a] = specs[a].cells > 1;
    if (grid.active[a]) ++grid.dim;
  }
  for (int a = 0; a < 3; ++a)
    if (grid.active[a])
      require(specs[a].cells >= ghost, "-grid_n: ", specs[a].cells, " cells on axis ", names[a], ": must be at least ",
              ghost, " (the ghost-layer depth of the streaming scheme)");
  return grid;
}

}  // namespace bolt
