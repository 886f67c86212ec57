#pragma once
// The collision step of the semi-regular Monte Carlo method (paper 000, Eqs. 23-26, algorithm 3)
// for the deviational distribution h, f = Phi0 (1 + eps h), as team functors.
//
// Eq. 24 for one cell: every sample l of the step (mc_samples.hpp) takes
// g_l = h~(v) + h~(v1) + eps h~(v) h~(v1) from the *unchanged* post-streaming row h~ and adds
//   -coef_0 g_l at v, -coef_1 g_l at v1, +coef_2 g_l at v*, +coef_3 g_l at v1*.
// The paper scatters these four increments per sample (atomics on the GPU). Here they are
// gathered instead: the samples of a step are the same in every cell, so once per step
// McEntryIndex lists the increments by the velocity they land on (entries, sorted within a
// velocity by (sample, slot)), and a cell then needs
//   h'(v) = h~(v) + sum over the entries e of v of coef_e g_(sample of e).
// Why: shared-memory float atomics are compare-and-swap loops on current GPUs (several times the
// cost of a load and an add), a thread block can share each entry between several cells, and the
// sum has a fixed order -- the step is bitwise reproducible and the CPU adds in the same order.
//
// McCollision, per team of up to `cells_per_team` cells:
//  1. copy h~ of each cell to its working row (team scratch, or the output row) and sum its
//     conserved moments M~_k = sum_v w_v Phi0_v psi_k(xi_v) h~_v, psi = (1, xi, |xi|^2);
//  2. g_l of every sample and cell into the team scratch;
//  3. every velocity sums its entries: the working row becomes h';
//  4. conservation correction (Eqs. 25, 26): h_new = h' + (1 + eps h') (y_0 + y . xi + y_4 |xi|^2)
//     with y from the 5 x 5 system
//       sum_v w Phi0 (1 + eps h') psi_k psi_l  y_l = M~_k - M'_k,
//     so that the moments of h_new equal M~. In the paper's notation A = eps y_0,
//     B = eps (y_1, y_2, y_3), C = eps y_4: the correction multiplies the full f by
//     1 + A + B . xi + C |xi|^2. Solving for y keeps the system O(1) for any eps (also eps -> 0,
//     the linearised equation). M~ - M' is a difference of two double sums; the change per step
//     is ~dt / tau of M, so it keeps ~13 digits.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "mc_samples.hpp"
#include "small_solve.hpp"
#include "views.hpp"

namespace bolt {

// none: no correction (h_new = h'); batched: solve the 5 x 5 system in the kernel and apply it;
// external: write the system per cell for a solver outside (PETSc), then McApplyCorrection.
enum class McCorrection { none, batched, external };

// Per cell record: y (5; the correction in units of h, A B C = eps y) and the drift of the
// conserved moments caused by the Monte Carlo step itself, M' - M~ (5).
constexpr int kMcRecord = 10;
// Per cell system for an external solver: the 5 x 5 matrix, row-major, then the right side.
constexpr int kMcSystem = 30;
// Cells one team works on at most (their accumulators live in registers).
constexpr int kMcMaxCellsPerTeam = 8;

// psi = (1, xi_x, xi_y, xi_z, |xi|^2) at velocity v.
template <class Real>
BOLT_HOST_DEVICE inline void collision_invariants(const Velocities<Real>& vel, int v, double psi[5]) {
  const double x = vel.x[v], y = vel.y[v], z = vel.z[v];
  psi[0] = 1.0;
  psi[1] = x;
  psi[2] = y;
  psi[3] = z;
  psi[4] = x * x + y * y + z * z;
}

// One increment of a step: sample `key / 4`, slot `key % 4` (v, v1, v*, v1*), with its sign
// (losses negative).
template <class Real>
struct McEntry {
  int key;
  Real coef;
};

// Lists the increments of the current samples by the velocity they land on: entries of velocity
// j are entries[start[j] .. start[j + 1]), in increasing key. One team does it all (item 0): the
// lists are shared by every cell, and a step has only 4 N_t entries.
template <class Real>
struct McEntryIndex {
  const McSample<Real>* samples;
  int n_samples;
  int nv;
  int* start;        // [nv + 1]
  int* cursor;       // [nv + chunks]: counts, then fill positions; chunk totals behind them
  McEntry<Real>* entries;  // [4 n_samples]

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t) const {
    const int entries_total = 4 * n_samples;
    team.for_each(nv, [&](int j) { cursor[j] = 0; });
    team.sync();
    team.for_each_scatter(entries_total, [&](int e) {
      const McSample<Real>& s = samples[e / 4];
      if (s.cell[0] >= 0) team.atomic_fetch_add(cursor + s.cell[e % 4], 1);
    });
    team.sync();
    // Exclusive scan of the counts in chunks of about sqrt(nv): chunk totals, then every chunk
    // starts after the totals before it.
    int chunk = 1;
    while (chunk * chunk < nv) ++chunk;
    const int chunks = (nv + chunk - 1) / chunk;
    int* total = cursor + nv;
    team.for_each(chunks, [&](int c) {
      int sum = 0;
      for (int j = c * chunk; j < nv && j < (c + 1) * chunk; ++j) sum += cursor[j];
      total[c] = sum;
    });
    team.sync();
    team.for_each(chunks, [&](int c) {
      int offset = 0;
      for (int b = 0; b < c; ++b) offset += total[b];
      for (int j = c * chunk; j < nv && j < (c + 1) * chunk; ++j) {
        const int count = cursor[j];
        start[j] = offset;
        cursor[j] = offset;
        offset += count;
      }
      if (c == chunks - 1) start[nv] = offset;
    });
    team.sync();
    team.for_each_scatter(entries_total, [&](int e) {
      const McSample<Real>& s = samples[e / 4];
      if (s.cell[0] < 0) return;
      const int slot = e % 4;
      const int at = team.atomic_fetch_add(cursor + s.cell[slot], 1);
      entries[at] = {e, slot < 2 ? -s.coef[slot] : s.coef[slot]};
    });
    team.sync();
    // The fill order above is the threads' order: sort each list by key (lists are short).
    team.for_each(nv, [&](int j) {
      for (int a = start[j] + 1; a < start[j + 1]; ++a) {
        const McEntry<Real> moving = entries[a];
        int b = a;
        for (; b > start[j] && entries[b - 1].key > moving.key; --b) entries[b] = entries[b - 1];
        entries[b] = moving;
      }
    });
  }
};

