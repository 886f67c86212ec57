// Wall boundaries (kernels/boundary_fill.hpp): the diffuse re-emission density
// n_w is chosen so that the discrete mass flux through a wall vanishes, so a
// closed box keeps its mass to round-off with first- and second-order
// streaming, uniform and stretched cells, moving and partially accommodating
// walls. Collisions use the conservative equilibrium (conservative_iterations =
// 3) so that relaxation, too, conserves mass to round-off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "diagnostics/conservation.hpp"
#include "kernels/cell_moments.hpp"
#include "solver/explicit/stream_tables.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::kEps;
using test::RelaxationKind;

VelocityGrid small_velocity_grid(double ratio) {
  VelocityGridSpec spec;
  spec.nodes = {8, 8, 8};
  spec.half_width = 4.0;
  spec.ratio = ratio;
  return make_cartesian_velocity_grid(spec);
}

// Positive f: a Maxwellian per cell times a hashed factor in [0.5, 1.5] per
// (cell, velocity).
std::vector<double> random_positive_state(const PhysicalGrid &grid,
                                          const VelocityGrid &vg) {
  const int nv = vg.size();
  const double u[3] = {0.1, -0.05, 0.0};
  const std::vector<double> fm = test::maxwellian_row(vg, 1.0, u, 1.0);
  std::vector<double> f(std::size_t(grid.interior_cells()) * nv);
  for (std::size_t k = 0; k < f.size(); ++k)
    f[k] = fm[k % nv] * (0.5 + test::hash01(k + 17));
  return f;
}

struct BoxCase {
  std::string name;
  PhysicalGrid grid;
  VelocityGrid velocities;
  int order;
  RelaxationKind model = RelaxationKind::bgk;
};

EngineConfig wall_config(const BoxCase &c) {
  double courant_per_dt = max_courant(c.grid, c.velocities, 1.0);
  RelaxationOptions options;
  options.conservative_iterations = 3;
  EngineConfig config = test::cpu_config(c.grid, c.velocities,
                                         test::relaxation_model(c.model, options),
                                         0.5 / courant_per_dt);
  config.order = c.order;
  config.gas.delta = 2.0;
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s)
      config.faces[a][s] = FaceSpec{}; // diffuse, at rest, T = 1
  // x low: half accommodation (needs the symmetric velocity grid); x high: hot
  // wall moving in y.
  config.faces[0][0].accommodation = 0.5;
  config.faces[0][1].velocity[1] = 0.4;
  config.faces[0][1].temperature = 1.5;
  // y high (2-D case): a lid moving in x.
  config.faces[1][1].velocity[0] = 0.3;
  return config;
}

// Scale of a face mass flux: sum over the face of w |xi_n| f <= n_max * max|xi|
// * (face size); the discrete sum of nv terms has round-off below nv * eps *
// scale.
double flux_tolerance(const std::vector<double> &fields, const VelocityGrid &vg,
                      int axis) {
  double n_max = 0.0;
  for (std::size_t c = 0; c < fields.size() / kFieldCount; ++c)
    n_max = std::max(n_max, fields[c * kFieldCount]);
  // The wall re-emits n_w f_M; n_w <= a few n for these states, hence the
  // factor 4.
  return 4.0 * vg.size() * kEps * n_max * vg.max_speed(axis);
}

void check_closed_box(const BoxCase &c) {
  SCOPED_TRACE(c.name);
  const EngineConfig config = wall_config(c);
  auto engine = make_engine(config);
  engine->set_state(random_positive_state(c.grid, c.velocities));
  const Totals before = totals(c.grid, engine->fields());
  const int steps = 40;
  double worst_flux = 0.0, worst_mass = 0.0;
  for (int s = 0; s < steps; ++s) {
    engine->step(1);
    const std::vector<double> fields = engine->fields();
    for (int a = 0; a < 3; ++a) {
      if (!c.grid.active[a])
        continue;
      const double tol = flux_tolerance(fields, c.velocities, a);
      for (int side = 0; side < 2; ++side) {
        const std::vector<double> flux = engine->face_fluxes(a, side);
        ASSERT_EQ(flux.size(),
                  std::size_t(5 * c.grid.interior_cells() / c.grid.cells(a)));
        for (std::size_t t = 0; t < flux.size() / 5; ++t) {
          EXPECT_LE(std::abs(flux[5 * t]), tol)
              << "axis " << a << " side " << side << " step " << s;
          worst_flux = std::max(worst_flux, std::abs(flux[5 * t]));
        }
      }
    }
    const Totals now = totals(c.grid, fields);
    worst_mass =
        std::max(worst_mass, std::abs(now.mass - before.mass) / before.mass);
  }
  // Per step each cell's mass changes by round-off of its nv-term sums
  // (streaming and the conservative relaxation): bound 8 * nv * eps relative
  // per step, accumulated linearly.
  const double mass_tol = steps * 8.0 * c.velocities.size() * kEps;
  std::printf("  %-34s max |wall mass flux| = %.1e, max |dM|/M over %d steps = "
              "%.1e (tol %.1e)\n",
              c.name.c_str(), worst_flux, steps, worst_mass, mass_tol);
  EXPECT_LE(worst_mass, mass_tol);
  // The test is not vacuous: the gas did move (the state is far from where it
  // started).
  const Totals after = totals(c.grid, engine->fields());
  EXPECT_GT(std::abs(after.energy - before.energy), 1e-6 * before.energy);
}

