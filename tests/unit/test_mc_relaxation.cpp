// Homogeneous (0-D) relaxation under the Monte Carlo Boltzmann collision (paper 000's operator, no
// streaming): a gas at rest with n = 1, T = 1 and an anisotropic temperature tensor
// (T_xx, T_yy, T_zz, T_xy) = (1 + a, 1 - a, 1, 0.6 a), i.e. normal-stress difference and shear
// stress, relaxes towards the isotropic Maxwellian. Theory (units of docs/physics.md: rate in
// c0/L, p/mu = delta n T^(1 - omega) = delta here):
//  * Maxwell molecules (omega = 1): every stress component decays exactly as exp(-p t / mu)
//    (the second-moment equations close), whatever the state;
//  * hard spheres: the stress is not a single eigenmode of the linearised operator. A small
//    bi-Maxwellian anisotropy is its first Sonine term, so it starts to decay at the Rayleigh
//    quotient p / mu^(1), mu^(1) the first Chapman-Enskog viscosity: 0.562773 / 0.553892 = 1.01603
//    times p / mu with delta defined by the converged hard-sphere viscosity (collision_kernel.hpp).
//    Later the decay slows down a little (towards p / mu, the integral of the stress
//    autocorrelation is mu / p).
// The velocity grid adds a bias: the collision increments go to cell centres, not to the sampled
// velocities. It is second order in the cell width h: measured on uniform grids of [-3, 3]^3 it
// is 0.67 h^2 (Maxwell) and 0.47 h^2 (hard spheres) at N = 12 ... 32; Richardson extrapolation
// from N = 20 and 32 removes it (pairs from N = 16, 24, 32 extrapolate to within 0.002 of each
// other: that is the allowance left for the O(h^4) remainder).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "mc_helpers.hpp"
#include "physics/collision_kernel.hpp"

