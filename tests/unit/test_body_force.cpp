// The uniform body-force term: in a homogeneous gas at rest an acceleration g must change the
// momentum density by n g per unit time and the energy sum (sum w f |xi|^2) by 2 n u . g, for
// every model. The conservative equilibrium keeps the relaxation itself from moving either, so
// what is left is the force term's own quadrature error on the 24^3 grid (spectrally small).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "unit_helpers.hpp"

namespace bolt::test {
namespace {

TEST(BodyForce, AcceleratesAHomogeneousGasAtRateG) {
  VelocityGridSpec spec;
  spec.nodes = {24, 24, 24};
  spec.half_width = 6.0;
  const VelocityGrid vg = make_cartesian_velocity_grid(spec);
  const PhysicalGrid grid = homogeneous_grid();
  const double g[3] = {0.02, -0.01, 0.0};
  const double dt = 0.05, n = 1.2, T = 0.9;
  const int steps = 40;
  for (RelaxationKind model : {RelaxationKind::bgk, RelaxationKind::shakhov, RelaxationKind::esbgk}) {
    RelaxationOptions options;
    options.conservative_iterations = 4;
    for (int a = 0; a < 3; ++a) options.force[a] = g[a];
    EngineConfig config = cpu_config(grid, vg, relaxation_model(model, options), dt);
    auto engine = make_engine(config);
    const double rest[3] = {0.0, 0.0, 0.0};
    engine->set_state(maxwellian_row(vg, n, rest, T));
    const RowMoments start = row_moments(vg, engine->state().data());
    engine->step(steps);
    const RowMoments end = row_moments(vg, engine->state().data());
    const double t = steps * dt;
    // Momentum: n g t. Energy: d/dt sum w f |xi|^2 = 2 n u . g with u = g t, so n |g|^2 t^2.
    const double g2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    const double energy_gain = n * g2 * t * t;
    // Tolerances: the per-step quadrature error of the force term (< 1e-12 relative on this
    // grid) accumulated over 40 steps, and the energy gain's O(dt) splitting error: each step
    // uses the velocity at its start, so the discrete gain is n |g|^2 dt^2 (0 + 1 + ... + N-1)
    // = energy_gain (1 - 1/N).
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(end.momentum[a] - start.momentum[a], n * g[a] * t, 1e-12) << name(model);
    const double discrete_gain = energy_gain * (1.0 - 1.0 / steps);
    std::printf("  %-8s momentum gain %.12f (n g_x t = %.12f), energy gain %.6e (expected %.6e)\n",
                name(model), end.momentum[0] - start.momentum[0], n * g[0] * t,
                end.energy - start.energy, discrete_gain);
    EXPECT_NEAR(end.energy - start.energy, discrete_gain, 1e-3 * discrete_gain) << name(model);
    EXPECT_NEAR(end.mass, start.mass, 1e-13 * start.mass) << name(model);
  }
}

}  // namespace
}  // namespace bolt::test
