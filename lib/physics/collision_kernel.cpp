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

double mean_relative_speed_power(double c, double p) {
  const double pi = 3.14159265358979323846;
  if (p == 1.0) {
    if (c < 1e-4) return 2.0 / std::sqrt(pi) * (1.0 + c * c / 3.0);  // series: no 1 / c
    return std::exp(-c * c) / std::sqrt(pi) + (c + 0.5 / c) * std::erf(c);
  }
  if (p == 0.0) return 1.0;
  // Simpson's rule on [0, c + 8]: the integrand is smooth (r^p with p > 0 only at r = 0, where
  // it is multiplied by r^2) and below 1e-27 beyond.
  const int intervals = 4000;
  const double hi = c + 8.0, h = hi / intervals;
  const auto integrand = [&](double r) {
    if (c < 1e-8) return 4.0 * std::pow(r, p + 2.0) * std::exp(-r * r);  // the c -> 0 limit
    return std::pow(r, p) * (r / c) * (std::exp(-(r - c) * (r - c)) - std::exp(-(r + c) * (r + c)));
  };
  double sum = integrand(0.0) + integrand(hi);
  for (int i = 1; i < intervals; ++i) sum += (i % 2 ? 4.0 : 2.0) * integrand(i * h);
  return sum * h / 3.0 / std::sqrt(pi);
}

}  // namespace bolt
