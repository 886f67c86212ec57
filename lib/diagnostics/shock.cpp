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

std::array<double, 3> interface_flux_variation(const PhysicalGrid& grid,
                                               const VelocityGrid& velocities,
                                               const std::vector<double>& f, double dt) {
  const int n = grid.cells(0), nv = velocities.size();
  const double dx = grid.axes[0].widths[0];
  int reach = 1;  // cells an interface flux reads on each side
  for (int v = 0; v < nv; ++v)
    reach = std::max(reach, 1 + static_cast<int>(std::abs(velocities.xi[0][v]) * dt / dx));
  std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300}, scale{};
  for (int i = reach - 1; i + reach < n; ++i) {  // interface between cells i and i + 1
    double flux[3] = {0.0, 0.0, 0.0};
    for (int v = 0; v < nv; ++v) {
      const double x = velocities.xi[0][v];
      const double courant = std::abs(x) * dt / dx;
      const int whole = static_cast<int>(std::floor(courant));
      const double rest = courant - whole;
      // Mass of velocity v crossing the interface in one step, per dt: the whole cells shifted
      // across plus the upwind fraction of the next one.
      const int sign = x > 0 ? -1 : 1;  // walk upwind
      const int first = x > 0 ? i : i + 1;
      double crossing = 0.0;
      for (int k = 0; k < whole; ++k) crossing += f[std::size_t(first + sign * k) * nv + v];
      crossing += rest * f[std::size_t(first + sign * whole) * nv + v];
      const double carried = (x > 0 ? 1.0 : -1.0) * crossing * dx / dt;
      const double m = velocities.weight[v] * carried;  // 0 at a reduced set's h nodes
      const double xi2 = x * x + velocities.xi[1][v] * velocities.xi[1][v] +
                         velocities.xi[2][v] * velocities.xi[2][v];
      flux[0] += m;
      flux[1] += m * x;
      flux[2] += m * xi2 + velocities.h_weight_of(v) * carried;  // h: the reduced |xi_r|^2
    }
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], flux[k]);
      hi[k] = std::max(hi[k], flux[k]);
      scale[k] = std::max(scale[k], std::abs(flux[k]));
    }
  }
  std::array<double, 3> variation{};
  for (int k = 0; k < 3; ++k) variation[k] = (hi[k] - lo[k]) / scale[k];
  return variation;
}

}  // namespace bolt
