// CPU-vs-GPU agreement of the Monte Carlo collision (kernels/hs_mc/samples.hpp, collision.hpp):
//  * samples: the same (seed, step) gives the same cells on both backends and increments equal
//    to the last bits of the two math libraries (log, sin, cos), and the same gather plan;
//  * the collision step for the *same* samples (the CPU's, uploaded to the GPU): double 1e-12,
//    float 1e-5 relative (DESIGN.md), for every correction mode (none, batched in the kernel,
//    PETSc on the host), team layouts (1 or 2 cells per team, rows in shared or global
//    memory, the automatic choice), hard spheres and Maxwell molecules, a stretched grid whose size is
//    not a multiple of the warp, a cell count that is not a multiple of the team's;
//  * the whole step with each backend drawing its own samples;
//  * two GPU runs are bitwise equal (the increments are gathered in a fixed order);
//  * the engine's hs_mc model (streaming of h, walls in h, collisions) on small boxes: a 2-D
//    cavity at both streaming orders, and second order on one and on three axes.
// Skips without a CUDA device; BOLT_GPU_TEST_CPU_ONLY=1 runs the "GPU" side on the CPU (checks
// the plumbing only).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "core/backend.hpp"
#include "grid/velocity_grid.hpp"
#include "models/hs_mc/collision.hpp"
#include "models/hs_mc/model.hpp"
#include "models/hs_mc/reference.hpp"
#include "solver/explicit/engine.hpp"
#include "gpu_test_support.hpp"
#include "mc_helpers.hpp"
#include "petsc_environment.hpp"

namespace bolt {
namespace {

using test::have_device;
using test::number_difference;
using test::relative_difference;
using test::second_backend;

// The external (PETSc) correction mode needs PETSc; it starts MPI itself here.
[[maybe_unused]] ::testing::Environment* const kPetsc =
    ::testing::AddGlobalTestEnvironment(new test::PetscEnvironment);

VelocityGrid grid(int n0, int n1, int n2, double ratio) {
  return test::mc_grid({n0, n1, n2}, 3.0, ratio);
}

// Rows of h for `cells` cells: drifting, anisotropic Gaussians plus a hash (non-smooth rows).
std::vector<double> rows(const VelocityGrid& vg, int cells, double eps) {
  std::vector<double> h;
  const double pi = 3.14159265358979323846;
  for (int c = 0; c < cells; ++c)
    for (int v = 0; v < vg.size(); ++v) {
      const double x = vg.xi[0][v], y = vg.xi[1][v], z = vg.xi[2][v];
      const double u = 0.04 * std::sin(c + 1.0), T = 1.0 + 0.05 * std::cos(c);
      const double f =
          (1.0 + 0.03 * std::sin(2.0 * c)) / std::pow(pi * T, 1.5) *
          std::exp(-((x - u) * (x - u) + y * y * (1.0 + 0.04 * c / cells) + z * z) / T);
      const double noise = 0.05 * std::sin(12.9898 * v + 78.233 * c);
      h.push_back((f / reference_phi0(x, y, z) - 1.0) / eps + noise);
    }
  return h;
}

std::vector<double> corrections(const std::vector<double>& records) {
  std::vector<double> y;
  for (std::size_t c = 0; c + kMcRecord <= records.size(); c += kMcRecord)
    for (int k = 0; k < 5; ++k) y.push_back(records[c + k]);
  return y;
}

// A team layout to force: cells per team (0: automatic) and rows in shared memory (-1: if they
// fit).
struct Layout {
  int cells, rows_in_scratch;
};
constexpr Layout kAutomatic{0, -1};

McConfig config(Backend backend, Precision precision, const VelocityGrid& vg, double omega,
                McCorrection mode, Layout layout) {
  McConfig c;
  c.backend = backend;
  c.precision = precision;
  c.velocities = vg;
  c.delta = 2.0;
  c.omega = omega;
  c.options.epsilon = 0.5;
  c.dt = 0.04;
  c.options.samples = 5000;  // not a multiple of the chunk or the block
  c.options.seed = 424242u;
  c.options.correction = mode;
  c.team_size = 128;
  c.options.team_size = 128;  // the collision's teams as well
  c.options.cells_per_team = layout.cells;
  c.rows_in_scratch = layout.rows_in_scratch;
  return c;
}

// One step of both backends for the same samples (the CPU's, uploaded to the GPU) on `cells`
// rows of h: the operators (for their records), h, and the two results.
struct SameSamples {
  std::unique_ptr<McCollisionOperator> cpu, gpu;
  std::vector<double> h, cpu_h, gpu_h;
};
SameSamples collide_same_samples(const McConfig& cpu_config, const McConfig& gpu_config,
                                 int cells, std::uint32_t step) {
  SameSamples r;
  r.cpu = make_mc_collision(cpu_config);
  r.gpu = make_mc_collision(gpu_config);
  r.cpu->draw(step);
  r.gpu->set_samples(r.cpu->samples());
  r.h = rows(cpu_config.velocities, cells, 0.5);
  r.cpu_h = r.cpu->collide(r.h);
  r.gpu_h = r.gpu->collide(r.h);
  return r;
}

class McGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_device()) GTEST_SKIP() << "no CUDA device visible";
  }
};

