// The iterative solver's sweep on a reduced (2V) velocity set against the 3-D sweep it reduces:
// one source iteration from the same moments, on a 3-D set whose xi_z axis carries 56 nodes of
// width 0.25 on [-7, 7] (the midpoint rule on the Gaussians of the targets and walls is then
// exact to round-off: its error ~ exp(-pi^2 T / h^2) ~ 1e-69, and the box cuts the tails at
// erfc(7) ~ 4e-23). At first order the sweep is linear in f with nothing along xi_z to couple
// the nodes, so the 2V sweep's g and h are the 3-D sweep's sums over xi_z of f and xi_z^2 f, and
// the moments, the outer faces' sums and the flux into a solid agree to round-off. The kept axes
// are the same in both; the gas varies from cell to cell, with a heat flux for Shakhov.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/macroscopic.hpp"
#include "kernels/maxwellian.hpp"
#include "solver/iterative/sweep_engine.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::RelaxationKind;

// A 7 x 6 box (stretched on x) with walls on x (one moving along y, one hot), inflow and outflow
// on y, a 2 x 2 solid block with warmer walls; velocities on [-7, 7], 10 x 9 nodes on the kept
// axes, 56 on xi_z (full) or none (2V).
SweepConfig config_of(RelaxationKind kind, bool reduced) {
  SweepConfig c;
  c.grid = make_physical_grid({AxisSpec{7, 0.0, 1.0, 0.9, FineAt::both}, AxisSpec{6, 0.0, 1.2},
                               AxisSpec{1, 0.0, 1.0}},
                              1);
  VelocityGridSpec spec;
  spec.nodes = {10, 9, 56};
  spec.half_width = 7.0;
  c.velocities = reduced ? make_reduced_velocity_grid(spec, {false, false, true})
                         : make_velocity_grid(spec);
  c.model = test::relaxation_model(kind);
  c.gas = {3.0, 0.7};
  c.faces[0][0].velocity[1] = 0.1;
  c.faces[0][1].temperature = 1.2;
  c.faces[1][0].kind = FaceKind::inflow;
  c.faces[1][0].density = 1.05;
  c.faces[1][0].velocity[1] = 0.15;
  c.faces[1][1].kind = FaceKind::outflow;
  c.solid.assign(std::size_t(c.grid.interior_cells()), 0);
  for (int j = 2; j < 4; ++j)
    for (int i = 3; i < 5; ++i) c.solid[i + 7 * j] = 1;
  c.solid_temperature = 1.3;
  return c;
}

// The raw moments of a gas at rest along z that varies from cell to cell (a heat flux along x in
// every other cell), summed on the full 3-D set.
std::vector<double> gas_moments(const SweepConfig& full) {
  const VelocityGrid& vg = full.velocities;
  std::vector<double> moments;
  for (std::int64_t cell = 0; cell < full.grid.interior_cells(); ++cell) {
    const double density = 1.0 + 0.01 * (cell % 7), T = 1.0 + 0.02 * (cell % 5);
    const double u[3] = {0.01 * (cell % 3), -0.02, 0.0};
    Sums<kRawMoments> s = Sums<kRawMoments>::zero();
    for (int v = 0; v < vg.size(); ++v) {
      const double f = maxwellian<double>(maxwellian_prefactor(density, T), 1.0 / T, u,
                                          vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]) *
                       (1.0 + 0.05 * vg.xi[0][v] * (cell % 2));
      accumulate_raw<3>(s, Velocities<double>{&vg.xi[0][v], &vg.xi[1][v], &vg.xi[2][v],
                                              &vg.weight[v], 1, 1}, 0, f);
    }
    for (int k = 0; k < kRawMoments; ++k) moments.push_back(s[k]);
  }
  return moments;
}

void expect_reduced_equals_full(RelaxationKind kind) {
  const SweepConfig full = config_of(kind, false), reduced = config_of(kind, true);
  const std::vector<double> moments = gas_moments(full);
  FaceArrays wall_density;
  for (int side = 0; side < 2; ++side) wall_density[0][side].assign(6, 0.95 + 0.1 * side);
  std::vector<double> solid_density;
  for (std::int64_t k = 0; k < full.grid.interior_cells() * 6; ++k)
    solid_density.push_back(0.9 + 0.001 * (k % 37));
  const SweepResult a = make_sweep_engine(full)->iterate(moments, wall_density, solid_density);
  const SweepResult b = make_sweep_engine(reduced)->iterate(moments, wall_density, solid_density);
  EXPECT_LT(test::relative_difference(a.moments, b.moments), 1e-12) << test::name(kind);
  for (int axis = 0; axis < 2; ++axis)
    for (int side = 0; side < 2; ++side)
      EXPECT_LT(test::relative_difference(a.face_sums[axis][side], b.face_sums[axis][side]), 1e-12)
          << test::name(kind) << " face " << axis << ", " << side;
  EXPECT_LT(test::relative_difference(a.solid_outflux, b.solid_outflux), 1e-12)
      << test::name(kind);
}

TEST(SweepReduced, TwoVEqualsTheThreeDSweepItReduces) {
  expect_reduced_equals_full(RelaxationKind::bgk);
  expect_reduced_equals_full(RelaxationKind::shakhov);
  expect_reduced_equals_full(RelaxationKind::esbgk);
}

}  // namespace
}  // namespace bolt
