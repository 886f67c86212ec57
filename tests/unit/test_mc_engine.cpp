// -model_type hs_mc inside the engine (lib/models/hs_mc/operator.hpp): the state is h,
// f = Phi0 (1 + eps h); streaming, walls in terms of h (paper 000 Eqs. 13-15), the Monte Carlo
// collision, and moments of f from sums of w Phi0 h (Eqs. 9-12).
//  * Phi0 (h = 0) in a box of walls at rest at T0 is an exact steady state, bit for bit;
//  * a closed cavity with a moving lid and a hotter, partly accommodating wall keeps its mass to
//    round-off, and no mass crosses a wall;
//  * in one cell (no streaming) the engine's steps equal the stand-alone operator's
//    (McCollisionOperator) with the same samples;
//  * the fields (n, u, T, P, q) of the engine equal the moments of its f computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "kernels/cell_moments.hpp"
#include "mc_helpers.hpp"
#include "models/hs_mc/model.hpp"

namespace bolt {
namespace {

using test::kEps;

constexpr int kSamples = 2000;
constexpr std::uint32_t kSeed = 31u;

EngineConfig mc_engine_config(const PhysicalGrid& grid, const VelocityGrid& vg, double dt,
                              double eps) {
  McParams options;
  options.samples = kSamples;
  options.seed = kSeed;
  options.epsilon = eps;
  EngineConfig c = test::cpu_config(grid, vg, std::make_shared<McModel>(options), dt);
  c.gas.delta = 2.0;
  return c;
}

PhysicalGrid cavity_grid(int nx, int ny) {
  std::array<AxisSpec, 3> specs;
  specs[0] = AxisSpec{nx, 0.0, 1.0, 0.9, FineAt::both};
  specs[1] = AxisSpec{ny, 0.0, 1.0};
  specs[2] = AxisSpec{1, 0.0, 1.0};
  return make_physical_grid(specs, 1);
}

std::vector<double> phi0_rows(const VelocityGrid& vg, std::int64_t cells) {
  std::vector<double> f;
  const double pi = 3.14159265358979323846;
  for (std::int64_t c = 0; c < cells; ++c)
    for (int v = 0; v < vg.size(); ++v) {
      const double x = vg.xi[0][v], y = vg.xi[1][v], z = vg.xi[2][v];
      f.push_back(std::exp(-(x * x + y * y + z * z)) / (pi * std::sqrt(pi)));
    }
  return f;
}

TEST(McEngine, EquilibriumBetweenWallsAtRestIsExactlySteady) {
  const VelocityGrid vg = test::mc_grid({8, 8, 8}, 3.0, 0.9);
  const PhysicalGrid grid = cavity_grid(6, 5);
  auto engine = make_engine(mc_engine_config(grid, vg, 0.02, 0.01));
  const std::vector<double> f0 = phi0_rows(vg, grid.interior_cells());
  engine->set_state(f0);
  engine->step(5);
  EXPECT_EQ(engine->state(), f0);
}

double total_mass(const PhysicalGrid& grid, const std::vector<double>& fields) {
  double mass = 0.0;
  std::int64_t c = 0;
  for (int j = 0; j < grid.cells(1); ++j)
    for (int i = 0; i < grid.cells(0); ++i, ++c)
      mass += fields[c * kFieldCount] * grid.axes[0].widths[i] * grid.axes[1].widths[j];
  return mass;
}

// Lid at 0.2 c0 along x, the x-high wall at 1.3 T0 with accommodation 0.7, 15 steps: every term
// of the step conserves mass exactly (streaming fluxes, walls by construction of n_w, each
// collision sample, the correction), so the total changes by round-off only: 15 steps of sums
// of ~1e4 terms of size 1, bound 64 eps per step.
TEST(McEngine, ClosedCavityKeepsItsMass) {
  const VelocityGrid vg = test::mc_grid({8, 8, 8}, 3.0, 0.9);
  const PhysicalGrid grid = cavity_grid(7, 6);
  const double eps = 0.2;
  EngineConfig config = mc_engine_config(grid, vg, 0.02, eps);
  config.faces[1][1].velocity[0] = 0.2;
  config.faces[0][1].temperature = 1.3;
  config.faces[0][1].accommodation = 0.7;
  auto engine = make_engine(config);
  engine->set_state(phi0_rows(vg, grid.interior_cells()));
  const double m0 = total_mass(grid, engine->fields());
  const int steps = 15;
  engine->step(steps);
  const std::vector<double> fields = engine->fields();
  const double m1 = total_mass(grid, fields);
  double speed = 0.0, T_max = 0.0;
  for (std::int64_t c = 0; c < grid.interior_cells(); ++c) {
    speed = std::max(speed, std::abs(fields[c * kFieldCount + 1]));
    T_max = std::max(T_max, fields[c * kFieldCount + 4]);
  }
  double wall_flux = 0.0;
  for (int axis : {0, 1})
    for (int side : {0, 1}) {
      const std::vector<double> flux = engine->face_fluxes(axis, side);
      for (std::size_t t = 0; t < flux.size(); t += 5) wall_flux = std::max(wall_flux, std::abs(flux[t]));
    }
  std::printf("  mass %.17g -> %.17g (rel. %.1e); largest |u_x| %.3f, T %.4f; largest mass flux "
              "through a wall %.1e\n",
              m0, m1, (m1 - m0) / m0, speed, T_max, wall_flux);
  EXPECT_GT(speed, 1e-3);     // the lid moved the gas
  EXPECT_GT(T_max, 1.0005);   // the hot wall heated it
  EXPECT_LE(std::abs(m1 - m0) / m0, steps * 64 * kEps);
  EXPECT_LE(wall_flux, 64 * kEps);
}

// One cell, no streaming: engine step n uses the samples of step n, like the operator.
TEST(McEngine, HomogeneousStepsEqualTheOperator) {
  const VelocityGrid vg = test::mc_grid({10, 9, 8}, 3.0, 0.92);
  const double eps = 0.3, dt = 0.05;
  EngineConfig config = mc_engine_config(test::homogeneous_grid(), vg, dt, eps);
  auto engine = make_engine(config);
  test::GasState s;
  s.T[0] = 1.2;
  s.T[1] = 0.9;
  s.u[0] = 0.1;
  s.Txy = 0.05;
  std::vector<double> h = test::deviation_row(vg, s, eps);
  std::vector<double> f0(vg.size());
  for (int v = 0; v < vg.size(); ++v)
    f0[v] = reference_phi0(vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]) * (1.0 + eps * h[v]);
  engine->set_state(f0);
  engine->step(3);
  const std::vector<double> f_engine = engine->state();