// Also with v, v1 drawn from a wider Maxwellian (-mc_sampling_temperature 1.3: importance
// weights in the increments).
TEST_F(McGpu, SamplesAgree) {
  const VelocityGrid vg = grid(11, 10, 9, 0.92);
  for (double temperature : {1.0, 1.3}) {
    for (Precision p : {Precision::double_, Precision::single}) {
      McConfig cpu_config = config(Backend::cpu, p, vg, 0.5, McCorrection::none, kAutomatic);
      McConfig gpu_config = config(second_backend(), p, vg, 0.5, McCorrection::none, kAutomatic);
      cpu_config.options.sampling_temperature = temperature;
      gpu_config.options.sampling_temperature = temperature;
      auto cpu = make_mc_collision(cpu_config);
      auto gpu = make_mc_collision(gpu_config);
      cpu->draw(17);
      gpu->draw(17);
      const auto a = cpu->samples(), b = gpu->samples();
      ASSERT_EQ(a.size(), b.size());
      int cell_mismatch = 0;
      std::vector<double> ca, cb;
      for (std::size_t l = 0; l < a.size(); ++l) {
        cell_mismatch += a[l].cell != b[l].cell;
        ca.insert(ca.end(), a[l].coef.begin(), a[l].coef.end());
        cb.insert(cb.end(), b[l].coef.begin(), b[l].coef.end());
      }
      const double d = relative_difference(ca, cb);
      std::printf(
          "  %s, sampling temperature %.1f: %d of %zu samples in other cells, increments "
          "differ by %.2e, rejected %lld / %lld\n",
          to_string(p).data(), temperature, cell_mismatch, a.size(), d,
          (long long)cpu->last_draw().rejected, (long long)gpu->last_draw().rejected);
      EXPECT_EQ(cell_mismatch, 0);
      EXPECT_EQ(cpu->last_draw().rejected, gpu->last_draw().rejected);
      // The gather plans (CUB's radix sort against std::stable_sort): the same lists, in order.
      EXPECT_EQ(cpu->gather_lists(), gpu->gather_lists());
      // double: a few ulp of log/sin/cos; float: one float rounding of nearly equal doubles.
      EXPECT_LE(d, p == Precision::double_ ? 1e-13 : 1e-6);
    }
  }
}

// (precision, correction, team layout: 0 automatic, 1 one cell with its row in shared memory,
// 2 one cell with its row in global memory, 3 two cells in shared memory; omega). 7 cells: the
// last team is a partial one.
using Param = std::tuple<Precision, McCorrection, int, double>;
const Layout kLayouts[] = {kAutomatic, {1, 1}, {1, 0}, {2, 1}};

class McGpuCollision : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (!have_device()) GTEST_SKIP() << "no CUDA device visible";
  }
};

TEST_P(McGpuCollision, SameSamplesSameResult) {
  const auto [precision, mode, layout, omega] = GetParam();
  const VelocityGrid vg = grid(13, 12, 11, 0.9);  // 1716 velocities: not a multiple of 32
  const SameSamples r =
      collide_same_samples(config(Backend::cpu, precision, vg, omega, mode, kAutomatic),
                           config(second_backend(), precision, vg, omega, mode, kLayouts[layout]),
                           7, 3);
  const std::vector<double>& h = r.h;
  const std::vector<double>& a = r.cpu_h;
  const std::vector<double>& b = r.gpu_h;
  const auto& cpu = r.cpu;
  const auto& gpu = r.gpu;
  const double tolerance = precision == Precision::double_ ? 1e-12 : 1e-5;
  const double d_h = relative_difference(a, b), d_n = number_difference(vg, a, b);
  const double d_y = relative_difference(corrections(cpu->records()), corrections(gpu->records()));
  ASSERT_GT(relative_difference(h, a), 1e-4) << "the step must change h";
  std::printf("  %s: h %.2e numbers %.2e y %.2e (tolerance %.0e)\n",
              ::testing::UnitTest::GetInstance()->current_test_info()->name(), d_h, d_n, d_y,
              tolerance);
  EXPECT_LE(d_h, tolerance);
  EXPECT_LE(d_n, tolerance);
  // y comes from sums over h' rows that agree to `tolerance`; the systems are well conditioned.
  if (mode != McCorrection::none) {
    EXPECT_LE(d_y, 10 * tolerance);
  }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const auto [precision, mode, layout, omega] = info.param;
  const char* m =
      mode == McCorrection::none ? "none" : (mode == McCorrection::batched ? "batched" : "petsc");
  const char* layouts[] = {"_auto", "_1cell_shared", "_1cell_global", "_2cells_shared"};
  return std::string(precision == Precision::double_ ? "f64_" : "f32_") + m + layouts[layout] +
         (omega == 0.5 ? "_hs" : "_maxwell");
}

