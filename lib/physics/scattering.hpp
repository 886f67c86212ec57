#pragma once
// Classical scattering of two molecules with a central potential V(r): the deflection angle
//   chi(b, E) = pi - 2 b int_{r0}^inf dr / (r^2 sqrt(1 - b^2 / r^2 - V(r) / E)),
// r0 the outermost turning point, E the energy of the relative motion; and the Lennard-Jones
// 12-6 potential with its reduced collision integral Omega(2,2)* (the projection method's
// Lennard-Jones gas, paper 003). Reduced units: r and b in sigma, V and E in epsilon.
#include <functional>
#include <vector>

namespace bolt {

using Potential = std::function<double(double r)>;

// V(r) = 4 (r^-12 - r^-6).
double lennard_jones(double r);
// A hard sphere of diameter 1: infinite inside, zero outside (chi = 2 arccos b for b < 1).
double hard_sphere(double r);

// chi(b, E) of `potential` by the integral above, with u = r0 / r = 1 - w^2 (no singularity at
// the turning point) and Gauss-Legendre in w. E > 0.
double deflection_angle(const Potential& potential, double b, double energy);

// Omega(2,2)*(T*) of the Lennard-Jones 12-6 potential, T* = k T / epsilon: the Monchick-Mason
// table (delta* = 0; ../shared/refdata/projection/validation_lj_and_case_setups.md), quadratic
// in ln T* through the three nearest points; 0.1 <= T* <= 100.
double lennard_jones_omega22(double reduced_temperature);

// Omega(2,2)*(T*) = (1 / (6 T*^4)) int exp(-E / T*) E^3 Q2(E) dE from chi itself, Q2(E) =
// 3 int_0^b_max (1 - cos^2 chi) b db (in pi sigma^2): what a deflection table implies (tests).
double omega22_of_deflection(const std::function<double(double b, double energy)>& chi,
                             double b_max, double reduced_temperature);

// chi on a grid of b in [0, b_max] and relative speeds g in [0, g_max], E = energy_per_g2 g^2,
// bilinear between the nodes (uniform in g: finer in E where chi changes fastest, at low E).
class DeflectionTable {
 public:
  DeflectionTable(const Potential& potential, double b_max, double g_max, double energy_per_g2,
                  int b_points, int g_points);
  double operator()(double b, double g) const;

 private:
  double b_max_, g_max_;
  int nb_, ng_;
  std::vector<double> chi_;  // [g][b]
};

}  // namespace bolt
