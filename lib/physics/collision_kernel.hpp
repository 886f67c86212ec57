#pragma once
// The collision kernel of the full Boltzmann operator (hard spheres, VHS) in bolt's units and its
// link to the rarefaction parameter delta = p0 L / (mu0 c0) (docs/physics.md, "Full Boltzmann
// collision integral").
//
// In units of c0 = sqrt(2 R T0), n0 and L the hard-sphere integral of paper 000 Eq. (2) becomes
//   C(f, f) = (kappa / 2) * int (f* f1* - f f1) |k . xi_r| |xi_r|^(1 - 2 omega) dxi_1 d2k,
// kappa = pi d^2 n0 L (d the molecular diameter; for VHS the diameter at relative speed c0).
// omega = 1/2 is the hard sphere, omega = 1 the Maxwell molecule (isotropic scattering, VHS).
namespace bolt {

// Hard-sphere viscosity in units rho0 c0 l, l = 1 / (sqrt(2) pi d^2 n0) the mean free path:
// the exact value (Pekeris & Alterman; ../shared/refdata/hard_sphere_transport.md) and the first
// Chapman-Enskog approximation 5 sqrt(pi) / 16, 1.6 % lower.
constexpr double kHardSphereViscosity = 0.562772898;
constexpr double kHardSphereViscosityFirstApprox = 0.553891828;

// kappa = pi d^2 n0 L for a gas of rarefaction parameter delta whose viscosity varies as T^omega.
//  * omega = 1/2 (hard spheres): from the exact viscosity, kappa = sqrt(2) 0.562772898 delta
//    (paper 000 takes mu0 "of the hard-sphere gas" from Chapman & Cowling, i.e. the converged
//    value, 1.016 times the first approximation).
//  * other omega (VHS): from the first Chapman-Enskog approximation,
//      kappa = delta 15 sqrt(2 pi) / (8 2^((1 - 2 omega)/2) Gamma(9/2 - omega)),
//    exact for omega = 1 (kappa = 2 delta: a Maxwell-type kernel has no higher Sonine terms) and
//    at most the hard sphere's 1.6 % low in between.
// Requires 1/2 <= omega <= 1.
double collision_prefactor(double delta, double omega);

// m(c) = < |xi - v1|^p > over v1 ~ Phi0 (density pi^(-3/2) exp(-|v1|^2)) for |xi| = c, p >= 0:
// the collision frequency of a molecule of speed c in the equilibrium gas is
// (kappa / 2) 4 pi (1/2) m(c) with p = 2 - 2 omega. Hard spheres (p = 1) have the closed form
// exp(-c^2) / sqrt(pi) + (c + 1 / (2 c)) erf(c); other p by quadrature of the radial integral
//   m(c) = int_0^inf r^p (r / c) (exp(-(r - c)^2) - exp(-(r + c)^2)) dr / sqrt(pi).
double mean_relative_speed_power(double c, double p);

// The same formula with the first Chapman-Enskog approximation also for hard spheres: the rate
// at which a small stress anisotropy starts to decay is p / mu^(1) (tests use it).
double collision_prefactor_first_approximation(double delta, double omega);

}  // namespace bolt
