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
// Expected self-loss (-mc_self_loss expected, the default; not in the paper). A loss increment
// -coef_a g at the sample's own cell a holds the self term -coef_a h_a: h_a is multiplied by a
// random 1 - sum coef_a per step. In a far-tail cell (N_t w_a Phi0_a << 1, coef_a >> 1) that
// factor is rarely hit but then large, and the product grows without bound (docs/physics.md,
// "Noise in the far tail"; the delta = 10 cavity turns to NaN by t = 0.7 in float). Its
// expectation is the deterministic L_a = kappa dt J_a / (w_a Phi0_a) (mc_expected_self_loss): the
// step adds (sum coef_a - L_a) h_a back, i.e. keeps the partner and gain terms sampled and takes
// the self term of the linear loss in expectation. The eps h_a h_b part stays sampled (eps
// smaller). Its mean is Eq. 24's: L_a includes the box's rejection of samples (mc_acceptance).
//
// McCollision, per team of up to `cells_per_team` cells:
//  1. stream h into the working row of each cell (team scratch, or the output row), or copy h~
//     when it comes streamed, and sum its conserved moments
//       M~_k = sum_v w_v Phi0_v psi_k(xi_v) h~_v,  psi = (1, xi, |xi|^2);
//  2. g_l of every sample and cell into the team scratch;
//  3. every velocity sums its entries: the working row becomes h';
//  4. conservation correction (Eqs. 25, 26), one thread per cell for the 5 x 5 solves:
//       h_new = h' + (1 + eps h') (y_0 + y . xi + y_4 |xi|^2)
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
#include "streaming.hpp"
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
// Cells one team works on at most (their accumulators live in registers): 1, 2 or 4.
constexpr int kMcMaxCellsPerTeam = 4;

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
// lists are shared by every cell, and a step has only 4 N_t entries. The keys are counted, placed
// and ranked in the team scratch when it is given (GPU shared memory: ranking reads a key's whole
// list), else in `work`.
template <class Real>
struct McEntryIndex {
  const McSample<Real>* samples;
  int n_samples;
  int nv;
  int* start;              // [nv + 1]
  int* work;               // [mc_index_work_ints] when the team has no scratch
  McEntry<Real>* entries;  // [4 n_samples]
  // -mc_self_loss expected: L_v (mc_expected_self_loss) in, the per-step replacement of the
  // sampled self-loss out (see McCollision, step 3); nullptr: sampled (paper 000 Eq. 24).
  const Real* expected_self_loss;
  Real* self_adjust;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t) const {
    const int entries_total = 4 * n_samples;
    int* keys = team.row_scratch(work);  // [4 n_samples], then cursor [nv], then chunk totals
    int* cursor = keys + entries_total;
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
      if (s.cell[0] >= 0) keys[team.atomic_fetch_add(cursor + s.cell[e % 4], 1)] = e;
    });
    team.sync();
    // The placing order above is the threads' order. The rank of a key within its list (how
    // many keys of the list are smaller) is its place in the sorted list; every placed key finds
    // its rank independently (lists are short: at most a few hundred).
    team.for_each(start[nv], [&](int a) {
      const int key = keys[a];
      const McSample<Real>& s = samples[key / 4];
      const int slot = key % 4, v = s.cell[slot];
      const int first = start[v], end = start[v + 1];
      int rank = 0;
      for (int b = first; b < end; ++b) rank += keys[b] < key;
      entries[first + rank] = {key, slot < 2 ? -s.coef[slot] : s.coef[slot]};
    });
    if (!self_adjust) return;
    team.sync();
    // The sampled self-loss rate of velocity v this step (sum of its loss increments, in list
    // order), taken out and replaced by its expectation.
    team.for_each(nv, [&](int v) {
      Real sampled = Real(0);
      for (int e = start[v]; e < start[v + 1]; ++e)
        if (entries[e].key % 4 < 2) sampled -= entries[e].coef;
      self_adjust[v] = sampled - expected_self_loss[v];
    });
  }
};

// Ints of work space McEntryIndex needs: the keys, the counts and the chunk totals.
inline std::int64_t mc_index_work_ints(int nv, int samples) {
  return 4 * std::int64_t(samples) + 2 * std::int64_t(nv);
}

// Doubles of team scratch per cell: M~ (5), M' (5), the matrix (15), then y (5).
constexpr int kMcCellDoubles = 30;

