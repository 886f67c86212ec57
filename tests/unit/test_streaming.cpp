// Free streaming through the engine (kernels/streaming.hpp,
// lib/solver/stream_tables.*): exact translation at integer Courant numbers
// (whole-cell shifts, also above one), and one upwind step at fractional
// Courant numbers against the scheme's formula evaluated here by hand.
//
// Collisions are switched off with delta = 0: then exp(-nu dt) = 1 exactly and
// the relaxation returns F + (f - F), which differs from f only by round-off of
// size eps (|f| + |F|), where |F| <= n (pi T)^(-3/2) is the peak of the
// (unused) Maxwellian target. Tolerances below are 4 eps (max|f| + max|F|) per
// step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/launch_cpu.hpp"
#include "kernels/cell_moments.hpp"
#include "kernels/streaming.hpp"
#include "solver/explicit/stream_tables.hpp"
#include "solver/explicit/time_step.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::kEps;
using test::RelaxationKind;

// A hand-built set of velocities along x (y = z = 0), unit weights.
VelocityGrid line_velocities(const std::vector<double> &xs) {
  VelocityGrid vg;
  const int n = int(xs.size());
  vg.xi[0] = xs;
  vg.xi[1].assign(n, 0.0);
  vg.xi[2].assign(n, 0.0);
  vg.weight.assign(n, 1.0);
  for (int a = 0; a < 3; ++a) {
    vg.node[a].assign(n, 0);
    vg.reflect[a].assign(n, -1);
  }
  for (int v = 0; v < n; ++v) {
    vg.node[0][v] = v;
    for (int r = 0; r < n; ++r)
      if (xs[r] == -xs[v])
        vg.reflect[0][v] = r;
    vg.reflect[1][v] = vg.reflect[2][v] = v;
  }
  return vg;
}

PhysicalGrid periodic_line(int cells, double length, int ghost) {
  std::array<AxisSpec, 3> specs{AxisSpec{cells, 0.0, length},
                                AxisSpec{1, 0.0, 1.0}, AxisSpec{1, 0.0, 1.0}};
  return make_physical_grid(specs, ghost);
}

EngineConfig streaming_only(const PhysicalGrid &grid, const VelocityGrid &vg,
                            double dt, int order) {
  EngineConfig c = test::cpu_config(grid, vg, RelaxationKind::bgk, dt);
  c.gas.delta = 0.0; // nu = 0: no collisions
  c.order = order;
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s)
      c.faces[a][s].kind = FaceKind::periodic;
  return c;
}

std::vector<double> random_state(std::int64_t cells, int nv,
                                 std::uint64_t seed) {
  std::vector<double> f(std::size_t(cells) * nv);
  for (std::size_t k = 0; k < f.size(); ++k)
    f[k] = 0.5 + test::hash01(seed * 1000003 + k);
  return f;
}

// Upper bound of the Maxwellian target's peak over the cells: n (pi T)^(-3/2).
double max_target(Engine &engine) {
  const std::vector<double> fields = engine.fields();
  double worst = 0.0;
  for (std::size_t c = 0; c < fields.size() / kFieldCount; ++c) {
    const double n = fields[c * kFieldCount + 0],
                 T = fields[c * kFieldCount + 4];
    worst = std::max(worst, maxwellian_prefactor(n, T));
  }
  return worst;
}

double max_abs(const std::vector<double> &f) {
  double m = 0.0;
  for (double x : f)
    m = std::max(m, std::abs(x));
  return m;
}

// Streams `steps` steps and compares with the initial profile translated by
// courant[v] * steps cells (periodically). Returns the worst deviation.
double translation_error(const EngineConfig &config,
                         const std::vector<int> &cells_per_step, int steps,
                         double *tolerance) {
  const int n = config.grid.cells(0), nv = config.velocities.size();
  auto engine = make_engine(config);
  const std::vector<double> f0 = random_state(n, nv, 7);
  engine->set_state(f0);
  *tolerance = steps * 4 * kEps * (max_abs(f0) + max_target(*engine));
  engine->step(steps);
  const std::vector<double> f = engine->state();
  double worst = 0.0;
  for (int i = 0; i < n; ++i)
    for (int v = 0; v < nv; ++v) {
      const int from = (((i - cells_per_step[v] * steps) % n) + n) % n;
      worst = std::max(worst, std::abs(f[std::size_t(i) * nv + v] -
                                       f0[std::size_t(from) * nv + v]));
    }
  return worst;
}

