#include "conservation.hpp"

#include <algorithm>
#include <cmath>

#include "field_access.hpp"

namespace bolt {

Totals totals(const PhysicalGrid& grid, const std::vector<double>& fields) {
  const FieldView view{fields, grid};
  Totals t;
  for (int k = 0; k < grid.cells(2); ++k)
    for (int j = 0; j < grid.cells(1); ++j)
      for (int i = 0; i < grid.cells(0); ++i) {
        const double volume =
            grid.axes[0].widths[i] * grid.axes[1].widths[j] * grid.axes[2].widths[k];
        const double n = view.at(i, j, k, kN);
        const double u[3] = {view.at(i, j, k, kUx), view.at(i, j, k, kUy), view.at(i, j, k, kUz)};
        t.mass += n * volume;
        for (int a = 0; a < 3; ++a) t.momentum[a] += n * u[a] * volume;
        // sum w f |xi|^2 = n |u|^2 + 3/2 n T
        t.energy += (n * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) + 1.5 * n * view.at(i, j, k, kT)) * volume;
      }
  return t;
}

double residual(const std::vector<double>& now, const std::vector<double>& before, int steps) {
  if (before.size() != now.size() || steps <= 0) return 0.0;
  const std::size_t cells = now.size() / kFieldCount;
  double worst = 0.0;
  for (int field = kN; field <= kT; ++field) {
    double diff = 0.0, norm_now = 0.0, norm_before = 0.0;
    for (std::size_t c = 0; c < cells; ++c) {
      const double a = now[c * kFieldCount + field], b = before[c * kFieldCount + field];
      diff += (a - b) * (a - b);
      norm_now += a * a;
      norm_before += b * b;
    }
    const double floor = 1e-12 * cells;
    const double norm = std::max({norm_now, norm_before, floor});
    worst = std::max(worst, std::sqrt(diff / norm));
  }
  return worst / steps;
}

}  // namespace bolt
