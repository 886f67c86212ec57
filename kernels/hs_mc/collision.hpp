#pragma once
// The collision step of the semi-regular Monte Carlo method (paper 000, Eqs. 23-26, algorithm 3)
// for the deviational distribution h, f = Phi0 (1 + eps h), as a team functor.
//
// Eq. 24 for one cell: every sample l of the step (samples.hpp) takes
// g_l = h~(v) + h~(v1) + eps h~(v) h~(v1) from the *unchanged* post-streaming row h~ and adds
//   -coef_0 g_l at v, -coef_1 g_l at v1, +coef_2 g_l at v*, +coef_3 g_l at v1*.
// The paper scatters these four increments per sample (atomics on the GPU). Here they are
// gathered instead: the samples of a step are the same in every cell, so once per step
// McEntryIndex lists the increments by the velocity they land on (entries; within a velocity
// its losses, then its gains, each by (sample, slot)), and a cell then needs
//   h'(v) = h~(v) + sum over the entries e of v of coef_e g_(sample of e).
// On the GPU an entry names its sample's v and v1, and g is computed where it is used (a pass
// storing every sample's g costs a pass and shared memory that keeps a second team off the
// multiprocessor); on the CPU, where every entry would compute g again, the entries name their
// sample, and a pass stores every g first.
// Why: shared-memory float atomics are compare-and-swap loops on GPUs (several times the cost of
// a load and an add), a thread block can share each entry between several cells, and the sum has
// a fixed order -- the step is bitwise reproducible.
// The lists are very unequal (near the origin many times the mean, in the corners empty), so the
// sorted entries are cut into `strips` equal strips, one per GPU thread (the gather plan): a
// thread sums its strip's entries, closing a partial sum (a piece) wherever a list ends or the
// strip does, and every velocity then adds its pieces in order. Every thread does the same work,
// and its loads are coalesced (the plan stores the strips interleaved). A CPU team has one strip:
// it walks the lists in order.
// Expected self-loss (-mc_self_loss expected, the default; not in the paper). A loss increment
// -coef_a g at the sample's own cell a holds the self term -coef_a h_a: h_a is multiplied by a
// random 1 - sum coef_a per step. In a far-tail cell (N_t w_a Phi0_a << 1, coef_a >> 1) that
// factor is rarely hit but then large, and the product grows without bound (docs/physics.md,
// "Noise in the far tail"). Its expectation is the deterministic L_a = kappa dt J_a / (w_a Phi0_a)
// (mc_expected_self_loss): the step adds (sum coef_a - L_a) h_a back, i.e. keeps the partner and
// gain terms sampled and takes the self term of the linear loss in expectation. The eps h_a h_b
// part stays sampled (eps smaller). Its mean is Eq. 24's: L_a includes the box's rejection of
// samples (mc_acceptance).
//
// McCollision, per team of up to `Cells` cells (each phase a function below):
//  1. load_rows: stream h into the working rows, the team's cells side by side (team scratch; or
//     the output row of a single cell), or copy h~ when it comes streamed;
//  2. gather_pieces: every thread sums its strip of the gather plan into pieces (above), g of an
//     entry from the rows at its v and v1 (one vector load each gives all cells of the team), or
//     from g of every sample, stored first;
//  3. add_pieces (in sum_drift or sum_systems): every velocity adds its pieces, and the working
//     rows become h'; in the same pass, the drift of the conserved moments,
//     M'_k - M~_k = sum_v w_v Phi0_v psi_k(xi_v) (h'_v - h~_v) with psi = (1, xi, |xi|^2), is
//     summed from the increments themselves (a sum of small terms, accurate relative to itself
//     in the run's precision; no moment pass over h~), and with a correction the monomial sums
//     of h' for its matrix (correction.hpp; accumulated per thread and warp in the run's
//     precision: the eps term is small);
//  4. solve_systems, record_solutions: the conservation correction (correction.hpp), each cell's
//     5 x 5 system solved by a group of threads (a GPU warp; Gauss-Jordan, a thread per matrix
//     entry);
//  5. write_rows: h_new = h' + (1 + eps h') (y_0 + y . xi + y_4 |xi|^2) into the output rows.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "kernels/hs_mc/correction.hpp"
#include "kernels/hs_mc/plan.hpp"
#include "kernels/hs_mc/step_tables.hpp"
#include "kernels/streaming.hpp"
#include "kernels/views.hpp"

