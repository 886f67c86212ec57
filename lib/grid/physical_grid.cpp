#include "physical_grid.hpp"

#include <algorithm>
#include <string>

#include "core/checked.hpp"
#include "core/error.hpp"

namespace bolt {

std::int64_t PhysicalGrid::interior_cells() const {
  return checked_product({cells(0), cells(1), cells(2)}, "-grid_n");
}

std::int64_t PhysicalGrid::padded_cells() const {
  return checked_product({padded(0), padded(1), padded(2)}, "-grid_n with its ghost layers");
}

std::array<std::int64_t, 3> PhysicalGrid::strides() const {
  return {1, padded(0), std::int64_t(padded(0)) * padded(1)};
}

std::int64_t PhysicalGrid::padded_index(int i, int j, int k) const {
  const auto s = strides();
  return (i + offset(0)) * s[0] + (j + offset(1)) * s[1] + (k + offset(2)) * s[2];
}

namespace {

// Widths over the padded range of `axis` for a box starting at grid.origin in `whole`.
std::vector<double> padded_widths(const PhysicalGrid& grid, int a, const Axis& whole) {
  std::vector<double> widths(grid.padded(a));
  for (int ip = 0; ip < grid.padded(a); ++ip) {
    const int global = grid.origin[a] + ip - grid.offset(a);
    widths[ip] = whole.widths[std::clamp(global, 0, whole.cells() - 1)];
  }
  return widths;
}

Axis slice_axis(const Axis& whole, int lo, int count) {
  Axis axis;
  axis.uniform = whole.uniform;
  axis.widths.assign(whole.widths.begin() + lo, whole.widths.begin() + lo + count);
  axis.centres.assign(whole.centres.begin() + lo, whole.centres.begin() + lo + count);
  axis.faces.assign(whole.faces.begin() + lo, whole.faces.begin() + lo + count + 1);
  return axis;
}

}  // namespace

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
  for (int a = 0; a < 3; ++a) grid.padded_widths[a] = padded_widths(grid, a, grid.axes[a]);
  for (int a = 0; a < 3; ++a)
    if (grid.active[a])
      require(specs[a].cells >= ghost, "-grid_n: ", specs[a].cells, " cells on axis ", names[a], ": must be at least ",
              ghost, " (the ghost-layer depth of the streaming scheme)");
  return grid;
}

PhysicalGrid slice_grid(const PhysicalGrid& global, const std::array<int, 3>& lo,
                        const std::array<int, 3>& count) {
  PhysicalGrid grid = global;
  for (int a = 0; a < 3; ++a) {
    require(lo[a] >= 0 && count[a] >= 1 && lo[a] + count[a] <= global.cells(a), "grid slice on axis ",
            "xyz"[a], ": [", lo[a], ", +", count[a], ") is outside the ", global.cells(a), " cells");
    grid.axes[a] = slice_axis(global.axes[a], lo[a], count[a]);
    grid.origin[a] = lo[a];
  }
  for (int a = 0; a < 3; ++a) grid.padded_widths[a] = padded_widths(grid, a, global.axes[a]);
  return grid;
}

}  // namespace bolt
