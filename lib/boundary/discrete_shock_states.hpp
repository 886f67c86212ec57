#pragma once
// Rankine-Hugoniot on the discrete velocity grid. The continuous jump conditions hold for the
// exact Maxwellians; on a finite velocity grid their quadrature errors leave the two inflow
// states with slightly different fluxes, and a shock between them must drift. The downstream
// state is therefore corrected (Newton, from the continuous solution) so that the discrete
// fluxes sum_v w xi_x {1, xi_x, |xi|^2} f_M of both far states agree to round-off.
#include "grid/velocity_grid.hpp"
#include "physics/rankine_hugoniot.hpp"

namespace bolt {

// Discrete fluxes of the Maxwellian (n, u e_x, T) on the grid.
void discrete_fluxes(const VelocityGrid& velocities, const GasState& state, double flux[3]);

GasState discrete_downstream(const VelocityGrid& velocities, const GasState& upstream,
                             const GasState& continuous_downstream);

}  // namespace bolt
