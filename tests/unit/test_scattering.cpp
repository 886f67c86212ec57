// Classical scattering (lib/physics/scattering.*), the projection method's Lennard-Jones gas:
//  * the deflection integral of a hard sphere is chi = 2 arccos b (b < 1) and 0 beyond: the
//    hard-sphere limit of the same routine that integrates the Lennard-Jones potential;
//  * Omega(2,2)* of the Lennard-Jones potential computed from the deflection angle (the
//    collision integral over b and E) matches the Monchick-Mason table within 1 % for
//    T* = 1 .. 10, with the impact parameter cut at 2.5 sigma as the projection method cuts it;
//  * the table of chi agrees with the direct integral between its nodes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "physics/scattering.hpp"

namespace bolt {
namespace {

TEST(Scattering, HardSphereLimit) {
  for (double energy : {0.1, 1.0, 30.0})
    for (double b = 0.0; b <= 1.6; b += 0.05) {
      const double expected = b < 1.0 ? 2.0 * std::acos(b) : 0.0;
      EXPECT_NEAR(deflection_angle(hard_sphere, b, energy), expected, 1e-10)
          << "b " << b << " E " << energy;
    }
}

TEST(Scattering, LennardJonesOmega22MatchesTheTable) {
  const auto chi = [](double b, double e) {
    return e > 0.0 ? deflection_angle(lennard_jones, b, e) : M_PI;
  };
  for (double t : {1.0, 2.5, 5.0, 10.0}) {
    const double computed = omega22_of_deflection(chi, 2.5, t), table = lennard_jones_omega22(t);
    std::printf("  T* = %5.2f: Omega(2,2)* from chi %.4f, table %.4f (%+.2f %%)\n", t, computed,
                table, 100.0 * (computed / table - 1.0));
    EXPECT_NEAR(computed, table, 0.01 * table) << "T* " << t;
  }
  // The table's own interpolation reproduces its nodes and lies between them.
  EXPECT_NEAR(lennard_jones_omega22(2.5), 1.0933, 1e-12);
  EXPECT_NEAR(lennard_jones_omega22(2.504), 1.0928, 2e-4);  // argon at 300 K, eps/k = 119.8 K
}

TEST(Scattering, TableFollowsTheIntegral) {
  // Relative speeds up to 7 c0 of argon at 300 K (T* = 2.504, E = T* g^2 / 2).
  const double per_g2 = 2.504 / 2.0;
  const DeflectionTable table(lennard_jones, 2.5, 7.0, per_g2, 201, 401);
  double worst = 0.0;
  for (double g : {0.9, 1.7, 3.3, 6.1})
    for (double b : {0.13, 0.71, 1.05, 1.93}) {
      const double direct = deflection_angle(lennard_jones, b, per_g2 * g * g);
      worst = std::max(worst, std::abs(table(b, g) - direct));
    }
  std::printf("  table vs integral: largest difference %.2e rad\n", worst);
  EXPECT_LE(worst, 0.02);
}

}  // namespace
}  // namespace bolt
