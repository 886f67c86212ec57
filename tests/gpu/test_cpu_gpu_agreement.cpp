// CPU (OpenMP) and CUDA backends run the same kernels: after N steps of the same EngineConfig
// their f (state()), macroscopic fields (fields()) and face fluxes must agree to 1e-12 relative in
// double and 1e-5 in float, relative meaning max |cpu - gpu| / max |cpu| over the whole vector
// (DESIGN.md, "One source, two backends"). Every model (BGK, Shakhov, ES-BGK), the conservative
// equilibrium on and off, first and second order, Lie and Strang, on
//   cavity2d    stretched x, diffuse walls, one at another temperature with accommodation < 1,
//               a moving lid
//   inflow1d    inflow / outflow
//   periodic1d  periodic with Courant 2.5 (whole-cell shifts), nv not a multiple of 32
//   channel2d   x inflow / outflow, y periodic, a body force
//   box3d       3-D box, stretched velocity grid, walls, a lid moving in two directions,
//               a specular face, a partly accommodating wall
//   wide1d      periodic 1-D on 32^3 velocities, bolt's own team size: a float row in shared
//               memory (128 kB) holds a multiprocessor to one team, which the GPU's fused step
//               widens to the threads its registers allow (team_size_filling_processor)
// Skips (and the executable exits with 77, which ctest reports as skipped) when no CUDA device
// is visible. BOLT_GPU_TEST_CPU_ONLY=1 compares CPU with CPU (checks the cases, not the GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "core/backend.hpp"
#include "gpu_test_support.hpp"
#include "case/case_setup.hpp"
#include "case/run_options.hpp"
#include "kernels/cell_moments.hpp"
#include "solver/explicit/engine.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::RelaxationKind;

// cavity2v and inflow1v: cavity2d and inflow1d on reduced velocity sets (2V: xi_z; 1V: xi_y, xi_z).
enum class Geometry {
  cavity2d, inflow1d, periodic1d, channel2d, box3d, cavity2v, inflow1v, wide1d
};

const char* name(Geometry g) {
  switch (g) {
    case Geometry::cavity2d: return "cavity2d";
    case Geometry::inflow1d: return "inflow1d";
    case Geometry::periodic1d: return "periodic1d";
    case Geometry::channel2d: return "channel2d";
    case Geometry::box3d: return "box3d";
    case Geometry::cavity2v: return "cavity2v";
    case Geometry::inflow1v: return "inflow1v";
    case Geometry::wide1d: return "wide1d";
  }
  return "?";
}

struct Case {
  Geometry geometry;
  RelaxationKind model;
  bool conservative;
  int order;
  Splitting splitting;
  Precision precision;
};

FaceSpec wall(double T = 1.0, double alpha = 1.0, double ux = 0.0, double uy = 0.0, double uz = 0.0) {
  FaceSpec f;
  f.kind = FaceKind::wall;
  f.temperature = T;
  f.accommodation = alpha;
  f.velocity[0] = ux;
  f.velocity[1] = uy;
  f.velocity[2] = uz;
  return f;
}
FaceSpec kind(FaceKind k) {
  FaceSpec f;
  f.kind = k;
  return f;
}
FaceSpec inflow(double n, double ux, double uy, double T) {
  FaceSpec f;
  f.kind = FaceKind::inflow;
  f.density = n;
  f.velocity[0] = ux;
  f.velocity[1] = uy;
  f.temperature = T;
  return f;
}

struct Built {
  RunOptions run;
  int steps;
};