// Courant numbers 1, 2, 3 (both signs), dt and dx binary fractions so the
// Courant numbers are exact: whole-cell shifts only, for order 1 and 2 (the
// limited slope is multiplied by r = 0).
TEST(Streaming, IntegerCourantTranslatesExactly) {
  const std::vector<double> xs{-3.0, -2.0, -1.0, 1.0, 2.0, 3.0};
  const std::vector<int> shift{-3, -2, -1, 1, 2, 3};
  for (int order : {1, 2}) {
    const double dx = 1.0 / 16.0, dt = dx;
    const PhysicalGrid grid = periodic_line(16, 1.0, 3 + order);
    const EngineConfig config =
        streaming_only(grid, line_velocities(xs), dt, order);
    double tol = 0.0;
    const double err = translation_error(config, shift, 21, &tol);
    std::printf("  order %d, Courant 1..3, 21 steps: max |f - f0(x - k s)| = "
                "%.2e (tol %.2e)\n",
                order, err, tol);
    EXPECT_LE(err, tol) << "order " << order;
  }
}

// The same with dx = 0.07, xi = k * 0.35, dt = 0.2: the Courant numbers k are
// integers only up to rounding, so the floor may give (k - 1) whole cells and a
// residual r = 1 - O(eps), which must still translate to round-off.
TEST(Streaming, IntegerCourantRobustToRounding) {
  const std::vector<double> xs{-3 * 0.35, -2 * 0.35, -0.35,
                               0.35,      2 * 0.35,  3 * 0.35};
  const std::vector<int> shift{-3, -2, -1, 1, 2, 3};
  for (int order : {1, 2}) {
    const PhysicalGrid grid = periodic_line(10, 0.7, 3 + order);
    const EngineConfig config =
        streaming_only(grid, line_velocities(xs), 0.2, order);
    double tol = 0.0;
    const double err = translation_error(config, shift, 13, &tol);
    std::printf(
        "  order %d, inexact Courant 1..3, 13 steps: err = %.2e (tol %.2e)\n",
        order, err, tol);
    EXPECT_LE(err, tol) << "order " << order;
  }
}

// A real Cartesian velocity grid: 8 x-nodes on [-4, 4] are
// +-0.5, 1.5, 2.5, 3.5; with dt = 2 dx the Courant numbers are 1, 3, 5, 7
// (exact), so make_case_setup-style ghost depth 7 + order.
TEST(Streaming, CartesianGridIntegerCourantUpToSeven) {
  VelocityGridSpec spec;
  spec.nodes = {8, 1, 1};
  spec.half_width = 4.0;
  const VelocityGrid vg = make_cartesian_velocity_grid(spec);
  std::vector<int> shift(vg.size());
  for (int v = 0; v < vg.size(); ++v)
    shift[v] = int(std::lround(2.0 * vg.xi[0][v]));
  const double dx = 1.0 / 16.0;
  const HostStreamTables tables =
      make_stream_tables(periodic_line(16, 1.0, 8), vg, 2.0 * dx);
  EXPECT_EQ(tables.max_shift, 7);
  for (double r : tables.fraction)
    EXPECT_EQ(r, 0.0);
  for (int order : {1, 2}) {
    const PhysicalGrid grid = periodic_line(16, 1.0, 7 + order);
    const EngineConfig config = streaming_only(grid, vg, 2.0 * dx, order);
    double tol = 0.0;
    const double err = translation_error(config, shift, 5, &tol);
    std::printf("  order %d, Courant 1,3,5,7: err = %.2e (tol %.2e)\n", order,
                err, tol);
    EXPECT_LE(err, tol);
  }
  // Too few ghost layers for the shift is refused.
  EXPECT_THROW(
      make_engine(streaming_only(periodic_line(16, 1.0, 7), vg, 2.0 * dx, 1)),
      Error);
}

