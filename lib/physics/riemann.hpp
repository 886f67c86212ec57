#pragma once
// Exact solution of the Riemann problem of the Euler equations (Toro, ch. 4) for an ideal gas:
// used for the Sod tube (its small-Knudsen limit) and the shock-tube Mach number.
// Units are any consistent set (density, velocity, pressure).
namespace bolt {

struct PrimitiveState {
  double rho, u, p;
};

struct RiemannStar {
  double p, u, rho_left, rho_right;
  double shock_speed_right;  // speed of the right-moving shock (when the right wave is one)
};

RiemannStar solve_riemann(const PrimitiveState& left, const PrimitiveState& right, double gamma);
// State at similarity coordinate s = (x - x0) / t.
PrimitiveState sample_riemann(const PrimitiveState& left, const PrimitiveState& right,
                              double gamma, const RiemannStar& star, double s);

}  // namespace bolt
