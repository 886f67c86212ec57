#include "cavity.hpp"

#include <cmath>

#include "core/error.hpp"
#include "field_access.hpp"

namespace bolt {

std::vector<double> centre_line_velocity(const PhysicalGrid& grid, const std::vector<double>& fields,
                                         double lid_velocity) {
  const FieldView view{fields, grid};
  const Axis& x = grid.axes[0];
  const double centre = 0.5 * (x.faces.front() + x.faces.back());
  // Columns i0, i0 + 1 around the centre, linear weights.
  int i0 = 0;
  while (i0 + 1 < x.cells() - 1 && x.centres[i0 + 1] < centre) ++i0;
  const double span = x.centres[i0 + 1] - x.centres[i0];
  const double w1 = x.cells() > 1 ? (centre - x.centres[i0]) / span : 0.0;
  std::vector<double> profile(grid.cells(1));
  for (int j = 0; j < grid.cells(1); ++j) {
    const double u0 = view.at(i0, j, 0, kUx);
    const double u1 = x.cells() > 1 ? view.at(i0 + 1, j, 0, kUx) : u0;
    profile[j] = ((1.0 - w1) * u0 + w1 * u1) / lid_velocity;
  }
  return profile;
}

CavityDiagnostics cavity_diagnostics(const PhysicalGrid& grid, const std::vector<double>& fields,
                                     const std::vector<double>& lid_fluxes, double lid_velocity) {
  require(lid_velocity != 0.0, "cavity diagnostics: the lid (-bc_y_high_velocity) does not move");
  require(grid.active[0] && grid.active[1], "cavity diagnostics: need a 2-D (x, y) grid");
  CavityDiagnostics d;
  const Axis& x = grid.axes[0];
  const Axis& y = grid.axes[1];
  const double width = x.faces.back() - x.faces.front();
  const double height = y.faces.back() - y.faces.front();
  // Lid positions run over x (and z, averaged) with 5 fluxes each; index 1 is the x-momentum
  // flux out through the lid, sum w xi_y xi_x F; P_xy / p0 = 2 * that.
  const int nz = grid.cells(2);
  double integral = 0.0;
  for (int k = 0; k < nz; ++k)
    for (int i = 0; i < x.cells(); ++i) {
      // face_fluxes orders positions with axis (y+1)%3 = z fastest, then x.
      const double flux = lid_fluxes[(std::size_t(i) * nz + k) * 5 + 1];
      integral += 2.0 * flux * x.widths[i];
    }
  d.drag = -integral / (nz * width * lid_velocity);
  // The row next to the lid: P_xy / p0 = 2 P (the fields hold P).
  const FieldView view{fields, grid};
  const int top = y.cells() - 1;
  double row_integral = 0.0;
  for (int k = 0; k < nz; ++k)
    for (int i = 0; i < x.cells(); ++i)
      row_integral += 2.0 * view.at(i, top, k, kPxy) * x.widths[i];
  d.drag_top_row = -row_integral / (nz * width * lid_velocity);
  const std::vector<double> profile = centre_line_velocity(grid, fields, lid_velocity);
  double g = 0.0;
  for (int j = 0; j < y.cells(); ++j) g += std::abs(profile[j]) * y.widths[j];
  d.flow_rate = g / height;
  return d;
}

}  // namespace bolt
