#pragma once
// Reading the macroscopic field array (kFieldCount doubles per interior cell, x fastest) by name.
#include <cstdint>
#include <vector>

#include "grid/physical_grid.hpp"
#include "kernels/cell_moments.hpp"

namespace bolt {

enum Field { kN = 0, kUx, kUy, kUz, kT, kPxx, kPyy, kPzz, kPxy, kPxz, kPyz, kQx, kQy, kQz };

struct FieldView {
  const std::vector<double>& data;
  const PhysicalGrid& grid;

  double at(int i, int j, int k, Field field) const {
    const std::int64_t item =
        i + std::int64_t(grid.cells(0)) * (j + std::int64_t(grid.cells(1)) * k);
    return data[item * kFieldCount + field];
  }
  std::int64_t cells() const { return grid.interior_cells(); }
  double at(std::int64_t item, Field field) const { return data[item * kFieldCount + field]; }
};

}  // namespace bolt
