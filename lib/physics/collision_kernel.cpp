#include "collision_kernel.hpp"

#include <cmath>

#include "core/error.hpp"

namespace bolt {

double collision_prefactor_first_approximation(double delta, double omega) {
  require(delta > 0.0, "-model_delta ", delta, ": must be positive");
  require(omega >= 0.5 && omega <= 1.0, "-model_omega ", omega,
          ": the Monte Carlo collision needs 1/2 (hard spheres) <= omega <= 1 (Maxwell)");
  // First Chapman-Enskog viscosity of sigma_T(g) = pi d^2 (g / c0)^(1 - 2 omega), isotropic
  // scattering: mu = (5/8) k T / Omega22, Omega22 = sqrt(kT / (pi m)) (pi d^2 / 3)
  // 2^((1 - 2 omega)/2) Gamma(9/2 - omega), at T = T0; delta = p0 L / (mu c0) then gives kappa.
  const double pi = 3.14159265358979323846;
  return delta * 15.0 * std::sqrt(2.0 * pi) /
         (8.0 * std::pow(2.0, 0.5 * (1.0 - 2.0 * omega)) * std::tgamma(4.5 - omega));
}

double collision_prefactor(double delta, double omega) {
  const double first = collision_prefactor_first_approximation(delta, omega);
  // Hard spheres: the converged viscosity is larger, so the same delta needs a larger kappa.
  if (omega == 0.5) return first * (kHardSphereViscosity / kHardSphereViscosityFirstApprox);
  return first;
}

}  // namespace bolt
