#pragma once
// 1-D shock diagnostics from the density, velocity and temperature profiles along x:
//  * reciprocal thickness lambda0 / delta_s, delta_s = (n2 - n1) / max |dn/dx|, in units of the
//    length unit L (= lambda0 = mu1 c0 / p1 when -model_delta 1);
//  * centre: where n = (n1 + n2)/2;
//  * fluxes of mass, momentum, energy per cell and their largest relative variation along x.
#include <array>
#include <vector>

#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"

namespace bolt {

struct ShockDiagnostics {
  double reciprocal_thickness = 0.0;
  double centre = 0.0;
  std::array<double, 3> flux_variation{};  // (max - min) / max |F| for mass, momentum, energy
  std::array<double, 3> upstream{};        // n, u, T in the first cell
  std::array<double, 3> downstream{};      // n, u, T in the last cell
};

ShockDiagnostics shock_diagnostics(const PhysicalGrid& grid, const std::vector<double>& fields);

// Largest relative variation along x of the scheme's own interface fluxes of mass, momentum and
// energy (first-order upwind with whole-cell shifts, uniform 1-D grid): what the scheme conserves,
// so at steady state they agree to round-off, while the cell-centred moment fluxes of
// shock_diagnostics differ from them by the O(dx) numerical diffusion. f: interior rows.
std::array<double, 3> interface_flux_variation(const PhysicalGrid& grid,
                                               const VelocityGrid& velocities,
                                               const std::vector<double>& f, double dt);

}  // namespace bolt