namespace bolt {

// Cells is the number of cells per team, a compile-time constant so that the per-cell loops in
// the innermost gathers unroll completely; the last team of a box may have fewer (`count`).
// RowsInScratch: the working rows are in the team scratch (GPU shared memory; known at compile
// time, so that its accesses are shared-memory ones), else the output rows serve (one cell).
// StreamOrder: 2 streams at second order, 1 at first order or copies rows that come streamed
// (McPass::streams; McDevice::collide picks): the second order's loops (for_second_order_cells)
// are compiled into a kernel of their own, so that their registers leave the first order's code
// as it was.
// The phases are separate functions, forced inline: the kernel is one function on the GPU, with
// its barriers where operator() shows them.
template <class Real, McCorrection Mode, int Cells, bool RowsInScratch, int StreamOrder>
struct McCollision {
  static_assert(Cells >= 1 && Cells <= kMcMaxCellsPerTeam, "cells per team");
  static_assert(StreamOrder == 1 || StreamOrder == 2, "streaming order");
  static_assert(RowsInScratch || Cells == 1, "rows outside the scratch: one cell per team");
  static constexpr int kSums = mc_reduce_width(Mode != McCorrection::none, Cells);
  // Float: at most 64 registers, so that 1024 threads fit an SM, as one team of 1024 or two of
  // 512 (mc_team_layout): the kernel waits on memory and barriers, and wants every warp it can get.
  static constexpr int kTeamThreads = sizeof(Real) == 4 ? 1024 : 0;
  static constexpr bool kCorrects = Mode != McCorrection::none;

  McStepTables<Real> tables;
  McPass<Real> pass;

  using Lanes = McLanes<Real, Cells>;

  // A team's cells and its scratch: per cell kMcCellDoubles (`shared`), then the working rows
  // [v][cell] (when RowsInScratch), g [sample][cell] when the entries name samples, and the
  // pieces [piece][cell].
  struct Work {
    std::int64_t first;  // the team's first cell
    int count;           // its cells: Cells, fewer in the last team of a box
    double* shared;
    Lanes* rows;  // the working rows: in the scratch, or the output row of the one cell
    Lanes* g;
    Lanes* pieces;
  };

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t group) const {
    const std::int64_t first = group * Cells;
    const int count = int(pass.n_cells - first < Cells ? pass.n_cells - first : Cells);
    double* shared = team.template scratch_memory<double>();
    place_cells(team, first, count, shared);
    team.sync();
    const Work w = work(first, count, shared);
    load_rows(team, w);
    team.sync();
    gather_pieces(team, w);  // (a barrier inside when g is stored first)
    team.sync();
    if constexpr (kCorrects) {
      sum_systems(team, w);
      team.sync_group();
    } else {
      sum_drift(team, w);
      team.sync();  // the drift, for every cell's group
    }
    if constexpr (Mode == McCorrection::batched) solve_systems(team, w);
    record_solutions(team, w);
    team.sync();
    write_rows(team, w);
  }

 private:
  static BOLT_HOST_DEVICE BOLT_FORCE_INLINE McCellPlace& place(double* shared, int c) {
    return *reinterpret_cast<McCellPlace*>(shared + kMcCellDoubles * c + kMcPlace);
  }

  // The passes over the velocities in batches (kMcVelocityBatch; on the CPU single velocities,
  // whose loop vectorizes): item i stands for the velocities i + u items, and those past nv
  // load the last one. On the GPU `items` is a whole number of kStreamTableAlign, so that
  // each warp's velocities start on a 128-byte line of the tables (and of the rows that start
  // on one) for every u.
  template <class Team>
  static BOLT_HOST_DEVICE BOLT_FORCE_INLINE int batch_items(int nv, int batch) {
    constexpr int kItemAlign = Team::kBatchesLoads ? kStreamTableAlign : 1;
    return ((nv + batch - 1) / batch + kItemAlign - 1) / kItemAlign * kItemAlign;
  }
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE int loaded(int v) const {
    return v < tables.nv ? v : tables.nv - 1;
  }
  template <class Team, class Body>
  static BOLT_HOST_DEVICE BOLT_FORCE_INLINE void for_each_item(const Team& team, int n,
                                                               const Body& body) {
    if constexpr (Team::kBatchesLoads)
      team.for_each_rolled(n, body);
    else
      team.for_each(n, body);
  }

  // Every cell's place in the team scratch. Cells past `count` (last team only) repeat the last
  // one and work on scratch, never stored.
  template <class Team>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void place_cells(const Team& team, std::int64_t first,
                                                      int count, double* shared) const {
    team.for_each_rolled(Cells, [&](int c) {
      const auto coord = pass.cells.coord(first + (c < count ? c : count - 1));
      McCellPlace& p = place(shared, c);
      p.padded = pass.cells.padded(coord);
      for (int d = 0; d < 3; ++d) p.ip[d] = coord.i[d] + pass.cells.offset[d];
    });
  }

