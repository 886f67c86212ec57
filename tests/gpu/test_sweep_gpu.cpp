// The iterative solver's sweep on the GPU against the CPU backend (the same kernel body, a thread
// per velocity, warp sums and atomics against per-thread sums): moments and face sums of one
// sweep, 2-D and 3-D, with walls, inflow, outflow, a symmetry face and a solid block, whole and
// in batches, double and float, first and second order, on the full and the reduced (2V)
// velocity space.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpu_test_support.hpp"
#include "kernels/macroscopic.hpp"
#include "kernels/maxwellian.hpp"
#include "kernels/sweep.hpp"
#include "solver/iterative/sweep_engine.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::RelaxationKind;

struct SweepCase {
  SweepConfig config;
  std::vector<double> moments;
  FaceArrays wall_density;
  std::vector<double> solid_density;
};

// What a case adds to the plain box: a solid block, a symmetry face, its velocity nodes, the GPU's
// lines (SweepConfig::lines).
struct Variant {
  bool solid = false, symmetry = false;
  std::array<int, 3> nodes{10, 9, 8};
  int lines = 0;
  int order = 1;  // the sweep's scheme (SweepConfig::order)
  bool reduced = false;  // 2-D boxes: the 2V set (xi_z reduced, g and h nodes)
};

// A box of n cells (stretched on x), the variant's velocities, a non-uniform gas; walls on x (one
// moving), inflow and outflow on y, walls on z.
SweepCase make_case(std::array<int, 3> n, RelaxationKind kind, Precision precision,
                    const Variant& variant) {
  const bool solid = variant.solid, symmetry = variant.symmetry;
  SweepCase c;
  std::array<AxisSpec, 3> axes{AxisSpec{n[0], 0.0, 1.0, 0.9, FineAt::both},
                               AxisSpec{n[1], 0.0, 1.2}, AxisSpec{n[2], 0.0, 0.8}};
  c.config.grid = make_physical_grid(axes, 1);
  VelocityGridSpec spec;
  spec.nodes = variant.nodes;
  spec.half_width = 3.5;
  c.config.velocities = variant.reduced ? make_reduced_velocity_grid(spec, {false, false, true})
                                        : make_velocity_grid(spec);
  c.config.model = test::relaxation_model(kind);
  c.config.gas = {3.0, 0.7};
  c.config.precision = precision;
  c.config.order = variant.order;
  auto& faces = c.config.faces;
  faces[0][0].velocity[1] = 0.1;
  faces[0][1].temperature = 1.2;
  faces[1][0].kind = FaceKind::inflow;
  faces[1][0].density = 1.05;
  faces[1][0].velocity[1] = 0.15;
  faces[1][1].kind = FaceKind::outflow;
  if (symmetry) faces[2][0].kind = FaceKind::specular;
  const VelocityGrid& vg = c.config.velocities;
  const std::int64_t cells = c.config.grid.interior_cells();
  for (std::int64_t cell = 0; cell < cells; ++cell) {
    const double density = 1.0 + 0.01 * (cell % 7), T = 1.0 + 0.02 * (cell % 5);
    const double u[3] = {0.01 * (cell % 3), -0.02, variant.reduced ? 0.0 : 0.005 * (cell % 2)};
    Sums<kRawMoments> s = Sums<kRawMoments>::zero();
    for (int v = 0; v < vg.size(); ++v) {
      const double f = maxwellian<double>(maxwellian_prefactor(density, T), 1.0 / T, u,
                                          vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]) *
                       vg.reduced_factor(v, T) *
                       (1.0 + 0.05 * vg.xi[0][v] * (cell % 2));  // some heat flux for Shakhov
      Velocities<double> node{&vg.xi[0][v], &vg.xi[1][v], &vg.xi[2][v], &vg.weight[v], 1, 1};
      if (vg.is_reduced()) {
        node.h = &vg.h_weight[v];
        node.reduced = vg.reduced_mask();
      }
      accumulate_raw<3>(s, node, 0, f);
    }
    for (int k = 0; k < kRawMoments; ++k) c.moments.push_back(s[k]);
  }
  // A solid block of 2 x 2 (x 2) cells off the centre, its walls hotter.
  if (solid) {
    c.config.solid.assign(std::size_t(cells), 0);
    c.config.solid_temperature = 1.3;
    for (int k = 0; k < std::min(n[2], 2); ++k)
      for (int j = 1; j < 3; ++j)
        for (int i = 2; i < 4; ++i) c.config.solid[i + n[0] * (j + std::size_t(n[1]) * k)] = 1;
    for (std::int64_t k = 0; k < cells * 6; ++k) c.solid_density.push_back(0.9 + 0.001 * (k % 37));
  }
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side)
      if (n[a] > 1 && faces[a][side].kind == FaceKind::wall)
        c.wall_density[a][side].assign(std::size_t(n[(a + 1) % 3]) * n[(a + 2) % 3], 0.95 + 0.1 * side);
  return c;
}