Built build(const Case& c) {
  RunOptions run;
  RelaxationOptions options;
  options.conservative_iterations = c.conservative ? 3 : 0;
  run.order = c.order;
  run.splitting = c.splitting;
  run.precision = c.precision;
  run.gas.delta = 2.0;
  run.gas.omega = 0.74;
  run.velocity_grid.nodes = {8, 8, 8};
  run.velocity_grid.half_width = 3.5;
  // Coarse on purpose: the backends must agree, not the grid resolve the gas (run_options.hpp).
  run.velocity_tolerance = 1.0;
  run.max_courant = 0.5;
  for (int a = 0; a < 3; ++a) run.axes[a] = AxisSpec{1, 0.0, 1.0};
  int steps = 8;
  switch (c.geometry) {
    case Geometry::cavity2v:
      run.velocity_grid.reduced = {false, false, true};
      [[fallthrough]];
    case Geometry::cavity2d:
      run.axes[0] = AxisSpec{12, 0.0, 1.0, 0.85, FineAt::both};
      run.axes[1] = AxisSpec{10, 0.0, 1.0};
      run.faces[0][0] = wall();
      run.faces[0][1] = wall(1.3, 0.8);
      run.faces[1][0] = wall();
      run.faces[1][1] = wall(1.0, 1.0, 0.3);
      run.team_size = 128;
      break;
    case Geometry::inflow1v:
      run.velocity_grid.reduced = {false, true, true};
      [[fallthrough]];
    case Geometry::inflow1d:
      run.axes[0] = AxisSpec{32, 0.0, 1.0};
      run.velocity_grid.nodes = {12, 6, 6};
      run.velocity_grid.centre = {0.4, 0.0, 0.0};
      run.faces[0][0] = inflow(1.2, 0.8, 0.0, 1.1);
      run.faces[0][1] = kind(FaceKind::outflow);
      run.max_courant = 0.8;
      run.team_size = 64;
      steps = 20;
      break;
    case Geometry::periodic1d:
      run.axes[0] = AxisSpec{24, 0.0, 1.0};
      run.velocity_grid.nodes = {10, 6, 6};  // 360 velocities: the last warp is partial
      run.faces[0][0] = kind(FaceKind::periodic);
      run.faces[0][1] = kind(FaceKind::periodic);
      run.max_courant = 2.5;  // whole-cell shifts + residual
      run.team_size = 96;
      steps = 20;
      break;
    case Geometry::channel2d:
      run.axes[0] = AxisSpec{16, 0.0, 2.0};
      run.axes[1] = AxisSpec{6, 0.0, 1.0};
      run.faces[0][0] = inflow(1.0, 0.5, 0.1, 1.0);
      run.faces[0][1] = kind(FaceKind::outflow);
      run.faces[1][0] = kind(FaceKind::periodic);
      run.faces[1][1] = kind(FaceKind::periodic);
      options.force[0] = 0.05;
      options.force[1] = -0.02;
      run.team_size = 256;
      break;
    case Geometry::box3d:
      run.axes[0] = AxisSpec{6, 0.0, 1.0};
      run.axes[1] = AxisSpec{5, 0.0, 1.0};
      run.axes[2] = AxisSpec{4, 0.0, 1.0};
      run.velocity_grid.half_width = 4.0;
      run.velocity_grid.ratio = 0.8;  // stretched, finest at the centre (still symmetric)
      run.faces[0][0] = wall();
      run.faces[0][1] = wall(0.9);
      run.faces[1][0] = wall();
      run.faces[1][1] = wall(1.0, 1.0, 0.2, 0.0, 0.1);
      run.faces[2][0] = kind(FaceKind::specular);
      run.faces[2][1] = wall(1.1, 0.5);
      run.team_size = 256;
      steps = 6;
      break;
    case Geometry::wide1d:
      run.axes[0] = AxisSpec{6, 0.0, 1.0};
      run.velocity_grid.nodes = {32, 32, 32};
      run.velocity_grid.half_width = 4.0;
      run.faces[0][0] = kind(FaceKind::periodic);
      run.faces[0][1] = kind(FaceKind::periodic);
      run.team_size = 0;
      steps = 4;
      break;
  }
  run.model = test::relaxation_model(c.model, options);
  return {run, steps};
}

// A smooth non-equilibrium state: a Maxwellian with varying n, u, T plus a small shifted
// Maxwellian (heat flux and anisotropic stress, so Shakhov and ES-BGK have work to do).
std::vector<double> initial_state(const PhysicalGrid& grid, const VelocityGrid& vg) {
  const int nv = vg.size();
  std::vector<double> f(std::size_t(grid.interior_cells()) * nv);
  const double pi = 3.14159265358979323846;
  std::size_t at = 0;
  auto centre = [&](int axis, int i) {
    return grid.active[axis] ? grid.axes[axis].centres[i] : 0.5;
  };
  for (int k = 0; k < grid.cells(2); ++k)
    for (int j = 0; j < grid.cells(1); ++j)
      for (int i = 0; i < grid.cells(0); ++i) {
        const double x = centre(0, i), y = centre(1, j), z = centre(2, k);
        const double n = 1.0 + 0.2 * std::sin(2 * pi * x) * std::cos(pi * y) + 0.1 * z;
        const double u[3] = {0.1 * std::sin(pi * y), -0.05 * std::cos(2 * pi * x), 0.03 * z};
        const double T = 1.0 + 0.1 * std::cos(2 * pi * (x + y)) + 0.05 * z;
        const double u2[3] = {0.3, -0.2, 0.1};
        const double T2 = 0.7;
        for (int v = 0; v < nv; ++v, ++at) {
          double c2 = 0.0, d2 = 0.0;
          for (int a = 0; a < 3; ++a) {
            c2 += (vg.xi[a][v] - u[a]) * (vg.xi[a][v] - u[a]);
            d2 += (vg.xi[a][v] - u2[a]) * (vg.xi[a][v] - u2[a]);
          }
          f[at] = n / std::pow(pi * T, 1.5) * std::exp(-c2 / T) +
                  0.1 / std::pow(pi * T2, 1.5) * std::exp(-d2 / T2);
        }
      }
  return f;
}