namespace bolt {
namespace {

constexpr double kHardSphereInitialRate = kHardSphereViscosity / kHardSphereViscosityFirstApprox;
constexpr double kHigherOrderAllowance = 0.002;

struct Anisotropic {
  VelocityGrid vg;
  McTables tables;
  std::vector<double> h0;
  double a;
};

Anisotropic anisotropic_state(int N, double half_width, double a) {
  Anisotropic s{test::mc_grid({N, N, N}, half_width), {}, {}, a};
  s.tables = make_mc_tables(s.vg);
  test::GasState g;
  g.T[0] = 1.0 + a;
  g.T[1] = 1.0 - a;
  g.Txy = 0.6 * a;
  s.h0 = test::deviation_row(s.vg, g, a);  // eps = a: h = O(1)
  return s;
}

// Normal-stress difference and shear of h (sum w Phi0 h (xi_x^2 - xi_y^2), sum w Phi0 h xi_x xi_y;
// the discrete Phi0 itself contributes nothing by the grid's symmetry) and the H-function
// sum w f ln f, f = Phi0 (1 + eps h) (velocities with f <= 0, MC noise in the far tails, skipped).
struct Observed {
  double normal = 0.0, shear = 0.0, H = 0.0;
};

Observed observe(const Anisotropic& s, const std::vector<double>& h) {
  Observed o;
  const VelocityGrid& vg = s.vg;
  for (int v = 0; v < vg.size(); ++v) {
    const double x = vg.xi[0][v], y = vg.xi[1][v], n = s.tables.number_weight[v];
    o.normal += n * h[v] * (x * x - y * y);
    o.shear += n * h[v] * x * y;
    const double f = n / vg.weight[v] * (1.0 + s.a * h[v]);
    if (f > 0.0) o.H += vg.weight[v] * f * std::log(f);
  }
  return o;
}

std::unique_ptr<McCollisionOperator> relaxation_operator(const Anisotropic& s, double omega,
                                                         int samples, double dt,
                                                         std::uint32_t seed,
                                                         double temperature = 1.0) {
  McConfig config = test::mc_config(s.vg, samples, dt, 1.0, omega, s.a);
  config.options.seed = seed;
  config.options.sampling_temperature = temperature;
  return make_mc_collision(config);
}

struct MeanAndError {
  double mean = 0.0, error = 0.0;  // mean of the values and its standard error
};

MeanAndError mean_and_error(const std::vector<double>& values) {
  MeanAndError m;
  for (double v : values) m.mean += v;
  m.mean /= values.size();
  double var = 0.0;
  for (double v : values) var += (v - m.mean) * (v - m.mean);
  m.error = std::sqrt(var / (values.size() - 1) / values.size());
  return m;
}

// One step from the exact anisotropic state, repeated with independent sample sets (steps 0, 1,
// ...): the mean change is dt times the discrete collision operator applied to h0, so
// -<dS> / (S0 dt) is the initial decay rate, free of time-step error. Both grids and both
// models use the same random numbers in each repeat (common random numbers), so the
// extrapolation and the comparison of the two models are much sharper than each value alone.
// `temperature`: of the Maxwellian v, v1 are drawn from (-mc_sampling_temperature).
void check_initial_stress_decay_rates(double temperature) {
  const int grids[2] = {30, 48};
  const double half_width = 4.5;
  const double omegas[2] = {1.0, 0.5};
  const int repeats = 200, samples = 16384;
  const double dt = 0.02, a = 0.005;
  Anisotropic states[2] = {anisotropic_state(grids[0], half_width, a),
                           anisotropic_state(grids[1], half_width, a)};
  std::unique_ptr<McCollisionOperator> ops[2][2];
  Observed start[2];
  for (int g = 0; g < 2; ++g) {
    start[g] = observe(states[g], states[g].h0);
    for (int m = 0; m < 2; ++m)
      ops[g][m] = relaxation_operator(states[g], omegas[m], samples, dt, 7u, temperature);
  }
  std::printf("  v, v1 drawn at temperature %.2f\n", temperature);
  const double h2[2] = {std::pow(2 * half_width / grids[0], 2), std::pow(2 * half_width / grids[1], 2)};
  // rate[m][component][g or 2 = extrapolated] per repeat
  std::vector<double> rate[2][2][3], dH[2];
  for (int r = 0; r < repeats; ++r)
    for (int m = 0; m < 2; ++m) {
      double q[2][2];
      for (int g = 0; g < 2; ++g) {
        ops[g][m]->draw(std::uint32_t(r));
        const Observed o = observe(states[g], ops[g][m]->collide(states[g].h0));
        q[0][g] = -(o.normal - start[g].normal) / (start[g].normal * dt);
        q[1][g] = -(o.shear - start[g].shear) / (start[g].shear * dt);
        if (g == 1) dH[m].push_back(o.H - start[g].H);
      }
      for (int c = 0; c < 2; ++c) {
        rate[m][c][0].push_back(q[c][0]);
        rate[m][c][1].push_back(q[c][1]);
        rate[m][c][2].push_back((h2[0] * q[c][1] - h2[1] * q[c][0]) / (h2[0] - h2[1]));
      }
    }
  const char* model[2] = {"Maxwell", "hard spheres"};
  const char* component[2] = {"Pxx-Pyy", "Pxy"};
  const double expected[2] = {1.0, kHardSphereInitialRate};
  MeanAndError extrapolated[2][2];
  for (int m = 0; m < 2; ++m)
    for (int c = 0; c < 2; ++c) {
      const MeanAndError n20 = mean_and_error(rate[m][c][0]), n32 = mean_and_error(rate[m][c][1]);
      const MeanAndError e = extrapolated[m][c] = mean_and_error(rate[m][c][2]);
      std::printf("  %-12s %-7s initial rate / (p/mu): h = 0.3 %.4f, h = 0.1875 %.4f (+-%.4f) -> "
                  "h^2 extrapolated %.4f +- %.4f, theory %.5f\n",
                  model[m], component[c], n20.mean, n32.mean, n32.error, e.mean, e.error,
                  expected[m]);
      EXPECT_LE(std::abs(e.mean - expected[m]), 4 * e.error + kHigherOrderAllowance)
          << model[m] << " " << component[c];
    }
  // The hard-sphere normalisation in one number: the two models differ by mu / mu^(1) - 1.
  std::vector<double> difference;
  for (int r = 0; r < repeats; ++r)
    difference.push_back(rate[1][0][2][r] - rate[0][0][2][r]);
  const MeanAndError d = mean_and_error(difference);
  std::printf("  hard spheres - Maxwell (Pxx-Pyy, extrapolated): %.4f +- %.4f, theory %.4f\n",
              d.mean, d.error, kHardSphereInitialRate - 1.0);
  EXPECT_LE(std::abs(d.mean - (kHardSphereInitialRate - 1.0)), 4 * d.error + kHigherOrderAllowance);
  // H-theorem, in expectation: one step lowers H (mean over the repeats, N = 32).
  for (int m = 0; m < 2; ++m) {
    const MeanAndError h = mean_and_error(dH[m]);
    const auto rises = std::count_if(dH[m].begin(), dH[m].end(), [](double x) { return x > 0.0; });
    std::printf("  %-12s one-step dH %.3e +- %.1e (%ld of %d single steps raise H: MC noise)\n",
                model[m], h.mean, h.error, long(rises), repeats);
    EXPECT_LT(h.mean, -5 * h.error) << model[m];
  }
}

TEST(McRelaxation, InitialStressDecayRateMatchesChapmanEnskogViscosity) {
  check_initial_stress_decay_rates(1.0);
}

// Drawing v, v1 from a wider Maxwellian with importance weights keeps the operator's mean: the
// same rates, the same H-theorem.
TEST(McRelaxation, WiderSamplingMaxwellianGivesTheSameRates) {
  check_initial_stress_decay_rates(1.3);
}

// Least-squares slope of ln|q| against t; returned as the rate of the explicit scheme's mode,
// (1 - exp(slope dt)) / dt (one Euler step multiplies a mode of rate lambda by 1 - lambda dt).
double fitted_rate(const std::vector<double>& t, const std::vector<double>& q, double dt) {
  double st = 0, sy = 0, stt = 0, sty = 0;
  const double m = double(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const double y = std::log(std::abs(q[i]));
    st += t[i];
    sy += y;
    stt += t[i] * t[i];
    sty += t[i] * y;
  }
  return (1.0 - std::exp((m * sty - st * sy) / (m * stt - st * st) * dt)) / dt;
}

// The whole relaxation, step after step (collisions + correction on the paper's box [-3, 3]^3,
// N = 20, N_t = 32768, dt = 0.05 p/mu, t = 0 .. 1, five seeds): the normal-stress difference
// decays exponentially at the rate the same operator shows at t = 0 (measured here as in the test
// above, 100 repeats). Tolerance: 4 standard errors of the 5-run mean, the scatter of one run
// measured over 12 seeds of this set-up: 1.3 % (Maxwell) and 3.3 % (hard spheres). The scatter
// is heavy-tailed (rare samples in far-tail cells, where N_t w Phi0 << 1, change h there by large
// factors: docs/physics.md), more so for the shear Pxy, which is printed, not asserted. Hard
// spheres also slow down, by up to mu / mu^(1) - 1 = 1.6 % (see the header; measured on 12
// seeds: 1.031 +- 0.010 against 1.049 at t = 0), allowed below the initial rate. H must end below
// its start in every run.
TEST(McRelaxation, AnisotropyDecaysExponentially) {
  const double a = 0.005, dt = 0.05;
  const int steps = 20, samples = 32768, seeds = 5;
  const Anisotropic s = anisotropic_state(20, 3.0, a);
  const Observed start = observe(s, s.h0);
  const double omegas[2] = {1.0, 0.5};
  const double tolerance[2] = {4 * 0.013 / std::sqrt(5.0), 4 * 0.033 / std::sqrt(5.0)};
  const char* model[2] = {"Maxwell", "hard spheres"};
  for (int m = 0; m < 2; ++m) {
    auto probe = relaxation_operator(s, omegas[m], 16384, dt, 11u);
    std::vector<double> initial;
    for (int r = 0; r < 100; ++r) {
      probe->draw(std::uint32_t(r));
      const Observed o = observe(s, probe->collide(s.h0));
      initial.push_back(-(o.normal - start.normal) / (start.normal * dt));
    }
    const MeanAndError r0 = mean_and_error(initial);
    std::vector<double> rates[2];
    for (int seed = 0; seed < seeds; ++seed) {
      auto op = relaxation_operator(s, omegas[m], samples, dt, 100u + seed);
      std::vector<double> h = s.h0, t, normal, shear;
      double worst_rise = 0.0, H_prev = start.H, H_end = start.H;
      for (int n = 0; n <= steps; ++n) {
        const Observed o = observe(s, h);
        t.push_back(n * dt);
        normal.push_back(o.normal);
        shear.push_back(o.shear);
        worst_rise = std::max(worst_rise, o.H - H_prev);
        H_prev = H_end = o.H;
        if (n == steps) break;
        op->draw(std::uint32_t(n));
        h = op->collide(h);
      }
      rates[0].push_back(fitted_rate(t, normal, dt));
      rates[1].push_back(fitted_rate(t, shear, dt));
      std::printf("  %-12s seed %d: rate / (p/mu) Pxx-Pyy %.4f Pxy %.4f; H %.7f -> %.7f, "
                  "largest one-step rise %.1e, rejected %.1e\n",
                  model[m], seed, rates[0].back(), rates[1].back(), start.H, H_end, worst_rise,
                  op->all_draws().fraction());
      EXPECT_LT(H_end, start.H) << model[m] << " seed " << seed;
    }
    for (int c = 0; c < 2; ++c) {
      const MeanAndError got = mean_and_error(rates[c]);
      std::printf("  %-12s %s: decay rate %.4f +- %.4f (mean of %d runs), initial rate %.4f +- "
                  "%.4f\n",
                  model[m], c == 0 ? "Pxx-Pyy" : "Pxy    ", got.mean, got.error, seeds, r0.mean,
                  r0.error);
    }
    const double got = mean_and_error(rates[0]).mean;
    const double slower = m == 1 ? kHardSphereInitialRate - 1.0 : 0.0;
    EXPECT_LE(got, r0.mean * (1.0 + tolerance[m]) + 4 * r0.error) << model[m];
    EXPECT_GE(got, r0.mean * (1.0 - tolerance[m] - slower) - 4 * r0.error) << model[m];
  }
}

}  // namespace
}  // namespace bolt