// The time-step chooser gives the ghost depth the shifts need (order + whole
// cells of the fastest velocity) on a 1-D uniform grid, and refuses Courant > 1
// in 2-D.
TEST(Streaming, TimeStepGhostDepthForLargeCourant) {
  VelocityGridSpec spec;
  spec.nodes = {8, 1, 1};
  spec.half_width = 4.0;
  const VelocityGrid vg = make_cartesian_velocity_grid(spec);
  TimeStepLimits limits;
  limits.fixed_dt = 2.0 / 16.0; // Courant 7 for xi = 3.5, dx = 1/16
  for (int order : {1, 2}) {
    const TimeStep step =
        choose_time_step(periodic_line(16, 1.0, order), vg, limits, order);
    EXPECT_EQ(step.ghost, 7 + order);
    EXPECT_DOUBLE_EQ(step.courant, 7.0);
  }
  std::array<AxisSpec, 3> specs{AxisSpec{16, 0.0, 1.0}, AxisSpec{16, 0.0, 1.0},
                                AxisSpec{1, 0.0, 1.0}};
  VelocityGridSpec spec2 = spec;
  spec2.nodes = {8, 8, 1};
  EXPECT_THROW(choose_time_step(make_physical_grid(specs, 1),
                                make_cartesian_velocity_grid(spec2), limits, 1),
               Error);
}

// 2-D periodic box, diagonal velocities with integer Courant numbers on both
// axes: the unsplit scheme shifts along x and y together (corner ghost cells
// are used) and must translate exactly.
TEST(Streaming, TwoDimensionalIntegerShifts) {
  VelocityGridSpec spec;
  spec.nodes = {4, 4, 1};
  spec.half_width = 2.0; // nodes +-0.5, +-1.5
  const VelocityGrid vg = make_cartesian_velocity_grid(spec);
  const int n = 8;
  const double dx = 1.0 / n, dt = 2.0 * dx; // Courant 1 and 3 per axis
  std::array<AxisSpec, 3> specs{AxisSpec{n, 0.0, 1.0}, AxisSpec{n, 0.0, 1.0},
                                AxisSpec{1, 0.0, 1.0}};
  const PhysicalGrid grid = make_physical_grid(specs, 4);
  const EngineConfig config = streaming_only(grid, vg, dt, 1);
  auto engine = make_engine(config);
  const int nv = vg.size();
  const std::vector<double> f0 = random_state(n * n, nv, 11);
  engine->set_state(f0);
  const double tol = 3 * 4 * kEps * (max_abs(f0) + max_target(*engine));
  engine->step(3);
  const std::vector<double> f = engine->state();
  double worst = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      for (int v = 0; v < nv; ++v) {
        const int sx = int(std::lround(2.0 * vg.xi[0][v])) * 3;
        const int sy = int(std::lround(2.0 * vg.xi[1][v])) * 3;
        const int fi = (((i - sx) % n) + n) % n, fj = (((j - sy) % n) + n) % n;
        worst =
            std::max(worst, std::abs(f[(std::size_t(j) * n + i) * nv + v] -
                                     f0[(std::size_t(fj) * n + fi) * nv + v]));
      }
  EXPECT_LE(worst, tol);
}

double minmod(double a, double b) {
  if (a * b <= 0.0)
    return 0.0;
  return std::abs(a) < std::abs(b) ? a : b;
}
double van_leer(double a, double b) {
  if (a * b <= 0.0)
    return 0.0;
  return 2.0 * a * b / (a + b);
}