// Reals of team scratch McCollision needs: g of every sample per cell, and the working rows when
// they are kept there.
inline std::int64_t mc_scratch_reals(int cells_per_team, bool rows_in_scratch, int nv,
                                     int samples) {
  return std::int64_t(cells_per_team) * (samples + (rows_in_scratch ? nv : 0));
}

template <class Real, McCorrection Mode>
struct McCollision {
  // Reduction width: 5 moments, plus the 15 distinct entries of the symmetric 5 x 5 matrix.
  static constexpr int kSums = Mode == McCorrection::none ? 5 : 20;

  const Real* h_in;  // post-streaming h~ (padded cell numbering, velocity fastest)
  Real* h_out;       // h_new; must not alias h_in
  Velocities<Real> vel;
  const double* number_weight;  // [v] w_v Phi0(xi_v)
  const McSample<Real>* samples;
  int n_samples;
  const int* entry_start;          // McEntryIndex
  const McEntry<Real>* entries;
  CellIndexer cells;
  std::int64_t n_cells;
  int cells_per_team;    // <= kMcMaxCellsPerTeam
  bool rows_in_scratch;  // working rows in the team scratch (else in the output rows)
  Real epsilon;
  double* record;  // [cell * kMcRecord] or nullptr
  double* system;  // [cell * kMcSystem], external mode only

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t group) const {
    const int nv = vel.n;
    const std::int64_t first = group * cells_per_team;
    const int count = int(n_cells - first < cells_per_team ? n_cells - first : cells_per_team);
    Real* scratch = team.row_scratch(static_cast<Real*>(nullptr));
    Real* g = scratch + (rows_in_scratch ? cells_per_team * nv : 0);  // [cell][sample]
    std::int64_t padded[kMcMaxCellsPerTeam];
    Real* rows[kMcMaxCellsPerTeam];
    for (int c = 0; c < count; ++c) {
      padded[c] = cells.padded(cells.coord(first + c));
      rows[c] = rows_in_scratch ? scratch + c * nv : h_out + padded[c] * nv;
    }

    // 1. the working rows and the moments they start from.
    double before[kMcMaxCellsPerTeam][5];
    for (int c = 0; c < count; ++c) {
      const Real* in = h_in + padded[c] * nv;
      Real* row = rows[c];
      const Sums<5> m = team.template reduce<5>(nv, [&](int v, Sums<5>& s) {
        const Real h = in[v];
        row[v] = h;
        double psi[5];
        collision_invariants(vel, v, psi);
        const double n = number_weight[v] * double(h);
        for (int k = 0; k < 5; ++k) s[k] += n * psi[k];
      });
      for (int k = 0; k < 5; ++k) before[c][k] = m[k];
    }
    team.sync();

    // 2. g of every sample (0 for rejected ones: they have no entries anyway).
    team.for_each(n_samples, [&](int l) {
      const int a = samples[l].cell[0], b = samples[l].cell[1];
      for (int c = 0; c < kMcMaxCellsPerTeam; ++c) {
        if (c >= count) break;
        Real value = Real(0);
        if (a >= 0) {
          const Real h = rows[c][a], h1 = rows[c][b];
          value = h + h1 + epsilon * h * h1;
        }
        g[c * n_samples + l] = value;
      }
    });
    team.sync();

    // 3. gather the increments: h' = h~ + sum of the velocity's entries.
    team.for_each(nv, [&](int v) {
      Real sum[kMcMaxCellsPerTeam];
      for (int c = 0; c < kMcMaxCellsPerTeam; ++c) sum[c] = Real(0);
      const int end = entry_start[v + 1];
      for (int e = entry_start[v]; e < end; ++e) {
        const McEntry<Real> entry = entries[e];
        const int l = entry.key >> 2;
        for (int c = 0; c < kMcMaxCellsPerTeam; ++c) {
          if (c >= count) break;
          sum[c] += entry.coef * g[c * n_samples + l];
        }
      }
      for (int c = 0; c < kMcMaxCellsPerTeam; ++c) {
        if (c >= count) break;
        rows[c][v] += sum[c];
      }
    });
    team.sync();

    // 4. per cell: the moments of h', the correction, the new row.
    const double eps = double(epsilon);
    for (int c = 0; c < count; ++c) {
      const Real* row = rows[c];
      const Sums<kSums> sums = team.template reduce<kSums>(nv, [&](int v, Sums<kSums>& s) {
        const double h = double(row[v]);
        double psi[5];
        collision_invariants(vel, v, psi);
        const double wn = number_weight[v];
        for (int k = 0; k < 5; ++k) s[k] += wn * h * psi[k];
        if constexpr (kSums == 20) {
          const double wf = wn * (1.0 + eps * h);
          int m = 5;
          for (int k = 0; k < 5; ++k)
            for (int j = k; j < 5; ++j) s[m++] += wf * psi[k] * psi[j];
        }
      });
      const std::int64_t cell = first + c;
      double y[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
      if constexpr (Mode != McCorrection::none) {
        double A[5][5];
        int m = 5;
        for (int k = 0; k < 5; ++k)
          for (int j = k; j < 5; ++j) A[k][j] = A[j][k] = sums[m++];
        for (int k = 0; k < 5; ++k) y[k] = before[c][k] - sums[k];
        if (Mode == McCorrection::external && team.leader()) {
          double* out = system + cell * kMcSystem;
          for (int k = 0; k < 5; ++k) {
            for (int j = 0; j < 5; ++j) out[5 * k + j] = A[k][j];
            out[25 + k] = y[k];
          }
        }
        // Every thread solves the same system with the same operations: the same y everywhere.
        if (Mode == McCorrection::external || !solve_dense<5>(A, y))
          for (int k = 0; k < 5; ++k) y[k] = 0.0;  // external: applied later; singular: none
      }
      if (record && team.leader()) {
        double* out = record + cell * kMcRecord;
        for (int k = 0; k < 5; ++k) {
          out[k] = y[k];
          out[5 + k] = sums[k] - before[c][k];
        }
      }
      Real* out = h_out + padded[c] * nv;
      const Real y0 = Real(y[0]), y1 = Real(y[1]), y2 = Real(y[2]), y3 = Real(y[3]),
                 y4 = Real(y[4]);
      team.for_each(nv, [&](int v) {
        const Real h = row[v];
        if constexpr (Mode == McCorrection::batched) {
          const Real x = vel.x[v], yv = vel.y[v], z = vel.z[v];
          const Real corr = y0 + y1 * x + y2 * yv + y3 * z + y4 * (x * x + yv * yv + z * z);
          out[v] = h + (Real(1) + epsilon * h) * corr;
        } else {
          out[v] = h;
        }
      });
    }
  }
};

// Applies corrections solved outside the kernel: h += (1 + eps h) (y_0 + y . xi + y_4 |xi|^2),
// y = correction[item * 5 ...].
template <class Real>
struct McApplyCorrection {
  Real* h;
  Velocities<Real> vel;
  const double* correction;  // [item * 5]
  CellIndexer cells;
  Real epsilon;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const std::int64_t p = cells.padded(cells.coord(item));
    Real* row = h + p * vel.n;
    const double* y = correction + item * 5;
    const Real y0 = Real(y[0]), y1 = Real(y[1]), y2 = Real(y[2]), y3 = Real(y[3]), y4 = Real(y[4]);
    team.for_each(vel.n, [&](int v) {
      const Real x = vel.x[v], yv = vel.y[v], z = vel.z[v];
      const Real c = y0 + y1 * x + y2 * yv + y3 * z + y4 * (x * x + yv * yv + z * z);
      row[v] += (Real(1) + epsilon * row[v]) * c;
    });
  }
};

}  // namespace bolt