INSTANTIATE_TEST_SUITE_P(
    All, McGpuCollision,
    ::testing::Combine(::testing::Values(Precision::double_, Precision::single),
                       ::testing::Values(McCorrection::none, McCorrection::batched,
                                         McCorrection::external),
                       ::testing::Range(0, 4), ::testing::Values(0.5, 1.0)),
    param_name);

// A velocity grid too fine to pack v and v1 into a plan entry (33^3 > kMcPackedVelocities): the
// GPU's entries name samples, and the kernel stores every sample's g first, as on the CPU. Float:
// double needs more shared memory than a block has for these pieces.
TEST_F(McGpu, GridTooFineToPackVelocitiesAgrees) {
  const VelocityGrid vg = grid(33, 33, 33, 1.0);
  ASSERT_GT(vg.size(), kMcPackedVelocities);
  const auto at = [&](Backend backend) {
    return config(backend, Precision::single, vg, 0.5, McCorrection::batched, kAutomatic);
  };
  const SameSamples r = collide_same_samples(at(Backend::cpu), at(second_backend()), 3, 5);
  ASSERT_GT(relative_difference(r.h, r.cpu_h), 1e-4) << "the step must change h";
  const double d = relative_difference(r.cpu_h, r.gpu_h);
  std::printf("  %d velocities: h %.2e (tolerance 1e-5)\n", vg.size(), d);
  EXPECT_LE(d, 1e-5);
}

// A velocity box off centre has no mirror pairs (McMirrorPair: each velocity pairs with itself):
// the GPU still agrees with the CPU, with the correction.
TEST_F(McGpu, OffCentreGridAgrees) {
  const VelocityGrid vg = test::mc_grid({10, 9, 8}, 3.0, 0.9, {0.0, 0.1, 0.25});
  ASSERT_FALSE(vg.symmetric(2));
  for (Precision precision : {Precision::double_, Precision::single}) {
    const auto at = [&](Backend backend) {
      return config(backend, precision, vg, 0.5, McCorrection::batched, kAutomatic);
    };
    const SameSamples r = collide_same_samples(at(Backend::cpu), at(second_backend()), 5, 3);
    ASSERT_GT(relative_difference(r.h, r.cpu_h), 1e-4) << "the step must change h";
    const double tolerance = precision == Precision::double_ ? 1e-12 : 1e-5;
    const double d = relative_difference(r.cpu_h, r.gpu_h);
    std::printf("  %s: h %.2e (tolerance %.0e)\n", to_string(precision).data(), d, tolerance);
    EXPECT_LE(d, tolerance);
  }
}

// Each backend draws its own samples: the whole step agrees as well.
TEST_F(McGpu, WholeStepAgrees) {
  const VelocityGrid vg = grid(12, 12, 12, 0.94);
  const std::vector<double> h = rows(vg, 5, 0.5);
  for (Precision p : {Precision::double_, Precision::single}) {
    auto cpu =
        make_mc_collision(config(Backend::cpu, p, vg, 0.5, McCorrection::batched, kAutomatic));
    auto gpu =
        make_mc_collision(config(second_backend(), p, vg, 0.5, McCorrection::batched, kAutomatic));
    std::vector<double> a = h, b = h;
    for (std::uint32_t step = 0; step < 4; ++step) {
      cpu->draw(step);
      gpu->draw(step);
      a = cpu->collide(a);
      b = gpu->collide(b);
    }
    const double d = number_difference(vg, a, b);
    std::printf("  %s, 4 steps: numbers differ by %.2e\n", to_string(p).data(), d);
    EXPECT_LE(d, p == Precision::double_ ? 1e-12 : 1e-5);
  }
}

