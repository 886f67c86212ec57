// Relaxation in a homogeneous gas (one cell, no boundaries, streaming is the
// identity), for the BGK, Shakhov and ES-BGK evaluators of
// kernels/relaxation/relaxation.hpp:
//  * one step against a plain reference implementation of the exact relaxation
//  written here
//    (target from the discrete moments, f_new = F + (f - F) exp(-nu dt));
//  * conservation: without the conservative option n, n u, energy change by the
//  discrete
//    quadrature error of the target only; with conservative_iterations = 3 to
//    round-off;
//  * rates: the anisotropic stress relaxes at p/mu = delta n T^(1-omega) for
//  all three models
//    (ES-BGK: nu_ES = Pr p/mu and the target keeps (1 - 1/Pr) of the
//    anisotropy, so the rate is nu_ES (1 - (1 - 1/Pr)) = nu_ES / Pr = p/mu);
//    the Shakhov heat flux relaxes at Pr p/mu.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "case/case_setup.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/relaxation/relaxation.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::bimaxwellian_options;
using test::kEps;
using test::RelaxationKind;

// The initial state of `run` as one vector (cell-major, velocity fastest), from its rows.
std::vector<double> initial_distribution(const RunOptions &run, const PhysicalGrid &grid,
                                         const VelocityGrid &vg, int lo, int count) {
  const StateRows rows = initial_state_rows(run, grid, vg, lo, count);
  std::vector<double> f(std::size_t(grid.interior_cells()) * count);
  for (std::int64_t cell = 0; cell < grid.interior_cells(); ++cell)
    rows(cell, f.data() + cell * count);
  return f;
}

// Full discrete moments of a row, in long double: n, u, T, P (central, xx yy zz
// xy xz yz), q.
struct Moments {
  double n, u[3], T, P[6], q[3];
  double mass, momentum[3], energy; // raw: sum w f {1, xi, |xi|^2}
};

constexpr int kPair[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};

Moments moments(const VelocityGrid &vg, const std::vector<double> &f) {
  const test::RowMoments r = test::row_moments(vg, f.data());
  Moments m{};
  m.n = r.n;
  m.T = r.T;
  m.mass = r.mass;
  m.energy = r.energy;
  for (int a = 0; a < 3; ++a) {
    m.u[a] = r.u[a];
    m.momentum[a] = r.momentum[a];
  }
  long double P[6] = {0, 0, 0, 0, 0, 0}, q[3] = {0, 0, 0};
  for (int v = 0; v < vg.size(); ++v) {
    const long double wf = (long double)vg.weight[v] * f[v];
    long double c[3], c2 = 0;
    for (int a = 0; a < 3; ++a) {
      c[a] = vg.xi[a][v] - (long double)m.u[a];
      c2 += c[a] * c[a];
    }
    for (int k = 0; k < 6; ++k)
      P[k] += wf * c[kPair[k][0]] * c[kPair[k][1]];
    for (int a = 0; a < 3; ++a)
      q[a] += wf * c[a] * c2;
  }
  for (int k = 0; k < 6; ++k)
    m.P[k] = double(P[k]);
  for (int a = 0; a < 3; ++a)
    m.q[a] = double(q[a]);
  return m;
}

