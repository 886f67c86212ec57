#include "discrete_shock_states.hpp"

#include <cmath>

#include "core/error.hpp"
#include "kernels/maxwellian.hpp"
#include "kernels/small_solve.hpp"

namespace bolt {

void discrete_fluxes(const VelocityGrid& velocities, const GasState& state, double flux[3]) {
  const double u[3] = {state.u, 0.0, 0.0};
  const double prefactor = maxwellian_prefactor(state.n, state.T);
  flux[0] = flux[1] = flux[2] = 0.0;
  for (int v = 0; v < velocities.size(); ++v) {
    const double x = velocities.xi[0][v], y = velocities.xi[1][v], z = velocities.xi[2][v];
    const double f = maxwellian<double>(prefactor, 1.0 / state.T, u, x, y, z) *
                     velocities.reduced_factor(v, state.T);
    const double wf = velocities.weight[v] * f;  // 0 at a reduced set's h nodes
    flux[0] += x * wf;
    flux[1] += x * x * wf;
    flux[2] += x * ((x * x + y * y + z * z) * wf + velocities.h_weight_of(v) * f);
  }
}

GasState discrete_downstream(const VelocityGrid& velocities, const GasState& upstream,
                             const GasState& continuous_downstream) {
  double target[3];
  discrete_fluxes(velocities, upstream, target);
  GasState s = continuous_downstream;
  for (int it = 0; it < 20; ++it) {
    double f[3];
    discrete_fluxes(velocities, s, f);
    double residual[3] = {target[0] - f[0], target[1] - f[1], target[2] - f[2]};
    if (std::abs(residual[0]) + std::abs(residual[1]) + std::abs(residual[2]) < 1e-14 * std::abs(target[2]))
      break;
    double J[3][3];
    const double h[3] = {1e-7 * s.n, 1e-7 * std::abs(s.u), 1e-7 * s.T};
    for (int k = 0; k < 3; ++k) {
      GasState p = s;
      (k == 0 ? p.n : (k == 1 ? p.u : p.T)) += h[k];
      double fp[3];
      discrete_fluxes(velocities, p, fp);
      for (int i = 0; i < 3; ++i) J[i][k] = (fp[i] - f[i]) / h[k];
    }
    require(solve_dense<3>(J, residual), "shock: discrete Rankine-Hugoniot Newton step is singular");
    s.n += residual[0];
    s.u += residual[1];
    s.T += residual[2];
  }
  return s;
}

}  // namespace bolt
