// The reduced velocity sets of the Chu reduction (lib/grid/velocity_grid.hpp, docs/physics.md):
// two functions per kept node, g = int f dxi_r and h = int |xi_r|^2 f dxi_r, relaxed by the
// same engine as the full set.
//  * The reduced target is the marginal of the full one: a full 3-D set whose reduced axes are
//    fine (the midpoint rule on a Gaussian errs by ~exp(-pi^2 T / h^2): round-off here) relaxes
//    a drifting bi-Maxwellian to its target in one step (nu dt = 50); summing that target along
//    the reduced axes against 1 and |xi_r|^2 gives the reduced run's g and h, node by node, for
//    BGK, Shakhov and ES-BGK, in 2V and 1V, with and without a body force along a kept axis.
//  * Homogeneous relaxation on the reduced sets keeps mass, momentum and energy to round-off
//    (kept axes fine enough that the quadrature error of the target is below round-off).
//  * The stress relaxes at p/mu and the Shakhov heat flux at Pr p/mu per step exactly as in the
//    3-D tests (test_relaxation.cpp).
//  * A velocity's g and h nodes summed together (the GPU's accumulate_pair) give the nodes' sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "case/case_setup.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/relaxation/bgk.hpp"
#include "kernels/relaxation/esbgk.hpp"
#include "kernels/relaxation/shakhov.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::kEps;
using test::RelaxationKind;

const RelaxationKind kModels[3] = {RelaxationKind::bgk, RelaxationKind::shakhov,
                                   RelaxationKind::esbgk};

// The test suite's drifting anisotropic bi-Maxwellian, with no velocity along the reduced axes
// (`reduced`): stresses and heat flux along the kept axes.
RunOptions bimaxwellian(std::array<bool, 3> reduced) {
  return test::bimaxwellian_options(!reduced[1]);
}

VelocityGridSpec box(int n, double half_width) {
  VelocityGridSpec spec;
  spec.nodes = {n, n, n};
  spec.half_width = half_width;
  return spec;
}

std::vector<double> initial_row(const RunOptions& run, const VelocityGrid& vg) {
  const PhysicalGrid grid = test::homogeneous_grid();
  std::vector<double> f(vg.size());
  initial_state_rows(run, grid, vg, 0, vg.size())(0, f.data());
  return f;
}

struct Case {
  RelaxationKind model;
  std::array<bool, 3> reduced;
  double force_x;
};

// One step of the engine from the bi-Maxwellian.
std::vector<double> one_step(const Case& c, const VelocityGrid& vg, double delta, double dt) {
  const PhysicalGrid grid = test::homogeneous_grid();
  RelaxationOptions options;
  options.force[0] = c.force_x;
  EngineConfig config =
      test::cpu_config(grid, vg, test::relaxation_model(c.model, options), dt);
  config.gas.delta = delta;
  config.gas.omega = 0.81;
  auto engine = make_engine(config);
  engine->set_state(initial_row(bimaxwellian(c.reduced), vg));
  engine->step(1);
  return engine->state();
}

// g and h of a full-set row at the kept node (i, j, k) (reduced axes' indices ignored).
void marginal(const VelocityGrid& full, const std::vector<double>& f,
              const std::array<bool, 3>& reduced, std::vector<double>& g,
              std::vector<double>& h, const VelocityGrid& kept) {
  g.assign(kept.size() / 2, 0.0);
  h.assign(kept.size() / 2, 0.0);
  // kept node k of the reduced set by its kept-axis indices
  std::vector<int> of(full.axes[0].cells() * full.axes[1].cells() * full.axes[2].cells(), -1);
  const auto key = [&](int v, const VelocityGrid& vg) {
    int idx[3];
    for (int a = 0; a < 3; ++a) idx[a] = reduced[a] ? 0 : vg.node[a][v];
    return idx[0] + full.axes[0].cells() * (idx[1] + full.axes[1].cells() * idx[2]);
  };
  for (int v = 0; v < kept.size(); v += 2) of[key(v, kept)] = v / 2;
  for (int v = 0; v < full.size(); ++v) {
    double w = 1.0, r2 = 0.0;
    for (int a = 0; a < 3; ++a)
      if (reduced[a]) {
        w *= full.axes[a].widths[full.node[a][v]];
        r2 += full.xi[a][v] * full.xi[a][v];
      }
    const int k = of[key(v, full)];
    g[k] += w * f[v];
    h[k] += w * r2 * f[v];
  }
}