// The relaxation target of each model from the definitions in DESIGN.md (bolt
// units).
std::vector<double> analytic_target(RelaxationKind model, const VelocityGrid &vg,
                                    const Moments &m, double prandtl) {
  std::vector<double> F(vg.size());
  if (model == RelaxationKind::esbgk) {
    // lambda = (1/Pr)(T/2) I + (1 - 1/Pr) P/n; F = n (2 pi)^(-3/2) det^(-1/2)
    // exp(-c.lambda^-1.c/2)
    double lam[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        lam[i][j] = (i == j ? 0.5 * m.T / prandtl : 0.0);
    for (int k = 0; k < 6; ++k) {
      const int i = kPair[k][0], j = kPair[k][1];
      lam[i][j] += (1.0 - 1.0 / prandtl) * m.P[k] / m.n;
      if (i != j)
        lam[j][i] = lam[i][j];
    }
    const double det =
        lam[0][0] * (lam[1][1] * lam[2][2] - lam[1][2] * lam[2][1]) -
        lam[0][1] * (lam[1][0] * lam[2][2] - lam[1][2] * lam[2][0]) +
        lam[0][2] * (lam[1][0] * lam[2][1] - lam[1][1] * lam[2][0]);
    double inv[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3,
                  j2 = (i + 2) % 3;
        inv[i][j] =
            (lam[i1][j1] * lam[i2][j2] - lam[i1][j2] * lam[i2][j1]) / det;
      }
    const double a = m.n / std::sqrt(std::pow(2.0 * M_PI, 3) * det);
    for (int v = 0; v < vg.size(); ++v) {
      double c[3], Q = 0.0;
      for (int i = 0; i < 3; ++i)
        c[i] = vg.xi[i][v] - m.u[i];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          Q += c[i] * inv[i][j] * c[j];
      F[v] = a * std::exp(-0.5 * Q);
    }
    return F;
  }
  const std::vector<double> fm = test::maxwellian_row(vg, m.n, m.u, m.T);
  for (int v = 0; v < vg.size(); ++v) {
    F[v] = fm[v];
    if (model == RelaxationKind::shakhov) {
      double cq = 0.0, c2 = 0.0;
      for (int i = 0; i < 3; ++i) {
        const double c = vg.xi[i][v] - m.u[i];
        cq += c * m.q[i];
        c2 += c * c;
      }
      F[v] *= 1.0 + (1.0 - prandtl) * 2.0 * cq / (5.0 * m.n * m.T * m.T) *
                        (2.0 * c2 / m.T - 5.0);
    }
  }
  return F;
}

// The default target: the analytic one scaled to the row's discrete mass
// (kernels/relaxation/, docs/physics.md).
std::vector<double> reference_target(RelaxationKind model, const VelocityGrid &vg,
                                     const Moments &m, double prandtl) {
  std::vector<double> F = analytic_target(model, vg, m, prandtl);
  double mass = 0.0;
  for (int v = 0; v < vg.size(); ++v)
    mass += vg.weight[v] * F[v];
  for (double &value : F)
    value *= m.n / mass;
  return F;
}

double collision_frequency(RelaxationKind model, double prandtl, const GasParams &gas,
                           double n, double T) {
  return (model == RelaxationKind::esbgk ? prandtl : 1.0) * gas.delta * n *
         std::pow(T, 1.0 - gas.omega);
}

VelocityGrid cube_grid(int N, double half_width) {
  VelocityGridSpec spec;
  spec.nodes = {N, N, N};
  spec.half_width = half_width;
  return make_cartesian_velocity_grid(spec);
}

const RelaxationKind kModels[3] = {RelaxationKind::bgk, RelaxationKind::shakhov,
                              RelaxationKind::esbgk};

// One step of the engine equals the reference relaxation, elementwise, to
// round-off: the exp() arguments are at most ~ 20 and computed in a different
// order, so allow 64 eps relative to the largest of |f|, |F|.
// The sweep's compact target, in f's precision, evaluates to the very values of the full target
// (a Shakhov factor and, for ES-BGK, an anisotropic quadratic form included); on a reduced set
// (`reduced`: Velocities::reduced) at g and h nodes alike, the full target reduced as the
// explicit step reduces it (Relaxation::reduce: the h factor, the Shakhov factor's shift).
template <class Real, RelaxationKind Kind>
void expect_compact_target_equal(unsigned reduced = 0) {
  RelaxationTarget t{};
  const double u[3] = {0.3, -0.2, 0.1};
  t.gauss = maxwellian_gaussian(1.3, u, 0.9);
  if (Kind == RelaxationKind::esbgk) {
    const double L[6] = {1.2, 0.9, 1.1, 0.1, -0.05, 0.07};
    for (int k = 0; k < 6; ++k) t.gauss.L[k] = L[k];
  }
  const double s[3] = {0.02, -0.01, 0.03};
  for (int i = 0; i < 3; ++i) {
    t.shakhov.u0[i] = u[i];
    t.shakhov.s[i] = Kind == RelaxationKind::shakhov ? s[i] : 0.0;
  }
  t.shakhov.inv_T = 1.0 / 0.9;
  using Relax = Relaxation<Real, test::RelaxationEvaluator<Kind>, false>;
  if (reduced != 0) {  // a reduced set's gas has no velocity or shear along the reduced axes
    for (int a = 0; a < 3; ++a)
      if ((reduced >> a) & 1u) {
        t.gauss.u[a] = t.shakhov.u0[a] = t.shakhov.s[a] = 0.0;
        for (int b = 0; b < 3; ++b)
          if (b != a) t.gauss.L[m2_index(a, b)] = 0.0;
      }
    Relax::reduce(t, reduced);
  }
  std::vector<Real> x, y, z, w, h;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 6; ++k)
        for (int node = 0; node < (reduced ? 2 : 1); ++node) {  // g, h
          const double at[3] = {-2.5 + 0.8 * i, -1.9 + 0.9 * j, -2.2 + 0.85 * k};
          x.push_back(Real(reduced & 1u ? 0.0 : at[0]));
          y.push_back(Real(reduced & 2u ? 0.0 : at[1]));
          z.push_back(Real(reduced & 4u ? 0.0 : at[2]));
          w.push_back(Real(node == 0 ? 1 : 0));
          h.push_back(Real(node == 1 ? 1 : 0));
        }
  const int n = int(x.size());
  Velocities<Real> vel{x.data(), y.data(), z.data(), w.data(), n, n};
  if (reduced != 0) {
    vel.h = h.data();
    vel.reduced = reduced;
  }
  const Relax relax{};
  const CompactTarget<Real> compact = relax.compact(t);
  for (int v = 0; v < n; ++v)
    EXPECT_EQ(relax.equilibrium(t, vel, v),
              relax.equilibrium(compact, x[v], y[v], z[v], compact_node(vel, v)))
        << test::name(Kind) << " velocity " << v << " reduced " << reduced;
}

