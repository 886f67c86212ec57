#include "rankine_hugoniot.hpp"

#include <cmath>

#include "core/error.hpp"

namespace bolt {

double sound_speed(double T) { return std::sqrt(kGammaMonatomic * T / 2.0); }

GasState rankine_hugoniot_downstream(double mach, const GasState& upstream) {
  require(mach >= 1.0, "-shock_mach ", mach, ": a normal shock needs an upstream Mach number >= 1");
  const double m2 = mach * mach;
  GasState down;
  down.n = upstream.n * 4.0 * m2 / (m2 + 3.0);
  down.T = upstream.T * (5.0 * m2 - 1.0) * (m2 + 3.0) / (16.0 * m2);
  down.u = upstream.u * upstream.n / down.n;
  return down;
}

void equilibrium_fluxes(const GasState& s, double flux[3]) {
  // With f_M = n (pi T)^-3/2 exp(-|xi-u|^2/T): <xi_x^2> = u^2 + T/2, <|xi|^2> = u^2 + 3T/2.
  flux[0] = s.n * s.u;
  flux[1] = s.n * (s.u * s.u + 0.5 * s.T);
  flux[2] = s.n * s.u * (s.u * s.u + 2.5 * s.T);
}

}  // namespace bolt