// `lines`, if given, receives the lines the GPU's sweep took (SweepEngine::lines).
void expect_agreement(std::array<int, 3> n, RelaxationKind kind, Precision precision,
                      std::int64_t batch, double tolerance, const Variant& variant = {},
                      int* lines = nullptr) {
  if (!test::have_device()) GTEST_SKIP() << "no GPU";
  SweepCase c = make_case(n, kind, precision, variant);
  c.config.backend = Backend::cpu;
  const SweepResult cpu = make_sweep_engine(c.config)->iterate(c.moments, c.wall_density, c.solid_density);
  c.config.backend = test::second_backend();
  c.config.batch = batch;
  c.config.lines = variant.lines;
  const auto engine = make_sweep_engine(c.config);
  const SweepResult gpu = engine->iterate(c.moments, c.wall_density, c.solid_density);
  EXPECT_LT(test::relative_difference(cpu.moments, gpu.moments), tolerance);
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side)
      EXPECT_LT(test::relative_difference(cpu.face_sums[a][side], gpu.face_sums[a][side]), tolerance)
          << "face " << a << ", " << side;
  EXPECT_LT(test::relative_difference(cpu.solid_outflux, gpu.solid_outflux), tolerance);
  if (lines != nullptr) *lines = engine->lines();
}