TEST(Relaxation, CompactTargetEqualsTheFullTarget) {
  expect_compact_target_equal<double, RelaxationKind::bgk>();
  expect_compact_target_equal<double, RelaxationKind::shakhov>();
  expect_compact_target_equal<double, RelaxationKind::esbgk>();
  expect_compact_target_equal<float, RelaxationKind::bgk>();
  expect_compact_target_equal<float, RelaxationKind::shakhov>();
  expect_compact_target_equal<float, RelaxationKind::esbgk>();
}

TEST(Relaxation, CompactTargetEqualsTheFullTargetOnReducedSets) {
  for (unsigned reduced : {4u, 6u}) {  // 2V (xi_z), 1V (xi_y and xi_z)
    expect_compact_target_equal<double, RelaxationKind::bgk>(reduced);
    expect_compact_target_equal<double, RelaxationKind::shakhov>(reduced);
    expect_compact_target_equal<double, RelaxationKind::esbgk>(reduced);
    expect_compact_target_equal<float, RelaxationKind::shakhov>(reduced);
    expect_compact_target_equal<float, RelaxationKind::esbgk>(reduced);
  }
}

TEST(Relaxation, OneStepMatchesReference) {
  const VelocityGrid vg = cube_grid(10, 5.0);
  const PhysicalGrid grid = test::homogeneous_grid();
  const std::vector<double> f0 =
      initial_distribution(bimaxwellian_options(), grid, vg, 0, vg.size());
  for (RelaxationKind model : kModels) {
    EngineConfig config = test::cpu_config(grid, vg, model, 0.3);
    config.gas.delta = 1.3;
    config.gas.omega = 0.81;
    const double prandtl = RelaxationOptions{}.prandtl;
    auto engine = make_engine(config);
    engine->set_state(f0);
    engine->step(1);
    const std::vector<double> f1 = engine->state();
    const Moments m = moments(vg, f0);
    const std::vector<double> F =
        reference_target(model, vg, m, prandtl);
    const double decay =
        std::exp(-collision_frequency(model, prandtl, config.gas, m.n, m.T) * config.dt);
    double scale = 0.0, worst = 0.0;
    for (int v = 0; v < vg.size(); ++v)
      scale = std::max({scale, std::abs(f0[v]), std::abs(F[v])});
    for (int v = 0; v < vg.size(); ++v)
      worst =
          std::max(worst, std::abs(f1[v] - (F[v] + (f0[v] - F[v]) * decay)));
    EXPECT_LE(worst, 64 * kEps * scale) << test::name(model);
  }
}

