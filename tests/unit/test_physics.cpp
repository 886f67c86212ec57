// Reference solutions (lib/physics/*): normal-shock jump conditions and the
// exact Riemann solver.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "physics/rankine_hugoniot.hpp"
#include "physics/riemann.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::kEps;

// The jump conditions are the statement that the equilibrium fluxes of mass,
// momentum and energy are the same on both sides: equal to a few ulps of the
// largest flux (bound 1e-13 relative, the formulas involve ~10 roundings of
// O(M^2) terms).
TEST(RankineHugoniot, EquilibriumFluxesMatch) {
  for (double mach : {1.0, 1.05, 1.5, 2.0, 3.0, 5.0, 10.0}) {
    const GasState up{0.7, mach * sound_speed(1.3), 1.3};
    const GasState down = rankine_hugoniot_downstream(mach, up);
    double a[3], b[3];
    equilibrium_fluxes(up, a);
    equilibrium_fluxes(down, b);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(a[k], b[k], 1e-13 * std::abs(a[k]))
          << "M=" << mach << " flux " << k;
    // Independent: the downstream Mach number of a gamma = 5/3 shock, M2^2 =
    // (M^2+3)/(5M^2-1), and the downstream flow is subsonic (entropy condition)
    // for M > 1.
    const double m2 = down.u / sound_speed(down.T);
    EXPECT_NEAR(m2 * m2, (mach * mach + 3.0) / (5.0 * mach * mach - 1.0),
                1e-13);
    if (mach > 1.0) {
      EXPECT_LT(m2, 1.0);
      EXPECT_GT(down.n, up.n);
      EXPECT_GT(down.T, up.T);
    }
  }
}

TEST(RankineHugoniot, MachOneIsNoJump) {
  const GasState up{1.0, sound_speed(1.0), 1.0};
  const GasState down = rankine_hugoniot_downstream(1.0, up);
  EXPECT_NEAR(down.n, up.n, 4 * kEps);
  EXPECT_NEAR(down.u, up.u, 4 * kEps);
  EXPECT_NEAR(down.T, up.T, 4 * kEps);
  // Strong-shock limit for gamma = 5/3: n2/n1 = 4 / (1 + 3/M^2) = 4 - 12/M^2 +
  // O(M^-4).
  const double M = 1e4;
  const GasState strong = rankine_hugoniot_downstream(M, up);
  EXPECT_NEAR(4.0 - strong.n / up.n, 12.0 / (M * M),
              1e-6 * 12.0 / (M * M) + 16 * kEps);
  EXPECT_THROW(rankine_hugoniot_downstream(0.9, up), Error);
}

const PrimitiveState kSodLeft{1.0, 0.0, 1.0}, kSodRight{0.125, 0.0, 0.1};

// gamma = 1.4: Toro's star state quoted to 14 digits in
// tests/refdata/sod_shock_tube.md; the Newton iteration stops at 1e-15
// relative, so 1e-12 relative is the last-digit bound.
TEST(Riemann, SodStarStateGamma14) {
  const RiemannStar s = solve_riemann(kSodLeft, kSodRight, 1.4);
  EXPECT_NEAR(s.p, 0.30313017805065, 1e-12);
  EXPECT_NEAR(s.u, 0.92745262004895, 1e-12);
  EXPECT_NEAR(s.rho_left, 0.42631942817850, 1e-12);
  // Quoted to 5 and 8 digits in the note (bisection solver computed there):
  // half a unit.
  EXPECT_NEAR(s.rho_right, 0.26557371, 5e-9);
  EXPECT_NEAR(s.shock_speed_right, 1.75215573, 5e-9);
}