// Bytes of team scratch McCollision needs: kMcCellDoubles per cell, g of every sample per cell,
// and the working rows when they are kept there.
inline std::int64_t mc_scratch_bytes(int cells_per_team, bool rows_in_scratch, int nv, int samples,
                                     std::int64_t real_size) {
  return std::int64_t(cells_per_team) *
         (kMcCellDoubles * std::int64_t(sizeof(double)) +
          real_size * (samples + (rows_in_scratch ? nv : 0)));
}

// Cells is the number of cells per team, a compile-time constant so that the per-cell loops in
// the innermost gathers unroll completely; the last team of a box may have fewer (`count`).
template <class Real, McCorrection Mode, int Cells>
struct McCollision {
  static_assert(Cells >= 1 && Cells <= kMcMaxCellsPerTeam, "cells per team");
  // Reduction width: the 15 distinct entries of the symmetric 5 x 5 matrix (the 5 moments are a
  // reduction of their own: fewer registers).
  static constexpr int kSums = Mode == McCorrection::none ? 5 : 15;

  // h before the step (padded cell numbering, velocity fastest): streamed here when `streams`
  // (the engine: ghosts filled), else already the post-streaming h~.
  const Real* h_in;
  Real* h_out;  // h_new; must not alias h_in
  Velocities<Real> vel;
  const double* number_weight;  // [v] w_v Phi0(xi_v)
  const McSample<Real>* samples;
  int n_samples;
  const int* entry_start;  // McEntryIndex
  const McEntry<Real>* entries;
  const int* gather_order;  // velocities by decreasing expected list length (see step 3)
  const Real* self_adjust;  // McEntryIndex; nullptr: the sampled self-loss (paper 000)
  StreamTables<Real> stream;
  bool streams;
  CellIndexer cells;
  std::int64_t n_cells;
  bool rows_in_scratch;  // working rows in the team scratch (else in the output rows)
  Real epsilon;
  double* record;  // [cell * kMcRecord] or nullptr
  double* system;  // [cell * kMcSystem], external mode only