struct ConservationErrors {
  double n, momentum, energy; // relative: |dn|/n, |d(n u)|/(n sqrt(T)), |dE|/E
};

ConservationErrors
run_conservation(RelaxationKind model, int iterations, const VelocityGrid &vg,
                 int steps, const RunOptions &run = bimaxwellian_options()) {
  const PhysicalGrid grid = test::homogeneous_grid();
  const std::vector<double> f0 = initial_distribution(run, grid, vg, 0, vg.size());
  RelaxationOptions options;
  options.conservative_iterations = iterations;
  EngineConfig config = test::cpu_config(grid, vg, test::relaxation_model(model, options), 0.5);
  config.gas.delta = 1.0;
  auto engine = make_engine(config);
  engine->set_state(f0);
  engine->step(steps);
  const Moments a = moments(vg, f0), b = moments(vg, engine->state());
  ConservationErrors e{std::abs(b.mass - a.mass) / a.mass, 0.0,
                       std::abs(b.energy - a.energy) / a.energy};
  for (int i = 0; i < 3; ++i)
    e.momentum = std::max(e.momentum, std::abs(b.momentum[i] - a.momentum[i]) /
                                          (a.mass * std::sqrt(a.T)));
  return e;
}

// Coarse grid (8^3 on [-4, 4], h = 1): the discrete Maxwellian misses its
// moments by ~1e-3, so the non-conservative relaxation visibly changes n, n u,
// E. With the conservative target (3 Newton steps: quadratic convergence from a
// 1e-3 start reaches round-off) the changes are round-off: bound 64 eps per
// step (sums of 512 terms, each O(1) relative).
void check_conservation(RelaxationKind model, const RunOptions &run,
                        const char *label) {
  const VelocityGrid vg = cube_grid(8, 4.0);
  const int steps = 10;
  const double roundoff = steps * 64 * kEps;
  const ConservationErrors plain = run_conservation(model, 0, vg, steps, run);
  const ConservationErrors cons = run_conservation(model, 3, vg, steps, run);
  std::printf(
      "  %-8s %-22s %d steps, 8^3 grid: plain dn=%.2e d(nu)=%.2e dE=%.2e | "
      "conservative dn=%.2e d(nu)=%.2e dE=%.2e\n",
      test::name(model), label, steps, plain.n, plain.momentum, plain.energy,
      cons.n, cons.momentum, cons.energy);
  const std::string tag = std::string(test::name(model)) + "_";
  ::testing::Test::RecordProperty(tag + "plain_dn", std::to_string(plain.n));
  ::testing::Test::RecordProperty(tag + "plain_dE",
                                  std::to_string(plain.energy));
  ::testing::Test::RecordProperty(tag + "conservative_dn",
                                  std::to_string(cons.n));
  ::testing::Test::RecordProperty(tag + "conservative_dE",
                                  std::to_string(cons.energy));
  // Without the option the error is the quadrature error: far above round-off,
  // below 1e-2.
  EXPECT_GT(std::max({plain.n, plain.momentum, plain.energy}), 1e3 * roundoff);
  EXPECT_LT(std::max({plain.n, plain.momentum, plain.energy}), 1e-2);
  EXPECT_LE(cons.n, roundoff) << test::name(model) << " " << label;
  EXPECT_LE(cons.momentum, roundoff) << test::name(model) << " " << label;
  EXPECT_LE(cons.energy, roundoff) << test::name(model) << " " << label;
}