struct Result {
  std::vector<double> state, fields, fluxes;
};

Result run_on(Backend backend, const Built& b) {
  RunOptions run = b.run;
  run.backend = backend;
  const CaseSetup setup = make_case_setup(run);
  auto engine = make_engine(setup.engine);
  engine->set_state(initial_state(setup.engine.grid, setup.engine.velocities));
  engine->step(b.steps);
  engine->synchronize();
  Result r;
  r.state = engine->state();
  r.fields = engine->fields();
  r.fluxes = engine->face_fluxes(0, 0);
  const std::vector<double> high = engine->face_fluxes(0, 1);
  r.fluxes.insert(r.fluxes.end(), high.begin(), high.end());
  return r;
}

using test::have_device;
using test::relative_difference;
using test::second_backend;

using Param = std::tuple<Geometry, RelaxationKind, bool, int, Splitting, Precision>;

class CpuGpuAgreement : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (!have_device()) GTEST_SKIP() << "no CUDA device visible";
  }
};

TEST_P(CpuGpuAgreement, StateFieldsAndFluxes) {
  const auto [geometry, model, conservative, order, splitting, precision] = GetParam();
  const Case c{geometry, model, conservative, order, splitting, precision};
  const Built b = build(c);
  const Result cpu = run_on(Backend::cpu, b);
  const Result gpu = run_on(second_backend(), b);
  const double tolerance = precision == Precision::double_ ? 1e-12 : 1e-5;

  // The CPU run itself must be sane, or agreement means nothing.
  for (double v : cpu.fields) ASSERT_TRUE(std::isfinite(v)) << "CPU fields not finite";
  ASSERT_GT(cpu.state.size(), 0u);

  const double d_state = relative_difference(cpu.state, gpu.state);
  const double d_fields = relative_difference(cpu.fields, gpu.fields);
  const double d_fluxes = relative_difference(cpu.fluxes, gpu.fluxes);
  EXPECT_LE(d_state, tolerance) << "state (f) differs";
  EXPECT_LE(d_fields, tolerance) << "fields differ";
  EXPECT_LE(d_fluxes, tolerance) << "face fluxes differ";
  RecordProperty("state_rel_diff", std::to_string(d_state));
  RecordProperty("fields_rel_diff", std::to_string(d_fields));
  std::printf("  %s: state %.3e fields %.3e fluxes %.3e (tolerance %.0e)\n",
              ::testing::UnitTest::GetInstance()->current_test_info()->name(), d_state, d_fields,
              d_fluxes, tolerance);
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const auto [geometry, model, conservative, order, splitting, precision] = info.param;
  std::string s = std::string(name(geometry)) + "_" + name(model) +
                  (conservative ? "_cons" : "_plain") + "_o" + std::to_string(order) +
                  (splitting == Splitting::lie ? "_lie" : "_strang") +
                  (precision == Precision::double_ ? "_f64" : "_f32");
  return s;
}

INSTANTIATE_TEST_SUITE_P(
    All, CpuGpuAgreement,
    ::testing::Combine(::testing::Values(Geometry::cavity2d, Geometry::inflow1d,
                                         Geometry::periodic1d, Geometry::channel2d, Geometry::box3d,
                                         Geometry::cavity2v, Geometry::inflow1v,
                                         Geometry::wide1d),
                       ::testing::Values(RelaxationKind::bgk, RelaxationKind::shakhov, RelaxationKind::esbgk),
                       ::testing::Bool(), ::testing::Values(1, 2),
                       ::testing::Values(Splitting::lie, Splitting::strang),
                       ::testing::Values(Precision::double_, Precision::single)),
    param_name);

// The GPU reductions sum in a fixed order: two GPU runs are bit-identical (restart exactness and
// decomposition tests rely on it).
TEST(GpuDeterminism, RepeatedRunsAreBitIdentical) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device visible";
  for (Precision p : {Precision::double_, Precision::single}) {
    const Built b = build({Geometry::box3d, RelaxationKind::shakhov, true, 2, Splitting::strang, p});
    const Result first = run_on(second_backend(), b);
    const Result second = run_on(second_backend(), b);
    EXPECT_EQ(first.state, second.state) << to_string(p);
    EXPECT_EQ(first.fields, second.fields) << to_string(p);
  }
}

}  // namespace
}  // namespace bolt

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
  if (failed) return 1;
  if (!bolt::have_device()) {
    std::printf("no CUDA device visible: every GPU test skipped\n");
    return 77;  // ctest SKIP_RETURN_CODE
  }
  return 0;
}