// One step at fractional Courant numbers 0.25 and 1.5 against the formulas of
// paper 002 written out here: with C = m + r (m whole cells, r < 1), upstream
// neighbour u = i - sign(xi) and base b = i - sign(xi) m,
//   order 1:  f_b - r (f_b - f_{b-s})
//   order 2:  f_b - r (F_out - F_in), F_out = f_b + (1-r)/2 L(f_b - f_{b-s},
//   f_{b+s} - f_b),
//             F_in = f_{b-s} + (1-r)/2 L(f_{b-s} - f_{b-2s}, f_b - f_{b-s}) (s
//             = sign(xi)).
TEST(Streaming, FractionalCourantMatchesUpwindFormula) {
  const std::vector<double> xs{-1.5, -0.25, 0.25, 1.5};
  const int n = 8, nv = 4;
  const double dx = 1.0 / n, dt = dx; // C = |xi| exactly
  for (int order : {1, 2}) {
    for (Limiter limiter : {Limiter::minmod, Limiter::van_leer}) {
      if (order == 1 && limiter == Limiter::van_leer)
        continue;
      EngineConfig config = streaming_only(periodic_line(n, 1.0, 1 + order),
                                           line_velocities(xs), dt, order);
      config.limiter = limiter;
      auto engine = make_engine(config);
      const std::vector<double> f0 = random_state(n, nv, 3);
      engine->set_state(f0);
      const double tol = 4 * kEps * (max_abs(f0) + max_target(*engine)) +
                         8 * kEps * max_abs(f0);
      engine->step(1);
      const std::vector<double> f = engine->state();
      auto at = [&](int i, int v) {
        return f0[std::size_t(((i % n) + n) % n) * nv + v];
      };
      for (int v = 0; v < nv; ++v) {
        const double courant = std::abs(xs[v]) * dt / dx;
        const int m = int(std::floor(courant));
        const double r = courant - m;
        const int s = xs[v] > 0 ? 1 : -1;
        for (int i = 0; i < n; ++i) {
          const int b = i - s * m;
          double expected;
          if (order == 1) {
            expected = at(b, v) - r * (at(b, v) - at(b - s, v));
          } else {
            auto L = [&](double a, double c) {
              return limiter == Limiter::minmod ? minmod(a, c) : van_leer(a, c);
            };
            const double out = at(b, v) + 0.5 * (1 - r) *
                                              L(at(b, v) - at(b - s, v),
                                                at(b + s, v) - at(b, v));
            const double in =
                at(b - s, v) +
                0.5 * (1 - r) *
                    L(at(b - s, v) - at(b - 2 * s, v), at(b, v) - at(b - s, v));
            expected = at(b, v) - r * (out - in);
          }
          EXPECT_NEAR(f[std::size_t(i) * nv + v], expected, tol)
              << "order " << order << " v " << v << " cell " << i;
        }
      }
    }
  }
}

// First order on two axes at once, fractional Courant numbers (0.25 and 0.75 per axis): the
// unsplit upwind formula f - r_x (f - f_upwind x) - r_y (f - f_upwind y). With 16 velocities the
// second axis's tables start at the padded stride (stream_table_stride: 32), not at nv; a table
// read at the wrong stride would take another velocity's offset or fraction. The 4 x 4 set's
// quadrants are 4 velocities (the CPU streams them one by one), the 4 x 4 x 5 set's 20 (by runs).
class TwoDimensionalStreaming : public ::testing::TestWithParam<int> {};