TEST(Relaxation, ConservativeEquilibriumConservesBgkAndEsbgk) {
  check_conservation(RelaxationKind::bgk, bimaxwellian_options(),
                     "drifting bi-Maxwellian");
  check_conservation(RelaxationKind::esbgk, bimaxwellian_options(),
                     "drifting bi-Maxwellian");
}

// Shakhov with zero heat flux (one anisotropic Maxwellian at rest: q = 0 by the
// grid's symmetry) has the BGK target, which the Newton step makes
// conservative.
TEST(Relaxation, ConservativeEquilibriumConservesShakhovWithoutHeatFlux) {
  RunOptions run = bimaxwellian_options();
  run.initial.velocity[0] = 0.0;
  run.initial.second_density = 0.0;
  check_conservation(RelaxationKind::shakhov, run, "anisotropic, q = 0");
}

// Shakhov with a heat flux: the target is G [1 + (c.s)(2c^2/T - 5)], and the
// correction term has zero moments {1, xi, |xi|^2} only in the continuum; on
// the grid its sums are of the size of the quadrature error times |s|. The
// Newton step matches the moments of G alone (kernels/relaxation/relaxation.hpp:
// make_conservative is applied to t.gauss before the Shakhov factor), so
// conservation should still hold to round-off for the whole target. FAILS at
// present (see the report): dn ~ 1e-4 over 10 steps, ~10x smaller than without
// the option but far from round-off.
TEST(Relaxation, ConservativeEquilibriumConservesShakhovWithHeatFlux) {
  check_conservation(RelaxationKind::shakhov, bimaxwellian_options(),
                     "drifting bi-Maxwellian");
}

// Centre-stretched velocity grids have a discrete-Maxwellian error ~ 1e-2
// (midpoint rule on graded cells, see test_velocity_grid.cpp), so Newton starts
// further away: quadratic convergence 1e-2 -> 1e-4 -> 1e-8 -> 1e-16 needs all 3
// iterations. Asserted on 12^3 (ratio 0.85): round-off (64 eps per step) with 3
// iterations. Printed for information: 8^3, where 3 iterations leave ~2e-14 per
// step and 4 reach round-off.
TEST(Relaxation, ConservativeEquilibriumOnStretchedVelocityGrid) {
  const int steps = 10;
  for (int N : {8, 12}) {
    VelocityGridSpec spec;
    spec.nodes = {N, N, N};
    spec.half_width = 4.0;
    spec.ratio = 0.85;
    const VelocityGrid vg = make_cartesian_velocity_grid(spec);
    for (RelaxationKind model : {RelaxationKind::bgk, RelaxationKind::esbgk}) {
      for (int iterations : {0, 3, 4}) {
        const ConservationErrors e =
            run_conservation(model, iterations, vg, steps);
        std::printf("  stretched %2d^3 %-6s %d Newton steps: dn=%.2e "
                    "d(nu)=%.2e dE=%.2e\n",
                    N, test::name(model), iterations, e.n, e.momentum, e.energy);
        if (N == 12 && iterations == 3) {
          EXPECT_LE(std::max({e.n, e.momentum, e.energy}), steps * 64 * kEps)
              << test::name(model);
        }
      }
    }
  }
}

