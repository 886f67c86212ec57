// Case set-up rules that protect conservation: whole-cell shifts (Courant >= 1) are allowed
// only where no wall needs its zero-net-mass-flux density (the wall's density uses the boundary
// cell's outflow, exact only below Courant 1), and the shock's downstream state is corrected so
// that the discrete fluxes of both far states agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "boundary/discrete_shock_states.hpp"
#include "core/error.hpp"
#include "case/case_setup.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/macroscopic.hpp"

namespace bolt {
namespace {

RunOptions one_dimensional(FaceKind faces, double max_courant) {
  RunOptions run;
  run.axes[0] = AxisSpec{32, 0.0, 1.0};
  run.axes[1] = AxisSpec{1, 0.0, 1.0};
  run.axes[2] = AxisSpec{1, 0.0, 1.0};
  run.velocity_grid.nodes = {12, 6, 6};
  run.velocity_tolerance = 0.2;  // coarse on purpose: these tests are about the time step,
  run.max_steps = 1;              // of one step (over many the energy would drift too far)
  run.max_courant = max_courant;
  run.collision_fraction = 0.0;
  for (auto& side : run.faces[0]) side.kind = faces;
  return run;
}

TEST(CaseSetup, WholeCellShiftsNeedOpenFaces) {
  EXPECT_NO_THROW(make_case_setup(one_dimensional(FaceKind::outflow, 2.5)));
  EXPECT_NO_THROW(make_case_setup(one_dimensional(FaceKind::wall, 0.9)));
  for (FaceKind kind : {FaceKind::wall, FaceKind::specular}) {
    try {
      make_case_setup(one_dimensional(kind, 2.5));
      FAIL() << "walls accepted with whole-cell shifts";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("-bc_x_low"), std::string::npos) << e.what();
    }
  }
}

TEST(CaseSetup, CourantExactlyOneIsOneWholeCell) {
  const CaseSetup setup = make_case_setup(one_dimensional(FaceKind::periodic, 1.0));
  EXPECT_EQ(setup.time_step.ghost, 2);  // order 1 + a shift of one cell for the fastest velocity
}

TEST(CaseSetup, DiscreteDownstreamMatchesUpstreamFluxes) {
  VelocityGridSpec spec;
  spec.nodes = {24, 10, 10};
  spec.centre = {1.1, 0.0, 0.0};
  spec.half_width = 5.0;
  const VelocityGrid grid = make_cartesian_velocity_grid(spec);
  const GasState up{1.0, 1.5 * sound_speed(1.0), 1.0};
  const GasState continuous = rankine_hugoniot_downstream(1.5, up);
  const GasState down = discrete_downstream(grid, up, continuous);
  double f_up[3], f_down[3];
  discrete_fluxes(grid, up, f_up);
  discrete_fluxes(grid, down, f_down);
  // Newton converges to round-off of the flux sums (1e-14 of the energy flux).
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(f_down[k], f_up[k], 1e-13 * std::abs(f_up[2])) << k;
  // The correction is of the size of the grid's quadrature error (here ~1e-3), not more.
  EXPECT_NEAR(down.n, continuous.n, 5e-3 * continuous.n);
  EXPECT_NEAR(down.T, continuous.T, 5e-3 * continuous.T);
}

// The iterative solver's initial moments, factorised by axis on the full box, equal the sums of
// the initial rows over every velocity, to rounding: a drifting anisotropic bi-Maxwellian on a
// stretched velocity box (unequal weights), and a Riemann state (cells differ).
TEST(CaseSetup, InitialMomentsFactoriseOnTheBox) {
  RunOptions bimaxwellian = one_dimensional(FaceKind::outflow, 0.9);
  bimaxwellian.velocity_grid.nodes = {14, 12, 10};
  bimaxwellian.velocity_grid.ratio = 0.8;
  bimaxwellian.velocity_grid.half_width = 5.0;
  bimaxwellian.initial.kind = InitKind::bimaxwellian;
  bimaxwellian.initial.density = 0.8;
  bimaxwellian.initial.velocity[0] = 0.1;
  const double T[3] = {1.2, 0.9, 0.8};
  std::copy_n(T, 3, bimaxwellian.initial.temperature_axes);
  bimaxwellian.initial.second_density = 0.2;
  bimaxwellian.initial.second_velocity[0] = 0.6;
  bimaxwellian.initial.second_velocity[1] = -0.3;
  bimaxwellian.initial.second_temperature = 0.7;
  RunOptions riemann = one_dimensional(FaceKind::outflow, 0.9);
  riemann.initial.kind = InitKind::riemann;
  const double left[3] = {1.0, 0.3, 1.1}, right[3] = {0.4, -0.2, 0.8};
  std::copy_n(left, 3, riemann.initial.left);
  std::copy_n(right, 3, riemann.initial.right);
  for (const RunOptions& run : {bimaxwellian, riemann}) {
    const CaseSetup setup = make_case_setup(run);
    const PhysicalGrid& grid = setup.engine.grid;
    const VelocityGrid& vg = setup.engine.velocities;
    ASSERT_TRUE(vg.full_box);
    const std::vector<double> factorised = initial_raw_moments(setup.run, grid, vg);
    const StateRows rows = initial_state_rows(setup.run, grid, vg, 0, vg.size());
    const Velocities<double> all{vg.xi[0].data(),  vg.xi[1].data(), vg.xi[2].data(),
                                 vg.weight.data(), vg.size(),       vg.size()};
    std::vector<double> row(vg.size());
    for (std::int64_t c = 0; c < grid.interior_cells(); ++c) {
      rows(c, row.data());
      Sums<kRawMoments> s = Sums<kRawMoments>::zero();
      for (int v = 0; v < vg.size(); ++v) accumulate_raw<3>(s, all, v, row[v]);
      // Rounding of sums of a few thousand terms of size up to n |xi|^3.
      for (int k = 0; k < kRawMoments; ++k)
        EXPECT_NEAR(factorised[c * kRawMoments + k], s[k], 1e-12 * s[kM0])
            << "cell " << c << " moment " << k;
    }
  }
}

// Grad's terms are kept whole where 1 + grad_factor stays positive in the velocity box, and
// scaled so that 1 + s grad_factor >= 1/2 everywhere in it where they are not (a shock's heat
// flux as an initial state would make f negative in the tails).
TEST(CaseSetup, GradTermsKeepTheInitialStatePositive) {
  const double largest[3] = {5.0, 4.0, 4.0};
  InitialMaxwellian small;
  small.n = 1.0;
  small.heat[0] = 1e-3;
  small.stress[3] = -2e-3;
  EXPECT_EQ(small.grad_scale(largest), 1.0);
  InitialMaxwellian strong = small;
  strong.n = 0.7;
  std::fill_n(strong.T, 3, 1.3);
  strong.heat[0] = 0.4;
  strong.heat[1] = -0.1;
  strong.stress[0] = 0.3;
  strong.stress[1] = -0.2;
  strong.stress[2] = -0.1;
  strong.stress[4] = 0.15;
  const double s = strong.grad_scale(largest);
  ASSERT_LT(s, 1.0);
  double least = 1.0;
  for (int i = -20; i <= 20; ++i)
    for (int j = -16; j <= 16; ++j)
      for (int k = -16; k <= 16; ++k) {
        const double c[3] = {0.25 * i, 0.25 * j, 0.25 * k};
        least = std::min(least, 1.0 + s * strong.grad_factor(c));
      }
  EXPECT_GE(least, 0.5);
  // The unscaled terms would make f negative in this box.
  double unscaled = 1.0;
  for (int i = -20; i <= 20; ++i) {
    const double c[3] = {0.25 * i, 0.0, 0.0};
    unscaled = std::min(unscaled, 1.0 + strong.grad_factor(c));
  }
  EXPECT_LT(unscaled, 0.0);
}

}  // namespace
}  // namespace bolt