  McConfig op_config = test::mc_config(vg, kSamples, dt, config.gas.delta, 0.5, eps);
  op_config.options.seed = kSeed;
  auto op = make_mc_collision(op_config);
  for (std::uint32_t step = 0; step < 3; ++step) {
    op->draw(step);
    h = op->collide(h);
  }
  std::vector<double> f_op(vg.size());
  for (int v = 0; v < vg.size(); ++v)
    f_op[v] = reference_phi0(vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]) * (1.0 + eps * h[v]);
  const double d = test::relative_difference(f_op, f_engine);
  std::printf("  engine vs operator after 3 steps: f differs by %.2e (f changed by %.2e)\n", d,
              test::relative_difference(f0, f_engine));
  EXPECT_LE(d, 1e-13);
  EXPECT_GT(test::relative_difference(f0, f_engine), 1e-4);
}

// The fields come from sums of w Phi0 h plus the Phi0 sums; here from f directly (long double).
TEST(McEngine, FieldsAreTheMomentsOfF) {
  const VelocityGrid vg = test::mc_grid({10, 10, 10}, 3.0, 0.9);
  const double eps = 0.05;
  EngineConfig config = mc_engine_config(test::homogeneous_grid(), vg, 0.05, eps);
  auto engine = make_engine(config);
  test::GasState s;
  s.n = 1.03;
  s.u[0] = 0.02;
  s.u[1] = -0.01;
  s.T[0] = 1.04;
  s.T[1] = 0.97;
  s.Txy = 0.02;
  std::vector<double> f(vg.size());
  for (int v = 0; v < vg.size(); ++v) f[v] = test::gaussian(s, vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]);
  engine->set_state(f);
  engine->step(2);
  f = engine->state();
  const std::vector<double> fields = engine->fields();
  const test::RowMoments m = test::row_moments(vg, f.data());
  long double pxy = 0.0L;
  for (int v = 0; v < vg.size(); ++v)
    pxy += 2.0L * vg.weight[v] * f[v] * (vg.xi[0][v] - m.u[0]) * (vg.xi[1][v] - m.u[1]);
  std::printf("  n %.15f/%.15f  u_x %.3e/%.3e  T %.15f/%.15f  P_xy %.6e/%.6e\n", fields[0], m.n,
              fields[1], m.u[0], fields[4], m.T, 2.0 * fields[8], double(pxy));
  EXPECT_NEAR(fields[0], m.n, 1e-13);
  EXPECT_NEAR(fields[1], m.u[0], 1e-13);
  EXPECT_NEAR(fields[2], m.u[1], 1e-13);
  EXPECT_NEAR(fields[4], m.T, 1e-13);
  // P_xy (fields hold the central second moment P/2): the quantity behind the cavity drag D.
  EXPECT_NEAR(2.0 * fields[8], double(pxy), 1e-13);
}

}  // namespace
}  // namespace bolt