  // The 5 conserved moments sum_v w Phi0 psi h of a row.
  template <class Team>
  BOLT_HOST_DEVICE Sums<5> moments(const Team& team, const Real* row) const {
    return team.template reduce<5>(vel.n, [&](int v, Sums<5>& s) {
      double psi[5];
      collision_invariants(vel, v, psi);
      const double n = number_weight[v] * double(row[v]);
      for (int k = 0; k < 5; ++k) s[k] += n * psi[k];
    });
  }

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t group) const {
    const int nv = vel.n;
    const std::int64_t first = group * Cells;
    const int count = int(n_cells - first < Cells ? n_cells - first : Cells);
    double* shared = team.row_scratch(static_cast<double*>(nullptr));  // [cell][kMcCellDoubles]
    Real* scratch = reinterpret_cast<Real*>(shared + kMcCellDoubles * Cells);
    Real* g = scratch + (rows_in_scratch ? Cells * nv : 0);  // [cell][sample]
    const auto out_row = [&](int c) { return h_out + cells.padded(cells.coord(first + c)) * nv; };
    // Cells past `count` (last team only) work on scratch or repeat the last cell; never stored.
    const auto row = [&](int c) {
      return rows_in_scratch ? scratch + c * nv : out_row(c < count ? c : count - 1);
    };

    // 1. the working rows h~ (streamed here: one pass over h per step, not three) and the moments
    //    they start from.
    for (int c = 0; c < count; ++c) {
      const auto coord = cells.coord(first + c);
      const Real* in = h_in + cells.padded(coord) * nv;
      const int ip[3] = {coord.i[0] + cells.offset[0], coord.i[1] + cells.offset[1],
                         coord.i[2] + cells.offset[2]};
      Real* r = row(c);
      if (streams)
        team.for_each(nv, [&](int v) { r[v] = stream.value(in + v, ip, v); });
      else
        team.for_each(nv, [&](int v) { r[v] = in[v]; });
      team.sync();
      const Sums<5> m = moments(team, r);
      if (team.leader())
        for (int k = 0; k < 5; ++k) shared[kMcCellDoubles * c + k] = m[k];
    }
    team.sync();

    // 2. g of every sample (0 for rejected ones: they have no entries anyway).
    team.for_each(n_samples, [&](int l) {
      const int a = samples[l].cell[0], b = samples[l].cell[1];
      for (int c = 0; c < Cells; ++c) {
        Real value = Real(0);
        if (a >= 0) {
          const Real* r = row(c);
          const Real h = r[a], h1 = r[b];
          value = h + h1 + epsilon * h * h1;
        }
        g[c * n_samples + l] = value;
      }
    });
    team.sync();

    // 3. gather the increments: h' = h~ + sum of the velocity's entries. The lists near the
    //    origin are ~25 times longer than the mean: velocities are taken longest first
    //    (gather_order), so that the threads of a warp have lists of about the same length, and
    //    entries are loaded kBatch at a time, so that a list costs length / kBatch trips to L2.
    team.for_each_rolled(nv, [&](int i) {
      const int v = gather_order[i];
      Real sum[Cells];
      for (int c = 0; c < Cells; ++c) sum[c] = Real(0);
      const auto add = [&](const McEntry<Real>& entry) {
        const Real* ge = g + (entry.key >> 2);
        for (int c = 0; c < Cells; ++c) sum[c] += entry.coef * ge[c * n_samples];
      };
      constexpr int kBatch = 8;
      const int end = entry_start[v + 1];
      int e = entry_start[v];
      for (; e + kBatch <= end; e += kBatch) {
        McEntry<Real> batch[kBatch];
        for (int k = 0; k < kBatch; ++k) batch[k] = entries[e + k];
        for (int k = 0; k < kBatch; ++k) add(batch[k]);
      }
      for (; e < end; ++e) add(entries[e]);
      const Real adjust = self_adjust ? self_adjust[v] : Real(0);
      for (int c = 0; c < Cells; ++c)
        if (c < count) row(c)[v] += sum[c] + adjust * row(c)[v];
    });
    team.sync();

    // 4. the moments of h' and the correction matrix of every cell, ...
    const double eps = double(epsilon);
    for (int c = 0; c < count; ++c) {
      const Real* r = row(c);
      double* cell_shared = shared + kMcCellDoubles * c;
      const Sums<5> after = moments(team, r);
      if (team.leader())
        for (int k = 0; k < 5; ++k) cell_shared[5 + k] = after[k];
      if constexpr (Mode != McCorrection::none) {
        const Sums<15> matrix = team.template reduce<15>(nv, [&](int v, Sums<15>& s) {
          double psi[5];
          collision_invariants(vel, v, psi);
          const double wf = number_weight[v] * (1.0 + eps * double(r[v]));
          int m = 0;
          for (int k = 0; k < 5; ++k)
            for (int j = k; j < 5; ++j) s[m++] += wf * psi[k] * psi[j];
        });
        if (team.leader())
          for (int k = 0; k < 15; ++k) cell_shared[10 + k] = matrix[k];
      }
    }
    team.sync();
    // ... the 5 x 5 systems, one thread per cell (in parallel), ...
    team.for_each_rolled(count, [&](int c) {
      double* cell_shared = shared + kMcCellDoubles * c;
      const std::int64_t cell = first + c;
      double y[5];
      for (int k = 0; k < 5; ++k) y[k] = cell_shared[k] - cell_shared[5 + k];  // M~ - M'
      if (record) {
        double* out = record + cell * kMcRecord;
        for (int k = 0; k < 5; ++k) out[5 + k] = -y[k];
      }
      if constexpr (Mode != McCorrection::none) {
        double A[5][5];
        int m = 10;
        for (int k = 0; k < 5; ++k)
          for (int j = k; j < 5; ++j) A[k][j] = A[j][k] = cell_shared[m++];
        if (Mode == McCorrection::external) {
          double* out = system + cell * kMcSystem;
          for (int k = 0; k < 5; ++k) {
            for (int j = 0; j < 5; ++j) out[5 * k + j] = A[k][j];
            out[25 + k] = y[k];
          }
        }
        if (Mode == McCorrection::external || !solve_dense<5>(A, y))
          for (int k = 0; k < 5; ++k) y[k] = 0.0;  // external: applied later; singular: none
      } else {
        for (int k = 0; k < 5; ++k) y[k] = 0.0;
      }
      if (record)
        for (int k = 0; k < 5; ++k) record[cell * kMcRecord + k] = y[k];
      for (int k = 0; k < 5; ++k) cell_shared[25 + k] = y[k];
    });
    team.sync();
    // ... and the new rows.
    for (int c = 0; c < count; ++c) {
      const Real* r = row(c);
      const double* y = shared + kMcCellDoubles * c + 25;
      Real* out = out_row(c);
      const Real y0 = Real(y[0]), y1 = Real(y[1]), y2 = Real(y[2]), y3 = Real(y[3]),
                 y4 = Real(y[4]);
      team.for_each(nv, [&](int v) {
        const Real h = r[v];
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