// The reduced set's target equals the marginal of the full set's, node by node.
TEST(ReducedVelocities, TargetIsTheMarginalOfTheFullTarget) {
  const std::array<bool, 3> reductions[2] = {{false, false, true}, {false, true, true}};
  for (const auto& reduced : reductions)
    for (RelaxationKind model : kModels)
      for (double force : {0.0, 0.4}) {
        const Case c{model, reduced, force};
        // Kept axes: 14 nodes on [-7, 7]; the full set's reduced axes: 56 (width 0.25).
        VelocityGridSpec spec = box(14, 7.0);
        const VelocityGrid kept = make_reduced_velocity_grid(spec, reduced);
        for (int a = 0; a < 3; ++a)
          if (reduced[a]) spec.nodes[a] = 56;
        const VelocityGrid full = make_cartesian_velocity_grid(spec);
        // nu dt = delta dt n T^(1-omega) ~ 50: the step lands on the target (exp(-50)).
        const double delta = 1000.0, dt = 0.05;
        std::vector<double> g0, h0, g1, h1;
        marginal(full, initial_row(bimaxwellian(reduced), full), reduced, g0, h0, kept);
        marginal(full, one_step(c, full, delta, dt), reduced, g1, h1, kept);
        const std::vector<double> r0 = initial_row(bimaxwellian(reduced), kept);
        const std::vector<double> r1 = one_step(c, kept, delta, dt);
        double scale = 0.0, initial = 0.0, stepped = 0.0;
        for (std::size_t k = 0; k < g1.size(); ++k) scale = std::max(scale, std::abs(g1[k]));
        for (std::size_t k = 0; k < g1.size(); ++k) {
          initial = std::max({initial, std::abs(r0[2 * k] - g0[k]), std::abs(r0[2 * k + 1] - h0[k])});
          stepped = std::max({stepped, std::abs(r1[2 * k] - g1[k]), std::abs(r1[2 * k + 1] - h1[k])});
        }
        std::printf("  %-7s reduced %-2s force %.1f: initial %.1e, target %.1e (of max g %.2f)\n",
                    test::name(model), reduction_name(reduced).c_str(), force, initial / scale,
                    stepped / scale, scale);
        EXPECT_LE(initial, 1e-13 * scale) << test::name(model) << " " << reduction_name(reduced);
        EXPECT_LE(stepped, 1e-12 * scale) << test::name(model) << " " << reduction_name(reduced);
      }
}

// Mass, momentum and energy of a reduced row, summed in long double with the h nodes.
std::array<double, 5> conserved(const VelocityGrid& vg, const std::vector<double>& f) {
  long double s[5] = {0, 0, 0, 0, 0};
  for (int v = 0; v < vg.size(); ++v) {
    const long double wf = (long double)vg.weight[v] * f[v];
    long double xi2 = 0;
    for (int a = 0; a < 3; ++a) {
      s[1 + a] += wf * vg.xi[a][v];
      xi2 += (long double)vg.xi[a][v] * vg.xi[a][v];
    }
    s[0] += wf;
    s[4] += wf * xi2 + (long double)vg.h_weight_of(v) * f[v];
  }
  return {double(s[0]), double(s[1]), double(s[2]), double(s[3]), double(s[4])};
}

// Kept axes of 48 nodes on [-8, 8] (width 1/3): the midpoint rule on the target's Gaussians errs
// by ~exp(-pi^2 T / h^2) < 1e-26 and the box cuts off < 1e-20, so the default (mass-scaled)
// target has f's momentum and energy to round-off. Bound: 64 eps per step relative to the
// totals (sums of ~5000 terms of one sign, the energy's of two functions).
TEST(ReducedVelocities, RelaxationConservesMassMomentumEnergy) {
  const std::array<bool, 3> reductions[2] = {{false, false, true}, {false, true, true}};
  const int steps = 10;
  for (const auto& reduced : reductions)
    for (RelaxationKind model : kModels) {
      const VelocityGrid vg = make_reduced_velocity_grid(box(48, 8.0), reduced);
      const PhysicalGrid grid = test::homogeneous_grid();
      EngineConfig config = test::cpu_config(grid, vg, model, 0.5);
      config.gas.delta = 1.0;
      auto engine = make_engine(config);
      const std::vector<double> f0 = initial_row(bimaxwellian(reduced), vg);
      engine->set_state(f0);
      engine->step(steps);
      const auto a = conserved(vg, f0), b = conserved(vg, engine->state());
      const double dn = std::abs(b[0] - a[0]) / a[0], dE = std::abs(b[4] - a[4]) / a[4];
      double dm = 0.0;
      for (int i = 1; i < 4; ++i) dm = std::max(dm, std::abs(b[i] - a[i]) / a[0]);
      std::printf("  %-7s reduced %-2s %d steps: dn %.1e, d(nu) %.1e, dE %.1e\n",
                  test::name(model), reduction_name(reduced).c_str(), steps, dn, dm, dE);
      const double roundoff = steps * 64 * kEps;
      EXPECT_LE(dn, roundoff) << test::name(model) << " " << reduction_name(reduced);
      EXPECT_LE(dm, roundoff) << test::name(model) << " " << reduction_name(reduced);
      EXPECT_LE(dE, roundoff) << test::name(model) << " " << reduction_name(reduced);
    }
}

