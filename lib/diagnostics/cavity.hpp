#pragma once
// Lid-driven cavity diagnostics (paper 000 Eq. 27), lid = the y-high wall moving along x:
//   D = (1/L) int Pi_xy dx along the lid, Pi_xy = P_xy / (p0 V_w / c0), as a positive magnitude,
//   G = (1/L) int |u_x(x_c, y)| dy / V_w along the vertical centre line x = x_c.
// P_xy on the lid is the x-momentum flux through the lid face (the discrete sum the boundary
// condition uses), so D is the drag the gas exerts on the lid. D_top_row is the same integral
// over the P_xy of the cells next to the lid, at their centres, h/2 below it: Eq. 27 as a
// cell-centred code evaluates it (paper 000's values on its grids match it, docs/validation.md).
// It tends to D as h -> 0 (the centres approach the lid); on the paper's grids it lies 1.5-4 %
// below D.
#include <vector>

#include "grid/physical_grid.hpp"

namespace bolt {

struct CavityDiagnostics {
  double drag = 0.0;          // D
  double drag_top_row = 0.0;  // D from the centres of the cells next to the lid
  double flow_rate = 0.0;     // G
};

// lid_fluxes: Engine::face_fluxes(1, 1) (5 per lid position); fields: Engine::fields().
CavityDiagnostics cavity_diagnostics(const PhysicalGrid& grid, const std::vector<double>& fields,
                                     const std::vector<double>& lid_fluxes, double lid_velocity);

// u_x / V_w along the vertical centre line (interpolated between the two middle columns).
std::vector<double> centre_line_velocity(const PhysicalGrid& grid, const std::vector<double>& fields,
                                         double lid_velocity);

}  // namespace bolt
