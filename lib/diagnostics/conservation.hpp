#pragma once
// Totals of mass, momentum and energy over the interior (cell volumes as weights), and the
// residual between two field snapshots.
#include <array>
#include <vector>

#include "grid/physical_grid.hpp"

namespace bolt {

struct Totals {
  double mass = 0.0;
  std::array<double, 3> momentum{};
  double energy = 0.0;  // sum w f |xi|^2 integrated over the box
};

Totals totals(const PhysicalGrid& grid, const std::vector<double>& fields);

// Relative change per step of (n, u, T) between two snapshots `steps` apart:
// max over the five fields of ||a - b||_2 / max(||a||_2, ||b||_2, floor) / steps. The larger of
// the two norms keeps a flow started from rest from reporting a huge first residual; the floor
// keeps a field that is zero everywhere (a velocity component at rest) from dividing by zero.
double residual(const std::vector<double>& now, const std::vector<double>& before, int steps);

}  // namespace bolt