// Quadrature error of the second moments of a discrete Maxwellian with the
// given state on this grid, relative to p/2 = n T / 2: the size of the target's
// own anisotropy that the discrete sums leave behind, which bounds the
// deviation of a measured decay factor from the exact one.
double second_moment_quadrature_error(const VelocityGrid &vg, double n,
                                      const double u[3], double T) {
  const Moments m = moments(vg, test::maxwellian_row(vg, n, u, T));
  double worst = 0.0;
  for (int k = 0; k < 6; ++k)
    worst = std::max(worst, std::abs(m.P[k] - (k < 3 ? 0.5 * n * T : 0.0)) /
                                (0.5 * n * T));
  return worst;
}

// Field indices (kernels/cell_moments.hpp).
constexpr int kN_ = 0, kT_ = 4, kPxx_ = 5, kPyy_ = 6, kPxy_ = 8, kQx_ = 11;

struct RateResult {
  double measured_rate, expected_continuum_rate, worst_step_deviation;
};

// Runs `steps` steps and compares the measured per-step factor of `quantity` (a
// function of the fields) with the per-step factor `expected_factor(nu dt)` of
// the exact relaxation; returns the mean measured rate and the mean continuum
// rate `rate_factor * nu`.
template <class Quantity, class Factor>
RateResult measure_rate(RelaxationKind model, const VelocityGrid &vg, double dt,
                        int steps, Quantity quantity, Factor expected_factor,
                        double rate_factor, double tolerance_scale) {
  const PhysicalGrid grid = test::homogeneous_grid();
  EngineConfig config = test::cpu_config(grid, vg, model, dt);
  config.gas.delta = 1.3;
  config.gas.omega = 0.81;
  auto engine = make_engine(config);
  engine->set_state(initial_distribution(bimaxwellian_options(), grid, vg, 0, vg.size()));
  std::vector<double> fields = engine->fields();
  const double first = quantity(fields);
  double previous = first, nu_sum = 0.0, worst = 0.0;
  for (int s = 0; s < steps; ++s) {
    // nu of the bare model (p/mu); the ES-BGK evaluator multiplies by Pr
    // itself.
    const double nu = config.gas.delta * fields[kN_] *
                      std::pow(fields[kT_], 1.0 - config.gas.omega);
    nu_sum += nu;
    engine->step(1);
    fields = engine->fields();
    const double now = quantity(fields);
    const double deviation =
        std::abs(now / previous - expected_factor(nu * dt));
    // Deviation bound: the target's spurious part, quadrature error x p/2, over
    // |quantity|.
    EXPECT_LE(deviation, tolerance_scale / std::abs(previous))
        << test::name(model) << " step " << s;
    worst = std::max(worst, deviation);
    previous = now;
  }
  return {-std::log(previous / first) / (steps * dt),
          rate_factor * nu_sum / steps, worst};
}

