// The CPU's row of the fused step (kernels/fused_step.hpp, stream_row): its float moment sums.
#include <gtest/gtest.h>

#include <vector>

#include "core/launch_cpu.hpp"
#include "kernels/fused_step.hpp"
#include "kernels/relaxation/bgk.hpp"
#include "kernels/relaxation/esbgk.hpp"
#include "kernels/relaxation/shakhov.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

// The CPU's float moment sums (stream_row, kernels/fused_step.hpp) add in double through the
// double copies of the velocity tables (CpuRowTables::sum_vel, made as RelaxationOperator makes
// them: double(float(value))). They must equal, bit for bit, the sums formed in double from the
// float values and those tables in the CPU reduction's order (CpuTeam::reduce: item i in lane
// i mod 16, the lanes added in order), computed here without the kernels; and the sums taken
// through the float tables themselves, since the copies hold the same values (they spare a
// conversion per velocity and cell, they change no sum). Exact: IEEE double in one fixed order,
// nothing contracted to FMA (this unit, like the CPU units, takes -ffp-contract=off).
template <class Evaluator>
Sums<Evaluator::kSums> cpu_row_sums(const Velocities<float>& vel, const CpuRowTables& cpu,
                                    const std::vector<float>& row) {
  using Relax = Relaxation<float, Evaluator, false>;
  StreamTables<float> stream{};  // the relaxation pass's (Stream = false): no axes, no shifts
  stream.order = 1;
  const int ip[1][3] = {{0, 0, 0}};
  std::vector<float> out(row.size());
  return stream_row<false>(CpuTeam{}, stream, vel, cpu, Relax{RelaxationParams{}}, row.data(), ip,
                           out.data());
}

void expect_float_sums_through_double_tables(unsigned reduced) {
  const int nv = 2 * 37;  // not a whole number of the reduction's 16 lanes; g/h pairs if reduced
  std::vector<float> x(nv), y(nv), z(nv), w(nv), h(nv), f(nv);
  for (int v = 0; v < nv; ++v) {
    const bool h_node = reduced != 0 && v % 2 == 1;
    // Values with full float mantissas, so that products and sums round in double.
    x[v] = float(-3.1 + 6.2 * test::hash01(v));
    y[v] = float(-3.1 + 6.2 * test::hash01(100 + v));
    z[v] = reduced & 4u ? 0.0f : float(-3.1 + 6.2 * test::hash01(200 + v));
    w[v] = h_node ? 0.0f : float(0.01 + 0.1 * test::hash01(300 + v));
    h[v] = h_node ? float(0.02 + 0.2 * test::hash01(400 + v)) : 0.0f;
    f[v] = float(1e-3 + test::hash01(500 + v));
  }
  Velocities<float> vel{x.data(), y.data(), z.data(), w.data(), nv, nv};
  if (reduced != 0) {
    vel.h = h.data();
    vel.reduced = reduced;
  }
  const auto to_double = [](const std::vector<float>& t) {
    return std::vector<double>(t.begin(), t.end());
  };
  const std::vector<double> dx = to_double(x), dy = to_double(y), dz = to_double(z),
                            dw = to_double(w), dh = to_double(h);
  CpuRowTables through_double{};
  through_double.sum_vel = {dx.data(), dy.data(), dz.data(), dw.data(), nv, nv,
                            reduced ? dh.data() : nullptr, reduced};
  const Sums<5> sums = cpu_row_sums<Bgk>(vel, through_double, f);

  // The reference: BGK's mass, momentum and energy sums (the h nodes' |xi_r|^2 moment added to
  // the energy's), lane by lane.
  constexpr int kLanes = CpuTeam::kReduceLanes;
  double lane[5][kLanes] = {};
  for (int v = 0; v < nv; ++v) {
    const double wf = dw[v] * double(f[v]);
    const double share[5] = {wf, wf * dx[v], wf * dy[v], wf * dz[v],
                             wf * (dx[v] * dx[v] + dy[v] * dy[v] + dz[v] * dz[v]) +
                                 (reduced ? dh[v] * double(f[v]) : 0.0)};
    for (int k = 0; k < 5; ++k) lane[k][v % kLanes] += share[k];
  }
  for (int k = 0; k < 5; ++k) {
    double expected = lane[k][0];
    for (int j = 1; j < kLanes; ++j) expected += lane[k][j];
    EXPECT_EQ(sums[k], expected) << "sum " << k << ", reduced " << reduced;
  }

  // Through the float tables (no double copies: sum_vel.x null), the same sums, for every model's.
  const CpuRowTables through_float{};
  const Sums<5> by_float = cpu_row_sums<Bgk>(vel, through_float, f);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(by_float[k], sums[k]) << "sum " << k;
  const auto same = [&](auto evaluator) {
    using Evaluator = decltype(evaluator);
    const auto a = cpu_row_sums<Evaluator>(vel, through_double, f);
    const auto b = cpu_row_sums<Evaluator>(vel, through_float, f);
    for (int k = 0; k < Evaluator::kSums; ++k) EXPECT_EQ(a[k], b[k]) << "sum " << k;
  };
  same(Shakhov{});
  same(EsBgk{});
}

TEST(FusedStep, CpuFloatSumsThroughDoubleTablesAreExact) {
  expect_float_sums_through_double_tables(0);   // 3V
  expect_float_sums_through_double_tables(4u);  // 2V: xi_z reduced, g and h nodes
}

}  // namespace
}  // namespace bolt