  // The scratch's parts (after place_cells' barrier: one cell's output row is its working row).
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE Work work(std::int64_t first, int count,
                                               double* shared) const {
    Lanes* scratch = reinterpret_cast<Lanes*>(shared + kMcCellDoubles * Cells);
    Lanes* g = scratch + (RowsInScratch ? tables.nv : 0);
    Lanes* pieces = g + (tables.pairs ? tables.n_samples : 0);
    Lanes* rows;
    if constexpr (RowsInScratch)
      rows = scratch;
    else  // one cell: its output row
      rows = reinterpret_cast<Lanes*>(pass.h_out + place(shared, 0).padded * pass.row);
    return {first, count, shared, rows, g, pieces};
  }

  // 1. The working rows h~ (streamed here: one pass over h per step, not three), all cells of
  //    the team at once: a velocity's streaming tables are read once for them, and their
  //    loads are in flight together.
  template <class Team>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void load_rows(const Team& team, const Work& w) const {
    const int nv = tables.nv;
    Lanes* rows = w.rows;
    const Real* in[Cells];
    int ip[Cells][3];
    for (int c = 0; c < Cells; ++c) {
      in[c] = pass.h_in + place(w.shared, c).padded * pass.row;
      for (int d = 0; d < 3; ++d) ip[c][d] = place(w.shared, c).ip[d];
    }
    if (StreamOrder == 1 && !pass.streams) {
      team.for_each(nv, [&](int v) {
        Lanes h;
        for (int c = 0; c < Cells; ++c) h.value[c] = in[c][v];
        rows[v] = h;
      });
      return;
    }
    constexpr int kStreamBatch = Team::kBatchesLoads ? kMcStreamBatch : 1;
    const int stream_items = batch_items<Team>(nv, kStreamBatch);
    const auto stream_rows = [&](const auto& streamer) {
      for_each_item(team, stream_items, [&](int i) {
        Lanes h[kStreamBatch];
        for (int u = 0; u < kStreamBatch; ++u) {
          const int v = loaded(i + u * stream_items);
          const auto upwind = streamer.upwind(v);
          for (int c = 0; c < Cells; ++c) h[u].value[c] = streamer.value(upwind, c, in[c] + v);
        }
        for (int u = 0; u < kStreamBatch; ++u)
          if (i + u * stream_items < nv) rows[i + u * stream_items] = h[u];
      });
    };
    if constexpr (StreamOrder == 2)
      pass.stream.for_second_order_cells(ip, stream_rows);
    else
      pass.stream.for_first_order_cells(ip, stream_rows);
  }

  // g from h = h~(v) and h1 = h~(v1) as h + h1 (1 + eps h): two fused multiply-adds.
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE Lanes g_of_values(const Lanes& h, const Lanes& h1) const {
    Lanes value;
    for (int c = 0; c < Cells; ++c)
      value.value[c] = h.value[c] + h1.value[c] * (Real(1) + tables.epsilon * h.value[c]);
    return value;
  }

  // 2. The gather plan: every strip's pieces (the running sum of its entries, closed where a
  //    list or the strip ends), a batch of kMcBatch entries at a time (vector loads), the values
  //    g of a batch's entries from batch_values(words, values, second).
  template <class Team, class BatchValues>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void gather(const Team& team, const Work& w, int length,
                                                 const BatchValues& batch_values) const {
    const int strips = tables.strips;
    team.for_each_rolled(strips, [&](int t) {
      int piece = tables.plan[1 + t];
      Lanes sum, second;
      for (int c = 0; c < Cells; ++c) sum.value[c] = second.value[c] = Real(0);
      constexpr int kPer = McEntryVector<Real>::kEntries, kVectors = kMcBatch / kPer;
      const McEntryVector<Real>* at = tables.entries + t;
      for (int k0 = 0; k0 < length; k0 += kMcBatch, at += std::int64_t(kVectors) * strips) {
        McEntryVector<Real> b[kVectors];
        for (int j = 0; j < kVectors; ++j) b[j] = at[std::int64_t(j) * strips];
        std::uint32_t words[kMcBatch];
        for (int k = 0; k < kMcBatch; ++k) words[k] = b[k / kPer].entry[k % kPer].word;
        Lanes values[kMcBatch];
        batch_values(words, values, second);
        for (int k = 0; k < kMcBatch; ++k) {
          const McEntry<Real>& e = b[k / kPer].entry[k % kPer];
          for (int c = 0; c < Cells; ++c) sum.value[c] += e.coef * values[k].value[c];
          if (e.word & kMcClosesPiece) {
            w.pieces[piece++] = sum;
            for (int c = 0; c < Cells; ++c) sum.value[c] = Real(0);
          }
        }
      }
    });
  }