// Field indices (kernels/cell_moments.hpp).
constexpr int kN = 0, kT = 4, kPxx = 5, kPyy = 6, kPxy = 8, kQx = 11;

// The mean rate of `quantity` over `steps` steps (nu dt = 0.1 each), its per-step factor checked
// against `factor(x)` of the exact relaxation to `tolerance` (relative to the quantity), and the
// mean continuum rate p/mu.
template <class Quantity, class Factor>
std::array<double, 2> rate(RelaxationKind model, const VelocityGrid& vg,
                           const std::array<bool, 3>& reduced, Quantity quantity, Factor factor,
                           double tolerance) {
  const PhysicalGrid grid = test::homogeneous_grid();
  const double dt = 0.1 / 1.3;
  const int steps = 10;
  EngineConfig config = test::cpu_config(grid, vg, model, dt);
  config.gas.delta = 1.3;
  config.gas.omega = 0.81;
  auto engine = make_engine(config);
  engine->set_state(initial_row(bimaxwellian(reduced), vg));
  std::vector<double> fields = engine->fields();
  const double first = quantity(fields);
  double previous = first, nu_sum = 0.0;
  for (int s = 0; s < steps; ++s) {
    const double nu = config.gas.delta * fields[kN] * std::pow(fields[kT], 1.0 - config.gas.omega);
    nu_sum += nu;
    engine->step(1);
    fields = engine->fields();
    const double now = quantity(fields);
    EXPECT_NEAR(now / previous, factor(nu * dt), tolerance)
        << test::name(model) << " " << reduction_name(reduced) << " step " << s;
    previous = now;
  }
  return {-std::log(previous / first) / (steps * dt), nu_sum / steps};
}

// As the 3-D tests (test_relaxation.cpp, StressRelaxesAtPOverMu and
// ShakhovHeatFluxRelaxesAtPrandtlTimesPOverMu): per step the normal-stress difference and the
// shear (2V) decay by exp(-x) (BGK, Shakhov) or 1 - (1 - exp(-Pr x))/Pr (ES-BGK), x = p/mu dt,
// the Shakhov heat flux by 1 - Pr (1 - exp(-x)) and the BGK one by exp(-x); the kept axes of
// 48 nodes on [-8, 8] leave no quadrature error, so each factor holds to 1e-12 (round-off of
// differences of stresses of size ~1e-1 over values ~1e-2 leaves ~1e-13).
TEST(ReducedVelocities, StressAndHeatFluxRelaxAtTheirRates) {
  const std::array<bool, 3> reductions[2] = {{false, false, true}, {false, true, true}};
  const double Pr = 2.0 / 3.0, tolerance = 1e-12;
  for (const auto& reduced : reductions) {
    const VelocityGrid vg = make_reduced_velocity_grid(box(48, 8.0), reduced);
    for (RelaxationKind model : kModels) {
      const auto stress_factor = [&](double x) {
        return model == RelaxationKind::esbgk ? 1.0 - (1.0 - std::exp(-Pr * x)) / Pr
                                              : std::exp(-x);
      };
      const auto normal = [](const std::vector<double>& f) { return f[kPxx] - f[kPyy]; };
      const auto shear = [](const std::vector<double>& f) { return f[kPxy]; };
      const auto r = rate(model, vg, reduced, normal, stress_factor, tolerance);
      std::printf("  %-7s reduced %-2s Pxx-Pyy: rate %.10f, p/mu %.10f\n", test::name(model),
                  reduction_name(reduced).c_str(), r[0], r[1]);
      if (!reduced[1]) rate(model, vg, reduced, shear, stress_factor, tolerance);
    }
    const auto qx = [](const std::vector<double>& f) { return f[kQx]; };
    const auto shakhov = rate(RelaxationKind::shakhov, vg, reduced, qx,
                              [&](double x) { return 1.0 - Pr * (1.0 - std::exp(-x)); },
                              tolerance);
    const auto bgk = rate(RelaxationKind::bgk, vg, reduced, qx,
                          [](double x) { return std::exp(-x); }, tolerance);
    std::printf("  reduced %-2s qx: shakhov rate / (Pr p/mu) %.6f, bgk rate / (p/mu) %.12f\n",
                reduction_name(reduced).c_str(), shakhov[0] / (Pr * shakhov[1]), bgk[0] / bgk[1]);
    EXPECT_NEAR(bgk[0] / bgk[1], 1.0, 1e-9) << reduction_name(reduced);
  }
}

