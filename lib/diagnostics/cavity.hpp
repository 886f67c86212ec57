#pragma once
// Lid-driven cavity diagnostics (paper 000 Eq. 27), lid = the y-high wall moving along x:
//   D = (1/L) int Pi_xy dx along the lid, Pi_xy = P_xy / (p0 V_w / c0), as a positive magnitude,
//   G = (1/L) int |u_x(x_c, y)| dy / V_w along the vertical centre line x = x_c.
// P_xy on the lid is the x-momentum flux through the lid face (the discrete sum the boundary
// condition uses), so D is the drag the gas exerts on the lid.
#include <vector>

#include "grid/physical_grid.hpp"

namespace bolt {

struct CavityDiagnostics {
  double drag = 0.0;       // D
  double flow_rate = 0.0;  // G
};

// lid_fluxes: Engine::face_fluxes(1, 1) (5 per lid position); fields: Engine::fields().
CavityDiagnostics cavity_diagnostics(const PhysicalGrid& grid, const std::vector<double>& fields,
                                     const std::vector<double>& lid_fluxes, double lid_velocity);

// u_x / V_w along the vertical centre line (interpolated between the two middle columns).
std::vector<double> centre_line_velocity(const PhysicalGrid& grid, const std::vector<double>& fields,
                                         double lid_velocity);

}  // namespace bolt