  //    g of an entry from the unchanged rows at its two velocities (the rows are written only
  //    after the barrier that follows; `second` carries h~ at the second velocity from one entry
  //    to the next, McEntry), or from g of its sample, stored first (top of this file).
  template <class Team>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void gather_pieces(const Team& team, const Work& w) const {
    const int length = tables.plan[0];
    const Lanes* rows = w.rows;
    if (tables.pairs) {
      // (Rejected samples have no entries: their g is 0. Selects rather than branches, so that
      // the loads of several samples are in flight at once.)
      team.for_each(tables.n_samples, [&](int l) {
        const McPair pair = tables.pairs[l];
        const bool accepted = pair.v >= 0;
        Lanes value = g_of_values(rows[accepted ? pair.v : 0], rows[accepted ? pair.v1 : 0]);
        for (int c = 0; c < Cells; ++c) value.value[c] = accepted ? value.value[c] : Real(0);
        w.g[l] = value;
      });
      team.sync();
      gather(team, w, length, [&](const std::uint32_t* words, Lanes* values, Lanes&) {
        for (int k = 0; k < kMcBatch; ++k) values[k] = w.g[words[k] & kMcSampleOf];
      });
      return;
    }
    // (Every load of the batch into its own registers before any is used, so that they are in
    // flight together: loaded into `second` itself, each waited for the entry before.)
    gather(team, w, length, [&](const std::uint32_t* words, Lanes* values, Lanes& second) {
      Lanes first[kMcBatch], loaded[kMcBatch] = {};
      for (int k = 0; k < kMcBatch; ++k) {
        first[k] = rows[words[k] & kMcVelocityMask];
        if (words[k] & kMcLoadsSecond)
          loaded[k] = rows[words[k] >> kMcVelocityBits & kMcVelocityMask];
      }
      for (int k = 0; k < kMcBatch; ++k) {
        if (words[k] & kMcLoadsSecond) second = loaded[k];
        values[k] = g_of_values(second, first[k]);
      }
    });
  }

  // 3. and 4. (collision_sums.hpp): every velocity adds its pieces into h', summing the drift
  //    of the conserved moments (with a correction also the monomial sums of its matrix); the
  //    correction systems solved, and the records.
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void pair_after(const Work& w, const McMirrorPair& pair,
                                                     Lanes before[2], Lanes after[2]) const;
  template <class Drift, class Monomials>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void add_pieces(const Work& w, int i, Drift& drift,
                                                     Monomials& monomials) const;
  template <class Team>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void sum_drift(const Team& team, const Work& w) const;
  template <class Team>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void sum_systems(const Team& team, const Work& w) const;
  template <class Team>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void solve_systems(const Team& team, const Work& w) const;
  template <class Team>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void record_solutions(const Team& team, const Work& w) const;

  // 5. The new rows: h' corrected by y (batched), else h' as it is.
  template <class Team>
  BOLT_HOST_DEVICE BOLT_FORCE_INLINE void write_rows(const Team& team, const Work& w) const {
    constexpr int kBatch = Team::kBatchesLoads ? kMcVelocityBatch : 1;
    const int nv = tables.nv, items = batch_items<Team>(nv, kBatch);
    Real y[Cells][5];
    Real* out[Cells];
    for (int c = 0; c < Cells; ++c) {
      const double* solved = w.shared + kMcCellDoubles * c + kMcSolution;
      for (int k = 0; k < 5; ++k) y[c][k] = Real(solved[k]);
      out[c] = pass.h_out + place(w.shared, c).padded * pass.row;
    }
    for_each_item(team, items, [&](int i) {
      Lanes h[kBatch];
      Real q[kBatch][3] = {};
      for (int u = 0; u < kBatch; ++u) {
        const int v = loaded(i + u * items);
        h[u] = w.rows[v];
        if constexpr (Mode == McCorrection::batched)
          for (int a = 0; a < 3; ++a) q[u][a] = tables.point_axes[a * stream_table_stride(nv) + v];
      }
      for (int u = 0; u < kBatch; ++u) {
        const int v = i + u * items;
        if (v >= nv) break;
        const Real x = q[u][0], yv = q[u][1], z = q[u][2];
        const Real r2 = x * x + yv * yv + z * z;
        for (int c = 0; c < Cells; ++c) {
          if (c >= w.count) continue;
          if constexpr (Mode == McCorrection::batched) {
            const Real corr = y[c][0] + y[c][1] * x + y[c][2] * yv + y[c][3] * z + y[c][4] * r2;
            out[c][v] = h[u].value[c] + (Real(1) + tables.epsilon * h[u].value[c]) * corr;
          } else {
            out[c][v] = h[u].value[c];
          }
        }
      }
    });
  }
};

}  // namespace bolt

#include "kernels/hs_mc/collision_sums.hpp"