PhysicalGrid line(int cells, double ratio, int ghost) {
  std::array<AxisSpec, 3> specs{AxisSpec{cells, 0.0, 1.0, ratio, FineAt::both},
                                AxisSpec{1, 0.0, 1.0}, AxisSpec{1, 0.0, 1.0}};
  return make_physical_grid(specs, ghost);
}

PhysicalGrid square(int cells, double ratio, int ghost) {
  std::array<AxisSpec, 3> specs{AxisSpec{cells, 0.0, 1.0, ratio, FineAt::both},
                                AxisSpec{cells, 0.0, 1.0, ratio, FineAt::both},
                                AxisSpec{1, 0.0, 1.0}};
  return make_physical_grid(specs, ghost);
}

TEST(Boundary, DiffuseWallsConserveMass1D) {
  for (int order : {1, 2})
    for (double ratio : {1.0, 0.7})
      check_closed_box({"1-D order " + std::to_string(order) +
                            (ratio < 1 ? " stretched" : " uniform"),
                        line(8, ratio, order), small_velocity_grid(1.0),
                        order});
}

TEST(Boundary, DiffuseWallsConserveMass2D) {
  for (int order : {1, 2})
    check_closed_box({"2-D lid order " + std::to_string(order) + " stretched",
                      square(4, 0.8, order), small_velocity_grid(1.0), order});
}

// Stretched velocity grid (still symmetric) and ES-BGK. (Shakhov is left out:
// its conservative target is not exactly conservative when q != 0, a relaxation
// issue tested in test_relaxation.cpp,
// ConservativeEquilibriumConservesShakhovWithHeatFlux; here it shows as a mass
// drift of ~1e-5 over 40 steps although the wall fluxes vanish to round-off.)
TEST(Boundary, DiffuseWallsConserveMassStretchedVelocitiesEsbgk) {
  check_closed_box({"1-D order 2 stretched-v bgk", line(8, 1.0, 2),
                    small_velocity_grid(0.8), 2});
  check_closed_box({"1-D order 2 esbgk", line(8, 1.0, 2),
                    small_velocity_grid(1.0), 2, RelaxationKind::esbgk});
}

// Specular walls: the entering half is the mirror image of the leaving half, so
// the mass and energy fluxes and the tangential momentum fluxes vanish (to
// round-off); the normal momentum flux is the (positive, outward) pressure on
// the wall.
TEST(Boundary, SpecularWallFluxes) {
  const VelocityGrid vg = small_velocity_grid(1.0);
  const PhysicalGrid grid = line(6, 1.0, 1);
  EngineConfig config = test::cpu_config(grid, vg, RelaxationKind::bgk, 0.01);
  config.faces[0][0].kind = config.faces[0][1].kind = FaceKind::specular;
  auto engine = make_engine(config);
  engine->set_state(random_positive_state(grid, vg));
  engine->step(3);
  // Mass-flux bound as above; momentum and energy fluxes carry one more factor
  // |xi| <= max speed and |xi|^2 <= 3 max speed^2.
  const double tol = flux_tolerance(engine->fields(), vg, 0),
               c = vg.max_speed(0);
  for (int side = 0; side < 2; ++side) {
    const std::vector<double> flux = engine->face_fluxes(0, side);
    ASSERT_EQ(flux.size(), 5u);
    EXPECT_LE(std::abs(flux[0]), tol);
    EXPECT_GT(flux[1] * (side == 0 ? -1.0 : 1.0),
              0.1); // pressure, n T / 2 ~ 0.5, along x
    EXPECT_LE(std::abs(flux[2]), tol * c);
    EXPECT_LE(std::abs(flux[3]), tol * c);
    EXPECT_LE(std::abs(flux[4]), tol * 3 * c * c);
  }
}

// A wall with accommodation < 1 needs the reflected velocity: an asymmetric
// grid is refused.
TEST(Boundary, PartialAccommodationNeedsSymmetricGrid) {
  VelocityGridSpec spec;
  spec.nodes = {6, 6, 6};
  spec.centre = {0.5, 0.0, 0.0};
  const VelocityGrid vg = make_cartesian_velocity_grid(spec);
  EngineConfig config =
      test::cpu_config(line(4, 1.0, 1), vg, RelaxationKind::bgk, 0.01);
  config.faces[0][0].accommodation = 0.5;
  EXPECT_THROW(make_engine(config), Error);
  config.faces[0][0].accommodation = 1.0;
  EXPECT_NO_THROW(make_engine(config));
}

} // namespace
} // namespace bolt
