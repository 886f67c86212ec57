#include "shock.hpp"

#include <algorithm>
#include <cmath>

#include "field_access.hpp"

namespace bolt {

ShockDiagnostics shock_diagnostics(const PhysicalGrid& grid, const std::vector<double>& fields) {
  const FieldView view{fields, grid};
  const Axis& x = grid.axes[0];
  const int n = x.cells();
  ShockDiagnostics d;
  const double n1 = view.at(0, 0, 0, kN), n2 = view.at(n - 1, 0, 0, kN);
  d.upstream = {n1, view.at(0, 0, 0, kUx), view.at(0, 0, 0, kT)};
  d.downstream = {n2, view.at(n - 1, 0, 0, kUx), view.at(n - 1, 0, 0, kT)};
  double slope = 0.0;
  for (int i = 0; i + 1 < n; ++i) {
    const double dn = view.at(i + 1, 0, 0, kN) - view.at(i, 0, 0, kN);
    slope = std::max(slope, std::abs(dn) / (x.centres[i + 1] - x.centres[i]));
  }
  d.reciprocal_thickness = slope / std::abs(n2 - n1);
  const double mid = 0.5 * (n1 + n2);
  d.centre = x.centres[0];
  for (int i = 0; i + 1 < n; ++i) {
    const double a = view.at(i, 0, 0, kN), b = view.at(i + 1, 0, 0, kN);
    if ((a - mid) * (b - mid) <= 0.0 && a != b) {
      d.centre = x.centres[i] + (mid - a) / (b - a) * (x.centres[i + 1] - x.centres[i]);
      break;
    }
  }
  // Fluxes along x from the moments (bolt units): sum w f xi_x {1, xi_x, |xi|^2}.
  std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300}, scale{};
  for (int i = 0; i < n; ++i) {
    const double rho = view.at(i, 0, 0, kN);
    const double u[3] = {view.at(i, 0, 0, kUx), view.at(i, 0, 0, kUy), view.at(i, 0, 0, kUz)};
    const double P[3] = {view.at(i, 0, 0, kPxx), view.at(i, 0, 0, kPxy), view.at(i, 0, 0, kPxz)};
    const double trace = view.at(i, 0, 0, kPxx) + view.at(i, 0, 0, kPyy) + view.at(i, 0, 0, kPzz);
    const double u2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    const double flux[3] = {
        rho * u[0], P[0] + rho * u[0] * u[0],
        rho * u[0] * u2 + u[0] * trace + 2.0 * (u[0] * P[0] + u[1] * P[1] + u[2] * P[2]) +
            view.at(i, 0, 0, kQx)};
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], flux[k]);
      hi[k] = std::max(hi[k], flux[k]);
      scale[k] = std::max(scale[k], std::abs(flux[k]));
    }
  }
  for (int k = 0; k < 3; ++k) d.flux_variation[k] = (hi[k] - lo[k]) / scale[k];
  return d;
}

}  // namespace bolt