// The increments are gathered in a fixed order: a step is bitwise reproducible.
TEST_F(McGpu, RepeatedRunsAreBitwiseEqual) {
  const VelocityGrid vg = grid(12, 12, 12, 0.94);
  const std::vector<double> h = rows(vg, 5, 0.5);
  auto gpu = make_mc_collision(
      config(second_backend(), Precision::double_, vg, 0.5, McCorrection::batched, kAutomatic));
  gpu->draw(1);
  const std::vector<double> first = gpu->collide(h), second = gpu->collide(h);
  const double d = relative_difference(first, second);
  std::printf("  two runs: %s (difference %.2e)\n", first == second ? "bitwise equal" : "differ",
              d);
  EXPECT_EQ(first, second);
}

// -model_type hs_mc in the engine on both backends: streaming at `order` + walls in h +
// collisions, 4 steps; state, fields and the fluxes through the high face of the last active
// axis (the lid, moving along x) agree (double 1e-12, float 1e-5). The face of x's high end is
// hotter and partly accommodating.
void expect_engine_agrees(const std::array<AxisSpec, 3>& axes, int order) {
  const VelocityGrid vg = grid(10, 10, 10, 0.9);
  const PhysicalGrid physical = make_physical_grid(axes, order);
  const int lid = physical.active[2] ? 2 : (physical.active[1] ? 1 : 0);
  for (Precision p : {Precision::double_, Precision::single}) {
    EngineConfig c;
    c.precision = p;
    c.grid = physical;
    c.velocities = vg;
    c.order = order;
    McParams options;
    options.samples = 2000;
    options.seed = 5u;
    options.epsilon = 0.1;
    c.model = std::make_shared<McModel>(options);
    c.gas.delta = 3.0;
    c.dt = 0.01;
    c.faces[lid][1].velocity[0] = 0.1;
    c.faces[0][1].temperature = 1.2;
    c.faces[0][1].accommodation = 0.8;
    c.team_size = 128;
    std::vector<double> state, fields, fluxes;
    for (int run = 0; run < 2; ++run) {
      c.backend = run == 0 ? Backend::cpu : second_backend();
      auto engine = make_engine(c);
      std::vector<double> f0 = rows(vg, int(physical.interior_cells()), options.epsilon);
      for (std::size_t i = 0; i < f0.size(); ++i) {
        const int v = int(i % vg.size());
        f0[i] =
            reference_phi0(vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]) * (1.0 + options.epsilon * f0[i]);
      }
      engine->set_state(f0);
      engine->step(4);
      engine->synchronize();
      const std::vector<double> f = engine->state(), m = engine->fields(),
                                q = engine->face_fluxes(lid, 1);
      if (run == 0) {
        state = f;
        fields = m;
        fluxes = q;
        continue;
      }
      const double tolerance = p == Precision::double_ ? 1e-12 : 1e-5;
      const double ds = relative_difference(state, f), dm = relative_difference(fields, m),
                   dq = relative_difference(fluxes, q);
      std::printf("  order %d, %s: state %.2e fields %.2e lid fluxes %.2e\n", order,
                  to_string(p).data(), ds, dm, dq);
      EXPECT_LE(ds, tolerance);
      EXPECT_LE(dm, tolerance);
      EXPECT_LE(dq, tolerance);
    }
  }
}

// A 2-D cavity, x stretched, at both orders.
TEST_F(McGpu, EngineCavityAgrees) {
  const std::array<AxisSpec, 3> axes = {AxisSpec{12, 0.0, 1.0, 0.9, FineAt::both},
                                        AxisSpec{10, 0.0, 1.0}, AxisSpec{1, 0.0, 1.0}};
  for (int order : {1, 2}) expect_engine_agrees(axes, order);
}

// Second order streams with the number of axes fixed at compile time (the hs_mc collision's
// SecondOrderAxesStreamer): a box streaming along x alone and one along all three axes.
TEST_F(McGpu, EngineSecondOrderOneAndThreeAxesAgree) {
  expect_engine_agrees({AxisSpec{12, 0.0, 1.0, 0.9, FineAt::both}, AxisSpec{1, 0.0, 1.0},
                        AxisSpec{1, 0.0, 1.0}},
                       2);
  expect_engine_agrees({AxisSpec{6, 0.0, 1.0}, AxisSpec{5, 0.0, 1.0, 0.9, FineAt::both},
                        AxisSpec{4, 0.0, 1.0}},
                       2);
}

}  // namespace
}  // namespace bolt
