#include "models/hs_mc/collision.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/sums.hpp"
#include "kernels/hs_mc/samples.hpp"
#include "physics/collision_kernel.hpp"

namespace bolt {

McTables make_mc_tables(const VelocityGrid& velocities) {
  const VelocityGrid& vg = velocities;
  McTables t;
  int n[3];
  for (int a = 0; a < 3; ++a) {
    t.faces[a] = vg.axes[a].faces;
    n[a] = vg.axes[a].cells();
    require(n[a] >= 1 && int(t.faces[a].size()) == n[a] + 1,
            "Monte Carlo collision: the velocity grid has no Cartesian axes");
  }
  require(vg.full_box && std::int64_t(n[0]) * n[1] * n[2] == vg.size(),
          "-model_type hs_mc: needs the full Cartesian velocity box (-vgrid_type cartesian; ", n[0],
          " x ", n[1], " x ", n[2], " cells, the set has ", vg.size(), " velocities)");
  t.node_of.assign(vg.size(), -1);
  const double pi = 3.14159265358979323846;
  const double phi0_norm = 1.0 / (pi * std::sqrt(pi));
  t.number_weight.resize(vg.size());
  t.inv_number_weight.resize(vg.size());
  for (int v = 0; v < vg.size(); ++v) {
    t.node_of[vg.node[0][v] + n[0] * (vg.node[1][v] + n[1] * vg.node[2][v])] = v;
    double xi2 = 0.0;
    for (int a = 0; a < 3; ++a) xi2 += vg.xi[a][v] * vg.xi[a][v];
    t.number_weight[v] = vg.weight[v] * phi0_norm * std::exp(-xi2);
    require(t.number_weight[v] > 0.0, "Monte Carlo collision: velocity node ", v,
            " at |xi|^2 = ", xi2, " has Phi0 = 0 in double; use a smaller velocity box");
    t.inv_number_weight[v] = 1.0 / t.number_weight[v];
  }
  return t;
}

McCorrectionSummary summarize_records(const std::vector<double>& records, double epsilon) {
  McCorrectionSummary s;
  for (std::size_t c = 0; c + kMcRecord <= records.size(); c += kMcRecord) {
    const double* r = records.data() + c;
    double y2 = 0.0;
    for (int k = 0; k < 5; ++k) y2 += r[k] * r[k];
    s.max_y = std::max(s.max_y, std::sqrt(y2));
    s.max_drift[0] = std::max(s.max_drift[0], std::abs(r[5]));
    s.max_drift[1] = std::max(s.max_drift[1], std::sqrt(r[6] * r[6] + r[7] * r[7] + r[8] * r[8]));
    s.max_drift[2] = std::max(s.max_drift[2], std::abs(r[9]));
  }
  s.max_abc = std::abs(epsilon) * s.max_y;
  return s;
}

McTeamLayout mc_team_layout(const TeamSharedMemory& shared, int nv, int g_samples,
                            std::size_t real_size, int cells_per_team, int rows_in_scratch,
                            int strips, int team_size) {
  require(cells_per_team >= 0 && cells_per_team <= kMcMaxCellsPerTeam, "-mc_cells_per_team ",
          cells_per_team, ": must be 0 (as many as fit), 1 or 2");
  const auto bytes = [&](int cells, bool rows) {
    return std::size_t(
        mc_scratch_bytes(cells, rows, nv, g_samples, strips, std::int64_t(real_size)));
  };
  if (shared.alone == 0)  // the CPU: one cell per thread, its output row as the working row
    return {1, false, bytes(1, false), team_size};
  // The reduction buffer of the team (launch_cuda.cuh) takes its share of the shared memory.
  const auto needs = [&](int cells, bool rows) {
    return bytes(cells, rows) +
           std::size_t(kMaxWarpsPerTeam) * mc_reduce_width(true, cells) * sizeof(double);
  };
  // Left to choose: two teams per multiprocessor, else one, for as many cells as fit: more
  // cells per team share each entry of the gather plan, and a second team per multiprocessor
  // runs while the first waits at a barrier (docs/benchmarks.md).
  const int largest = cells_per_team > 0 ? cells_per_team : kMcMaxCellsPerTeam;
  const int smallest = cells_per_team > 0 ? cells_per_team : 1;
  // Rows outside the scratch only with one cell per team (McCollision's RowsInScratch).
  for (bool rows : {true, false}) {
    if ((rows && rows_in_scratch == 0) || (!rows && rows_in_scratch == 1)) continue;
    for (int cells = rows ? largest : 1; cells >= smallest; cells /= 2) {
      if (needs(cells, rows) <= shared.paired)
        return {cells, rows, bytes(cells, rows), team_size > 0 ? team_size : kMcPairedTeamThreads};
      if (needs(cells, rows) <= shared.alone)
        return {cells, rows, bytes(cells, rows), team_size > 0 ? team_size : kMcTeamThreads};
    }
  }
  // The least this request needs: one cell may leave its row outside, more than one may not.
  const bool rows_needed = smallest > 1 || rows_in_scratch == 1;
  fail("Monte Carlo collision: ", smallest, " cell(s) per team with ", nv, " velocities need ",
       needs(smallest, rows_needed), " bytes of GPU shared memory",
       rows_needed ? " (with the rows in it)" : "", "; the device allows ", shared.alone,
       ". Use -precision float", smallest > 1 ? " or -mc_cells_per_team 1" : "",
       g_samples > 0 ? " or fewer samples (-mc_samples)" : "", " or fewer velocities");
}

double mc_acceptance(const McTables& t, const double xi[3], double omega) {
  // Samples of (v1, k) with v fixed at xi: Philox keyed by a constant and the position, so the
  // estimate is the same on every run and backend. Its statistical error is frozen in: ~3 % of
  // the acceptance in edge cells (where it is ~0.5), ~0 where nothing leaves the box. More samples
  // would cost start-up time (this runs for every velocity cell).
  constexpr int kSamples = 256;
  std::uint32_t position = 0;
  for (int a = 0; a < 3; ++a)
    position = position * 2654435761u + std::uint32_t(std::llround((xi[a] + 100.0) * 1e6));
  const auto inside = [&](const double v[3]) {
    for (int a = 0; a < 3; ++a)
      if (!(v[a] >= t.faces[a].front() && v[a] <= t.faces[a].back())) return false;
    return true;
  };
  double all = 0.0, accepted = 0.0;
  for (int l = 0; l < kSamples; ++l) {
    // From Phi0 (temperature 1) whatever -mc_sampling_temperature is: the acceptance is the
    // expectation over Phi0 Phi0, which importance weights keep.
    McDraw d = draw_collision(0x5e1f1055u, position, std::uint32_t(l), 1.0);
    for (int a = 0; a < 3; ++a) d.v[a] = xi[a];
    double vs[3], v1s[3];
    const double w = post_collision(d, omega, vs, v1s);
    all += w;
    if (inside(d.v1) && inside(vs) && inside(v1s)) accepted += w;
  }
  return all > 0.0 ? accepted / all : 1.0;
}

std::vector<double> mc_expected_self_loss(const McTables& t, double kappa, double dt,
                                          double omega) {
  const double pi = 3.14159265358979323846, p = 2.0 - 2.0 * omega;
  int n[3];
  double largest2 = 0.0;
  for (int a = 0; a < 3; ++a) {
    n[a] = int(t.faces[a].size()) - 1;
    const double edge = std::max(std::abs(t.faces[a].front()), std::abs(t.faces[a].back()));
    largest2 += edge * edge;
  }
  // m(c) tabulated (linear interpolation, step 0.005: error ~3e-6 of m).
  const double step = 0.005;
  std::vector<double> m(std::size_t(std::sqrt(largest2) / step) + 3);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = mean_relative_speed_power(i * step, p);
  const auto m_at = [&](double c) {
    const double x = c / step;
    const std::size_t i = std::min(std::size_t(x), m.size() - 2);
    return m[i] + (x - double(i)) * (m[i + 1] - m[i]);
  };
  // 6-point Gauss-Legendre per axis over the cell (Phi0 falls by up to e^-3 across a tail cell).
  const double node[6] = {-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                          0.2386191860831969,  0.6612093864662645,  0.9324695142031521};
  const double weight[6] = {0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                            0.4679139345726910, 0.3607615730481386, 0.1713244923791704};
  std::vector<double> loss(t.number_weight.size(), 0.0);
#pragma omp parallel for collapse(2) schedule(dynamic)
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) {
        const int cell[3] = {i, j, k};
        double centre[3], half[3];
        for (int a = 0; a < 3; ++a) {
          centre[a] = 0.5 * (t.faces[a][cell[a]] + t.faces[a][cell[a] + 1]);
          half[a] = 0.5 * (t.faces[a][cell[a] + 1] - t.faces[a][cell[a]]);
        }
        double integral = 0.0;
        for (int a = 0; a < 6; ++a)
          for (int b = 0; b < 6; ++b)
            for (int c = 0; c < 6; ++c) {
              const double x = centre[0] + half[0] * node[a], y = centre[1] + half[1] * node[b],
                           z = centre[2] + half[2] * node[c];
              const double r2 = x * x + y * y + z * z;
              integral += weight[a] * weight[b] * weight[c] * std::exp(-r2) * m_at(std::sqrt(r2));
            }
        integral *= half[0] * half[1] * half[2] / (pi * std::sqrt(pi));
        const int v = t.node_of[i + n[0] * (j + n[1] * k)];
        loss[v] = kappa * dt * integral * mc_acceptance(t, centre, omega) / t.number_weight[v];
      }
  return loss;
}

std::unique_ptr<McCollisionOperator> make_mc_collision(const McConfig& config) {
  if (config.backend == Backend::cpu) return make_cpu_mc_collision(config);
#ifdef BOLT_HAVE_CUDA
  return make_cuda_mc_collision(config);
#else
  fail("-backend cuda: this bolt was built without the CUDA backend (no nvcc at build time)");
#endif
}

}  // namespace bolt
