// The projection method on the GPU (needs a GPU; BOLT_GPU_TEST_CPU_ONLY=1 checks the plumbing):
//  * the batched collision kernel on the GPU equals the plain reference for the same lattice and
//    shift (double: 1e-12), in a homogeneous cell;
//  * a 2-D cavity (moving lid, a hotter partly accommodating wall; streaming, walls, collisions
//    on the sphere grid) agrees between the CPU and the GPU after 4 steps: state, fields and lid
//    fluxes (double 1e-12, float 1e-5).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/backend.hpp"
#include "grid/velocity_grid.hpp"
#include "models/projection/model.hpp"
#include "models/projection/reference.hpp"
#include "solver/explicit/engine.hpp"
#include "gpu_test_support.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::have_device;
using test::relative_difference;
using test::second_backend;

VelocityGrid sphere(int n0) {
  VelocityGridSpec spec;
  spec.type = "sphere";
  spec.nodes = {n0, n0, n0};
  spec.half_width = 3.4;
  return make_velocity_grid(spec);
}

std::shared_ptr<const ProjectionModel> model() {
  ProjectionOptions o;
  o.points = 20000;
  o.sets = 3;
  o.seed = 11u;
  return std::make_shared<ProjectionModel>(o);
}

// Two drifting Maxwellians of different temperatures, varying a little from cell to cell.
std::vector<double> rows(const VelocityGrid& vg, int cells) {
  std::vector<double> f;
  for (int c = 0; c < cells; ++c) {
    const double u1[3] = {0.3 + 0.01 * c, -0.1, 0.0}, u2[3] = {-0.4, 0.2, 0.05 * std::sin(c)};
    const std::vector<double> a = test::maxwellian_row(vg, 0.7, u1, 0.8 + 0.01 * c);
    const std::vector<double> b = test::maxwellian_row(vg, 0.5, u2, 1.3);
    for (int v = 0; v < vg.size(); ++v) f.push_back(a[v] + b[v]);
  }
  return f;
}

class ProjectionGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_device()) GTEST_SKIP() << "no GPU";
  }
};

TEST_F(ProjectionGpu, KernelEqualsTheReference) {
  const VelocityGrid vg = sphere(14);
  const auto m = model();
  const double dt = 0.2, delta = 5.0;
  EngineConfig c = test::cpu_config(test::homogeneous_grid(), vg, m, dt);
  c.backend = second_backend();
  c.gas.delta = delta;
  const std::vector<double> f0 = rows(vg, 1);
  auto engine = make_engine(c);
  engine->set_state(f0);
  engine->step(1);
  const std::vector<double> fast = engine->state();
  std::vector<double> slow = f0;
  const ProjectionOptions& o = m->options();
  GasParams gas;
  gas.delta = delta;
  const ProjectionPlan plan =
      make_projection_plan(vg, korobov_rule(o.points),
                           projection_shift(o.seed, projection_set_of_step(o.seed, 0, o.sets)), dt,
                           m->kappa(gas), m->deflection(vg));
  projection_reference(plan, slow, vg.size());
  const double d = relative_difference(slow, fast);
  std::printf("  GPU kernel vs reference: %.2e\n", d);
  EXPECT_LE(d, 1e-12);
}

TEST_F(ProjectionGpu, EngineCavityAgrees) {
  const VelocityGrid vg = sphere(12);
  std::array<AxisSpec, 3> axes;
  axes[0] = AxisSpec{10, 0.0, 1.0, 0.9, FineAt::both};
  axes[1] = AxisSpec{8, 0.0, 1.0};
  axes[2] = AxisSpec{1, 0.0, 1.0};
  const PhysicalGrid physical = make_physical_grid(axes, 1);
  for (Precision p : {Precision::double_, Precision::single}) {
    EngineConfig c = test::cpu_config(physical, vg, model(), 0.01);
    c.precision = p;
    c.gas.delta = 3.0;
    c.faces[1][1].velocity[0] = 0.1;
    c.faces[0][1].temperature = 1.2;
    c.faces[0][1].accommodation = 0.8;
    c.team_size = 128;
    std::vector<double> state, fields, fluxes;
    for (int run = 0; run < 2; ++run) {
      c.backend = run == 0 ? Backend::cpu : second_backend();
      auto engine = make_engine(c);
      engine->set_state(rows(vg, int(physical.interior_cells())));
      engine->step(4);
      engine->synchronize();
      const std::vector<double> f = engine->state(), m = engine->fields(),
                                q = engine->face_fluxes(1, 1);
      if (run == 0) {
        state = f;
        fields = m;
        fluxes = q;
        continue;
      }
      const double tolerance = p == Precision::double_ ? 1e-12 : 1e-5;
      const double ds = relative_difference(state, f), dm = relative_difference(fields, m),
                   dq = relative_difference(fluxes, q);
      std::printf("  %s: state %.2e fields %.2e lid fluxes %.2e\n", to_string(p).data(), ds, dm,
                  dq);
      EXPECT_LE(ds, tolerance);
      EXPECT_LE(dm, tolerance);
      EXPECT_LE(dq, tolerance);
    }
  }
}

}  // namespace
}  // namespace bolt