// The conservative target (-model_conservative true) on a coarse reduced set (8 kept nodes on
// [-4, 4]: the discrete Maxwellian misses its moments by ~1e-3): 3 Newton steps, with the h
// nodes' energy and their factor's dependence on beta, keep mass, momentum and energy to
// round-off (64 eps per step, as the 3-D test), where the default target visibly does not.
TEST(ReducedVelocities, ConservativeTargetConservesOnACoarseSet) {
  const std::array<bool, 3> reductions[2] = {{false, false, true}, {false, true, true}};
  const int steps = 10;
  for (const auto& reduced : reductions)
    for (RelaxationKind model : {RelaxationKind::bgk, RelaxationKind::esbgk}) {
      const VelocityGrid vg = make_reduced_velocity_grid(box(8, 4.0), reduced);
      double worst[2] = {0.0, 0.0};
      for (int iterations : {0, 3}) {
        RelaxationOptions options;
        options.conservative_iterations = iterations;
        EngineConfig config = test::cpu_config(test::homogeneous_grid(), vg,
                                               test::relaxation_model(model, options), 0.5);
        auto engine = make_engine(config);
        const std::vector<double> f0 = initial_row(bimaxwellian(reduced), vg);
        engine->set_state(f0);
        engine->step(steps);
        const auto a = conserved(vg, f0), b = conserved(vg, engine->state());
        for (int k = 0; k < 5; ++k)
          worst[iterations > 0] =
              std::max(worst[iterations > 0], std::abs(b[k] - a[k]) / std::max(a[0], a[4]));
      }
      std::printf("  %-7s reduced %-2s coarse: default target %.1e, conservative %.1e\n",
                  test::name(model), reduction_name(reduced).c_str(), worst[0], worst[1]);
      EXPECT_GT(worst[0], 1e3 * steps * 64 * kEps) << test::name(model);
      EXPECT_LE(worst[1], steps * 64 * kEps) << test::name(model) << " " << reduction_name(reduced);
    }
}

// The GPU's fused step sums a paired reduced set by velocities (kernels/fused_step.hpp,
// stream_pairs: accumulate_pair), the CPU by nodes (accumulate): the same sums for every
// evaluator, in 2V and 1V, but for the order of the additions.
template <class Evaluator>
void expect_pair_sums_equal_node_sums(const VelocityGrid& vg) {
  const Velocities<double> vel{vg.xi[0].data(), vg.xi[1].data(), vg.xi[2].data(),
                               vg.weight.data(), vg.size(),       vg.size(),
                               vg.h_weight.data(), vg.reduced_mask()};
  std::vector<double> f(vg.size());
  for (int v = 0; v < vg.size(); ++v) f[v] = 0.5 + 0.4 * std::sin(1.7 * v);  // no symmetry
  auto nodes = Sums<Evaluator::kSums>::zero(), pairs = nodes;
  for (int v = 0; v < vg.size(); ++v) Evaluator::accumulate(nodes, vel, v, f[v]);
  for (int v = 0; v < vg.size(); v += 2) Evaluator::accumulate_pair(pairs, vel, v, f[v], f[v + 1]);
  for (int k = 0; k < Evaluator::kSums; ++k)
    EXPECT_NEAR(pairs[k], nodes[k], 1e-13 * (std::abs(nodes[0]) + std::abs(nodes[k]))) << k;
}

TEST(ReducedVelocities, PairSumsEqualNodeSums) {
  for (const std::array<bool, 3> reduced : {std::array<bool, 3>{false, false, true},
                                            std::array<bool, 3>{false, true, true}}) {
    VelocityGridSpec spec = box(10, 5.0);
    const VelocityGrid vg = make_reduced_velocity_grid(spec, reduced);
    expect_pair_sums_equal_node_sums<Bgk>(vg);
    expect_pair_sums_equal_node_sums<Shakhov>(vg);
    expect_pair_sums_equal_node_sums<EsBgk>(vg);
  }
}

}  // namespace
}  // namespace bolt
