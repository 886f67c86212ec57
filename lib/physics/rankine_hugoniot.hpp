#pragma once
// Normal-shock jump conditions for a monatomic gas (gamma = 5/3) in bolt's units
// (velocity in c0 = sqrt(2 R T0), so the sound speed is sqrt(gamma T / 2)).
namespace bolt {

struct GasState {
  double n, u, T;
};

constexpr double kGammaMonatomic = 5.0 / 3.0;

double sound_speed(double T);
// Downstream state of a shock standing still, upstream state (n1, M sqrt(gamma T1 / 2), T1).
GasState rankine_hugoniot_downstream(double mach, const GasState& upstream);
// Fluxes of mass, momentum and energy of an equilibrium state in bolt's units:
// n u, n u^2 + n T / 2, u (n u^2 + 5/2 n T) (sums of w f xi_x {1, xi_x, |xi|^2}).
void equilibrium_fluxes(const GasState& s, double flux[3]);

}  // namespace bolt