TEST_P(TwoDimensionalStreaming, FractionalCourantMatchesUpwindFormula) {
  VelocityGridSpec spec;
  spec.nodes = {4, 4, GetParam()};
  spec.half_width = 2.0;  // nodes +-0.5, +-1.5
  const VelocityGrid vg = make_cartesian_velocity_grid(spec);
  const int n = 8, nv = vg.size();
  const int table = stream_table_stride(nv);
  ASSERT_NE(table, nv);
  std::vector<double> signs(2 * table, 0.0);
  for (int v = 0; v < nv; ++v)
    for (int k = 0; k < 2; ++k) signs[k * table + v] = vg.xi[k][v];
  EXPECT_EQ(sign_runs(signs, 2, table, nv).empty(), GetParam() == 1);
  const double dx = 1.0 / n, dt = 0.5 * dx;  // Courant 0.25 and 0.75
  std::array<AxisSpec, 3> specs{AxisSpec{n, 0.0, 1.0}, AxisSpec{n, 0.0, 1.0},
                                AxisSpec{1, 0.0, 1.0}};
  const EngineConfig config = streaming_only(make_physical_grid(specs, 1), vg, dt, 1);
  auto engine = make_engine(config);
  const std::vector<double> f0 = random_state(n * n, nv, 5);
  engine->set_state(f0);
  const double tol = 4 * kEps * (max_abs(f0) + max_target(*engine)) + 8 * kEps * max_abs(f0);
  engine->step(1);
  const std::vector<double> f = engine->state();
  const auto at = [&](int i, int j, int v) {
    return f0[(std::size_t((j + n) % n) * n + std::size_t((i + n) % n)) * nv + v];
  };
  for (int v = 0; v < nv; ++v) {
    const double rx = std::abs(vg.xi[0][v]) * dt / dx, ry = std::abs(vg.xi[1][v]) * dt / dx;
    const int sx = vg.xi[0][v] > 0 ? 1 : -1, sy = vg.xi[1][v] > 0 ? 1 : -1;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double base = at(i, j, v);
        const double expected =
            base - rx * (base - at(i - sx, j, v)) - ry * (base - at(i, j - sy, v));
        EXPECT_NEAR(f[(std::size_t(j) * n + i) * nv + v], expected, tol)
            << "v " << v << " cell " << i << "," << j;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Streaming, TwoDimensionalStreaming, ::testing::Values(1, 5));

// The runs of a set ordered by sign octants (velocity_grid.hpp): 16^3 velocities (no node at
// xi = 0) streaming along x and y take at most one run per octant, each velocity's upwind step that of its run,
// consecutive runs different, together every velocity in order. Signs that alternate every
// velocity give no runs.
TEST(Streaming, SignRunsOfAnOctantOrderedSet) {
  VelocityGridSpec spec;
  spec.nodes = {16, 16, 16};
  const VelocityGrid vg = make_cartesian_velocity_grid(spec);
  const int nv = vg.size(), table = stream_table_stride(nv);
  std::vector<float> fraction(2 * table, 0.0f);
  for (int v = 0; v < nv; ++v)
    for (int k = 0; k < 2; ++k) fraction[k * table + v] = float(0.1 * vg.xi[k][v]);
  const std::vector<StreamRun> runs = sign_runs(fraction, 2, table, nv);
  ASSERT_GE(runs.size(), 4u);
  ASSERT_LE(runs.size(), 8u);
  int next = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    EXPECT_EQ(runs[r].begin, next);
    EXPECT_GT(runs[r].end, runs[r].begin);
    next = runs[r].end;
    for (int v = runs[r].begin; v < runs[r].end; ++v)
      for (int k = 0; k < 2; ++k)
        EXPECT_EQ(runs[r].step[k], vg.xi[k][v] > 0 ? -1 : 1) << "run " << r << " v " << v;
    if (r > 0) {
      EXPECT_FALSE(runs[r].step[0] == runs[r - 1].step[0] &&
                   runs[r].step[1] == runs[r - 1].step[1]);
    }
  }
  EXPECT_EQ(next, nv);
  std::vector<double> alternating(table);
  for (int v = 0; v < nv; ++v) alternating[v] = v % 2 ? 0.5 : -0.5;
  EXPECT_TRUE(sign_runs(alternating, 1, table, nv).empty());
}