// gamma = 5/3: the values computed in the reference note, quoted to 8 decimals:
// tolerance half a unit in the last place (5e-9).
TEST(Riemann, SodStarStateGamma53) {
  const RiemannStar s = solve_riemann(kSodLeft, kSodRight, 5.0 / 3.0);
  EXPECT_NEAR(s.p, 0.29394519, 5e-9);
  EXPECT_NEAR(s.u, 0.84119485, 5e-9);
  EXPECT_NEAR(s.rho_left, 0.47968906, 5e-9);
  EXPECT_NEAR(s.rho_right, 0.22980575, 5e-9);
  EXPECT_NEAR(s.shock_speed_right, 1.84447337, 5e-9);
}

// The right-moving shock must satisfy the Rankine-Hugoniot conditions in its
// own frame (mass and momentum flux continuity), an independent check of the
// star state and shock speed; and the sampled solution takes the right values
// in each region (rarefaction head/tail from the note).
TEST(Riemann, SodShockAndSamplingConsistent) {
  for (double gamma : {1.4, 5.0 / 3.0}) {
    const RiemannStar s = solve_riemann(kSodLeft, kSodRight, gamma);
    const double S = s.shock_speed_right;
    const double mass_r = kSodRight.rho * (kSodRight.u - S),
                 mass_s = s.rho_right * (s.u - S);
    EXPECT_NEAR(mass_r, mass_s, 1e-12) << gamma;
    const double mom_r = mass_r * (kSodRight.u - S) + kSodRight.p;
    const double mom_s = mass_s * (s.u - S) + s.p;
    EXPECT_NEAR(mom_r, mom_s, 1e-12) << gamma;
    // Regions.
    const double head = -std::sqrt(gamma * kSodLeft.p / kSodLeft.rho);
    auto at = [&](double x) {
      return sample_riemann(kSodLeft, kSodRight, gamma, s, x);
    };
    EXPECT_EQ(at(head - 0.01).rho, kSodLeft.rho);
    EXPECT_EQ(at(S + 0.01).rho, kSodRight.rho);
    EXPECT_NEAR(at(0.5 * (s.u + S)).rho, s.rho_right, 1e-14);
    EXPECT_NEAR(at(s.u - 1e-3).rho, s.rho_left, 1e-14);
    EXPECT_NEAR(at(s.u - 1e-3).p, s.p, 1e-14);
    // Inside the fan: isentropic, p / rho^gamma equals the left value; u -
    // 2a/(gamma-1) constant.
    const PrimitiveState fan = at(0.5 * head);
    const double a = std::sqrt(gamma * fan.p / fan.rho);
    EXPECT_NEAR(fan.p / std::pow(fan.rho, gamma), 1.0, 1e-12);
    EXPECT_NEAR(fan.u + 2.0 * a / (gamma - 1.0),
                2.0 * std::sqrt(gamma) / (gamma - 1.0), 1e-12);
  }
  // Rarefaction tail from the note, gamma = 1.4: u* - a*_L = -0.07027281.
  const RiemannStar s = solve_riemann(kSodLeft, kSodRight, 1.4);
  EXPECT_NEAR(s.u - std::sqrt(1.4 * s.p / s.rho_left), -0.07027281, 5e-9);
}

// A mirrored problem has the mirrored solution.
TEST(Riemann, MirrorSymmetry) {
  const PrimitiveState l{0.4, 0.3, 0.7}, r{1.1, -0.2, 1.4};
  const RiemannStar a = solve_riemann(l, r, 1.4);
  const RiemannStar b =
      solve_riemann({r.rho, -r.u, r.p}, {l.rho, -l.u, l.p}, 1.4);
  EXPECT_NEAR(a.p, b.p, 1e-13);
  EXPECT_NEAR(a.u, -b.u, 1e-13);
  EXPECT_NEAR(a.rho_left, b.rho_right, 1e-13);
  EXPECT_NEAR(a.rho_right, b.rho_left, 1e-13);
  EXPECT_THROW(solve_riemann({0.0, 0.0, 1.0}, r, 1.4), Error);
}

} // namespace
} // namespace bolt