// nu dt = 0.1 per step, 10 steps, fine grid (24^3 on [-6, 6], h = 0.5:
// quadrature ~1e-12).
TEST(Relaxation, StressRelaxesAtPOverMu) {
  const VelocityGrid vg = cube_grid(24, 6.0);
  const double u[3] = {0.2, -0.06, 0.0};
  const double eq =
      second_moment_quadrature_error(vg, 1.0, u, 0.7); // smallest T of the mix
  // Per-step tolerance: 10 x (quadrature + 64 eps round-off) x p/2 (p/2 ~ 0.5),
  // over |quantity|.
  const double scale = 10.0 * (eq + 64 * kEps) * 0.5;
  std::printf("  second-moment quadrature error on 24^3 grid: %.2e\n", eq);
  const double dt = 0.1 / 1.3; // nu ~ delta n T^(1-omega) ~ 1.3
  const int steps = 10;
  const double Pr = 2.0 / 3.0;
  for (RelaxationKind model : kModels) {
    // Per-step factor of the exact relaxation with a frozen target:
    //   BGK, Shakhov: e^{-x};  ES-BGK: 1 - (1/Pr)(1 - e^{-Pr x})   (x = p/mu
    //   dt).
    auto factor = [&](double x) {
      return model == RelaxationKind::esbgk ? 1.0 - (1.0 - std::exp(-Pr * x)) / Pr
                                       : std::exp(-x);
    };
    auto normal_difference = [](const std::vector<double> &f) {
      return f[kPxx_] - f[kPyy_];
    };
    auto shear = [](const std::vector<double> &f) { return f[kPxy_]; };
    for (int which = 0; which < 2; ++which) {
      const RateResult r =
          which == 0
              ? measure_rate(model, vg, dt, steps, normal_difference, factor,
                             1.0, scale)
              : measure_rate(model, vg, dt, steps, shear, factor, 1.0, scale);
      // Continuum rate p/mu. BGK/Shakhov: exact per step. ES-BGK: the
      // frozen-target step has rate p/mu (1 + (1 - Pr) x / 2 + O(x^2)); allow
      // that, with 20% margin on the O(x) term.
      const double x = 0.1;
      const double allowed =
          model == RelaxationKind::esbgk ? 1.2 * (1.0 - Pr) * x / 2.0 : 1e-9;
      const double rel = r.measured_rate / r.expected_continuum_rate - 1.0;
      std::printf("  %-8s %s: measured rate %.10f, p/mu %.10f, rel diff %+.2e, "
                  "worst step "
                  "deviation %.1e\n",
                  test::name(model), which == 0 ? "Pxx-Pyy" : "Pxy    ",
                  r.measured_rate, r.expected_continuum_rate, rel,
                  r.worst_step_deviation);
      EXPECT_LE(std::abs(rel), allowed) << test::name(model);
    }
  }
}

// Shakhov heat flux: the target keeps (1 - Pr) q, so the per-step factor is
// 1 - Pr (1 - e^{-x}), continuum rate Pr p/mu (1 - (1 - Pr) x / 2 + O(x^2)).
// BGK: q decays at p/mu (factor e^{-x}: the Maxwellian target has no heat
// flux).
TEST(Relaxation, ShakhovHeatFluxRelaxesAtPrandtlTimesPOverMu) {
  const VelocityGrid vg = cube_grid(24, 6.0);
  const double u[3] = {0.2, -0.06, 0.0};
  const double eq = second_moment_quadrature_error(vg, 1.0, u, 0.7);
  // Heat flux scale of the quadrature error: ~ p/2 * sqrt(T) * (quadrature
  // error); same form.
  const double scale = 10.0 * (eq + 64 * kEps) * 0.5;
  const double dt = 0.1 / 1.3, Pr = 2.0 / 3.0, x = 0.1;
  const int steps = 10;
  auto qx = [](const std::vector<double> &f) { return f[kQx_]; };
  const RateResult shakhov = measure_rate(
      RelaxationKind::shakhov, vg, dt, steps, qx,
      [&](double y) { return 1.0 - Pr * (1.0 - std::exp(-y)); }, Pr, scale);
  const double rel =
      shakhov.measured_rate / shakhov.expected_continuum_rate - 1.0;
  std::printf("  shakhov  qx: measured rate %.10f, Pr p/mu %.10f, rel diff "
              "%+.2e (O(x) term "
              "-(1-Pr)x/2 = %.2e), worst step deviation %.1e\n",
              shakhov.measured_rate, shakhov.expected_continuum_rate, rel,
              -(1 - Pr) * x / 2, shakhov.worst_step_deviation);
  EXPECT_LE(std::abs(rel), 1.2 * (1.0 - Pr) * x / 2.0);
  EXPECT_LT(rel, 0.0); // the sign of the O(x) term
  const RateResult bgk = measure_rate(
      RelaxationKind::bgk, vg, dt, steps, qx, [](double y) { return std::exp(-y); },
      1.0, scale);
  std::printf("  bgk      qx: measured rate %.10f, p/mu %.10f\n",
              bgk.measured_rate, bgk.expected_continuum_rate);
  EXPECT_NEAR(bgk.measured_rate / bgk.expected_continuum_rate, 1.0, 1e-9);
}

} // namespace
} // namespace bolt