// The CPU's first-order streaming by runs (StreamTables::stream_runs) gives the values of the
// per-velocity update (value: both neighbours loaded, one selected) bit for bit, with zero
// fractions (xi = 0: step 0) and per-cell scales (stretched axes): the run loop changes which
// loads a velocity makes, not its arithmetic.
template <class Real>
void expect_runs_match_per_velocity() {
  const int nv = 48, table = stream_table_stride(nv);
  // Along x negative for v < 24, positive after; along y blocks of 8: negative, zero, positive.
  std::vector<Real> fraction(2 * table, Real(0));
  for (int v = 0; v < nv; ++v) {
    fraction[v] = Real((v < 24 ? -1 : 1) * (0.1 + 0.8 * test::hash01(v)));
    fraction[table + v] = Real(((v / 8) % 3 - 1) * (0.1 + 0.8 * test::hash01(100 + v)));
  }
  const std::vector<StreamRun> runs = sign_runs(fraction, 2, table, nv);
  ASSERT_EQ(runs.size(), 6u);
  std::vector<Real> f(9 * nv);  // 3 x 3 padded cells, packed rows
  for (std::size_t k = 0; k < f.size(); ++k) f[k] = Real(0.5 + test::hash01(1000 + k));
  const Real scale_x[3] = {Real(0.7), Real(1.3), Real(0.9)};
  const Real scale_y[3] = {Real(1.1), Real(0.6), Real(1.7)};
  StreamTables<Real> t{};
  t.signed_fraction = fraction.data();
  t.scale[0] = scale_x;
  t.scale[1] = scale_y;
  t.stride[0] = t.near_stride[0] = nv;
  t.stride[1] = t.near_stride[1] = 3 * nv;
  t.axis[0] = 0;
  t.axis[1] = 1;
  t.axes = 2;
  t.table_stride = table;
  t.order = 1;
  const int ip[1][3] = {{1, 1, 0}};
  const auto streamer = t.template first_order<2, 1, false>(ip);
  const Real* fv = f.data() + 4 * nv;
  std::vector<Real> by_runs(nv), per_velocity(nv);
  const CpuTeam team{};
  streamer.stream_runs(team, StreamRuns{runs.data(), int(runs.size())}, fv, by_runs.data());
  team.for_each(nv,
                [&](int v) { per_velocity[v] = streamer.value(streamer.upwind(v), 0, fv + v); });
  for (int v = 0; v < nv; ++v)
    EXPECT_EQ(std::memcmp(&by_runs[v], &per_velocity[v], sizeof(Real)), 0)
        << "v " << v << ": " << by_runs[v] << " by runs, " << per_velocity[v] << " per velocity";
}

TEST(Streaming, RunsMatchPerVelocityBitForBitDouble) { expect_runs_match_per_velocity<double>(); }
TEST(Streaming, RunsMatchPerVelocityBitForBitFloat) { expect_runs_match_per_velocity<float>(); }

// Both schemes are monotone/TVD for C <= 1: a step profile stays within its
// bounds (to round-off) and the total variation does not grow, over many steps.
TEST(Streaming, UpwindAndLimitedSchemesStayBounded) {
  const std::vector<double> xs{-0.7, 0.3, 0.9};
  const int n = 32, nv = 3;
  for (int order : {1, 2}) {
    const EngineConfig config = streaming_only(
        periodic_line(n, 1.0, 1 + order), line_velocities(xs), 1.0 / n, order);
    auto engine = make_engine(config);
    std::vector<double> f0(n * nv);
    for (int i = 0; i < n; ++i)
      for (int v = 0; v < nv; ++v)
        f0[i * nv + v] = (i >= 8 && i < 20) ? 2.0 : 1.0;
    engine->set_state(f0);
    const double tol = 40 * 4 * kEps * (2.0 + max_target(*engine));
    engine->step(40);
    const std::vector<double> f = engine->state();
    for (int v = 0; v < nv; ++v) {
      double tv = 0.0;
      for (int i = 0; i < n; ++i) {
        const double x = f[i * nv + v];
        EXPECT_GE(x, 1.0 - tol);
        EXPECT_LE(x, 2.0 + tol);
        tv += std::abs(f[((i + 1) % n) * nv + v] - x);
      }
      EXPECT_LE(tv, 2.0 + n * tol) << "order " << order << " v " << v;
    }
  }
}

} // namespace
} // namespace bolt