// Double: sums in another order (warps and atomics against per-thread sums); float: each
// backend's float arithmetic in the sweep (exp, divisions) over a few dozen cells.
TEST(SweepGpu, Bgk2dDouble) { expect_agreement({9, 7, 1}, RelaxationKind::bgk, Precision::double_, 0, 1e-12); }
TEST(SweepGpu, Shakhov3dDoubleInBatches) {
  expect_agreement({5, 4, 3}, RelaxationKind::shakhov, Precision::double_, 96, 1e-12);
}
TEST(SweepGpu, SolidBlock3dDouble) {
  expect_agreement({7, 5, 4}, RelaxationKind::bgk, Precision::double_, 0, 1e-12, {.solid = true});
}
TEST(SweepGpu, SymmetryFace3dInBatches) {
  expect_agreement({5, 4, 3}, RelaxationKind::shakhov, Precision::double_, 64, 1e-12,
                   {.symmetry = true});
}
// A small velocity set takes the most lines a block holds (sweep_engine_cuda.cu): 16 warps over
// planes of 8 lines and rows of 5 cells (the wavefront runs on across the planes, and a warp
// waits for the period of 16 steps before its next line), and over planes of 16 lines.
TEST(SweepGpu, LinesBeyondAPlane3dDouble) {
  int lines = 0;
  expect_agreement({5, 8, 3}, RelaxationKind::shakhov, Precision::double_, 0, 1e-12, {}, &lines);
  if (test::have_device()) {
    EXPECT_EQ(lines, 16) << "a block of 16 lines holds these velocities";
  }
}
TEST(SweepGpu, SixteenLines3dDoubleWithSolid) {
  expect_agreement({6, 16, 3}, RelaxationKind::bgk, Precision::double_, 0, 1e-12, {.solid = true});
}
// 904 warps of velocities (30 x 30 x 32, octants of 3600 padded to 113 warps) are more blocks than
// an H100 or H200 holds at once: whole waves at 4 lines, the last wave's blocks at more lines in a
// second launch (sweep_batch).
TEST(SweepGpu, BlocksBeyondOneWave) {
  expect_agreement({6, 16, 2}, RelaxationKind::bgk, Precision::double_, 0, 1e-12,
                   {.nodes = {30, 30, 32}});
}
// Lines forced (-iter_lines): 2, and 5, which does not divide a plane's 16 lines (a round of the
// wavefront crosses from one plane to the next).
TEST(SweepGpu, ForcedLines) {
  expect_agreement({6, 16, 2}, RelaxationKind::shakhov, Precision::double_, 0, 1e-12,
                   {.solid = true, .lines = 2});
}
TEST(SweepGpu, ForcedLinesAcrossPlanes) {
  expect_agreement({6, 16, 3}, RelaxationKind::shakhov, Precision::double_, 0, 1e-12,
                   {.solid = true, .lines = 5});
}
// Second order (kernels/sweep.hpp: step_second_order): the slice's five arrays in 3-D (three in
// 2-D) interleaved across the batch, the wavefront's lines reading the y faces and differences
// the line before left, the mirror's three values, solids; double and float.
TEST(SweepGpu, SecondOrder2dDouble) {
  expect_agreement({9, 7, 1}, RelaxationKind::bgk, Precision::double_, 0, 1e-12, {.order = 2});
}
TEST(SweepGpu, SecondOrderSolidBlock3dInBatches) {
  expect_agreement({7, 5, 4}, RelaxationKind::shakhov, Precision::double_, 96, 1e-12,
                   {.solid = true, .order = 2});
}
TEST(SweepGpu, SecondOrderSymmetryFace3dForcedLines) {
  expect_agreement({6, 16, 3}, RelaxationKind::bgk, Precision::double_, 0, 1e-12,
                   {.symmetry = true, .lines = 5, .order = 2});
}
TEST(SweepGpu, SecondOrderLinesBeyondAPlane3d) {
  expect_agreement({5, 8, 3}, RelaxationKind::esbgk, Precision::double_, 0, 1e-12, {.order = 2});
}
TEST(SweepGpu, SecondOrder3dFloat) {
  expect_agreement({6, 5, 3}, RelaxationKind::bgk, Precision::single, 0, 2e-5,
                   {.solid = true, .order = 2});
}
TEST(SweepGpu, EsbgkFloat) { expect_agreement({6, 5, 1}, RelaxationKind::esbgk, Precision::single, 0, 2e-5); }

// The reduced (2V) sweep: g and h nodes side by side in every warp, each to its own target, the
// h nodes adding only the reduced axes' energy; walls, inflow, outflow, a solid block.
TEST(SweepGpu, Reduced2dShakhovDoubleInBatches) {
  Variant v;
  v.reduced = true;
  expect_agreement({9, 7, 1}, RelaxationKind::shakhov, Precision::double_, 64, 1e-12, v);
}
TEST(SweepGpu, Reduced2dSolidBlockSecondOrderDouble) {
  Variant v;
  v.reduced = v.solid = true;
  v.order = 2;
  expect_agreement({9, 7, 1}, RelaxationKind::bgk, Precision::double_, 0, 1e-12, v);
}
TEST(SweepGpu, Reduced2dEsbgkFloat) {
  Variant v;
  v.reduced = true;
  expect_agreement({6, 5, 1}, RelaxationKind::esbgk, Precision::single, 0, 2e-5, v);
}

}  // namespace
}  // namespace bolt
