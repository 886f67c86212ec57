#pragma once
// The collision step of the semi-regular Monte Carlo method (paper 000, Eqs. 23-26, algorithm 3)
// for the deviational distribution h, f = Phi0 (1 + eps h), as team functors.
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
// storing every sample's g took 11 % of the step, and its shared memory kept a second team off
// the multiprocessor); on the CPU, where every entry would compute g again, the entries name
// their sample, and a pass stores every g first.
// Why: shared-memory float atomics are compare-and-swap loops on current GPUs (several times the
// cost of a load and an add), a thread block can share each entry between several cells, and the
// sum has a fixed order -- the step is bitwise reproducible.
// The lists are very unequal (near the origin ~25 times the mean, in the corners empty), so the
// sorted entries are cut into `strips` equal strips, one per GPU thread (the gather plan): a
// thread sums its strip's entries, closing a partial sum (a piece) wherever a list ends or the
// strip does, and every velocity then adds its pieces in order. Every thread does the same work,
// and its loads are coalesced (the plan stores the strips interleaved). A CPU team has one strip:
// it walks the lists in order.
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
//  1. stream h into the working rows, the team's cells side by side (team scratch; or the
//     output row of a single cell), or copy h~ when it comes streamed;
//  2. every thread sums its strip of the gather plan into pieces (above), g of an entry from the
//     rows at its v and v1 (one vector load each gives all cells of the team), or from g of
//     every sample, stored first; every velocity adds its pieces: the working rows become h';
//     in the same pass, the drift of the conserved moments,
//     M'_k - M~_k = sum_v w_v Phi0_v psi_k(xi_v) (h'_v - h~_v) with psi = (1, xi, |xi|^2), is
//     summed from the increments themselves (a sum of small terms, accurate relative to itself
//     in the run's precision; no moment pass over h~);
//  3. conservation correction (Eqs. 25, 26), each cell's 5 x 5 system solved by a group of
//     threads (a GPU warp; Gauss-Jordan, a thread per matrix entry):
//       h_new = h' + (1 + eps h') (y_0 + y . xi + y_4 |xi|^2)
//     with y from the 5 x 5 system
//       sum_v w Phi0 (1 + eps h') psi_k psi_l  y_l = M~_k - M'_k,
//     so that the moments of h_new equal M~. The matrix is the run's constant
//     sum_v w Phi0 psi_k psi_l plus eps times the same sum over h'; every product psi_k psi_l is
//     one of 14 monomials of xi (or a sum of three), so 14 sums over h' give it (accumulated per
//     thread and warp in the run's precision: the eps term is small). In the paper's notation
//     A = eps y_0, B = eps (y_1, y_2, y_3), C = eps y_4: the correction multiplies the full f by
//     1 + A + B . xi + C |xi|^2. Solving for y keeps the system O(1) for any eps (also
//     eps -> 0, the linearised equation).
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "kernels/hs_mc/plan.hpp"
#include "kernels/streaming.hpp"
#include "kernels/views.hpp"

namespace bolt {

// none: no correction (h_new = h'); batched: solve the 5 x 5 system in the kernel and apply it;
// external: write the system per cell for a solver outside (PETSc), then McApplyCorrection.
enum class McCorrection { none, batched, external };

// Per cell record: y (5; the correction in units of h, A B C = eps y) and the drift of the
// conserved moments caused by the Monte Carlo step itself, M' - M~ (5).
constexpr int kMcRecord = 10;
// Per cell system for an external solver: the 5 x 5 matrix, row-major, then the right side.
constexpr int kMcSystem = 30;
// Cells one team works on at most, 1 or 2: a thread keeps the monomial sums of every cell of its
// team in registers (14 each), and a warp reduces at most 32 sums at once.
constexpr int kMcMaxCellsPerTeam = 2;

// The monomials of xi that the products psi_k psi_l of the collision invariants
// psi = (1, xi, |xi|^2) are made of: 1, x, y, z, x^2, y^2, z^2, xy, xz, yz, x |xi|^2, y |xi|^2,
// z |xi|^2, |xi|^4 (McCollision, step 3, sums them over h' in this order).
constexpr int kMcMonomials = 14;

BOLT_HOST_DEVICE inline void invariant_monomials(double x, double y, double z,
                                                 double m[kMcMonomials]) {
  const double xx = x * x, yy = y * y, zz = z * z, r2 = xx + yy + zz;
  m[0] = 1.0;
  m[1] = x;
  m[2] = y;
  m[3] = z;
  m[4] = xx;
  m[5] = yy;
  m[6] = zz;
  m[7] = x * y;
  m[8] = x * z;
  m[9] = y * z;
  m[10] = x * r2;
  m[11] = y * r2;
  m[12] = z * r2;
  m[13] = r2 * r2;
}

// Entry (i, j) of sum psi_i psi_j over a distribution from its monomial sums, sum(m) =
// s[m] in invariant_monomials' order: one monomial, or for (0, 4) and (4, 0) the three squares.
template <class MonomialSums>
BOLT_HOST_DEVICE double invariant_product(int i, int j, const MonomialSums& sum) {
  // The upper triangle row by row, 4 bits per entry, 15 for the three squares (as a constexpr
  // array indexed at run time it went to local memory: the step took 3 % longer).
  constexpr unsigned long long kPacked = 0xdc6b95a874f3210ull;
  const int p = i < j ? i : j, q = i < j ? j : i;
  const int m = int(kPacked >> (4 * (p * 5 - p * (p - 1) / 2 + q - p)) & 15u);
  return m == 15 ? sum(4) + sum(5) + sum(6) : sum(m);
}

// The monomial sums of the equilibrium, sum_v w_v Phi0_v m(xi_v): the constant part of every
// cell's correction matrix.
struct McEquilibriumMonomials {
  double sum[kMcMonomials];
};

// A velocity of the grid and its number weight w Phi0: what the pass adding the pieces reads of
// it, in one load (16 bytes in float). In four tables it took four loads from L2 per velocity
// and pass: two teams per multiprocessor leave the L1 little room. (The corrected write, which
// needs x, y, z only, reads them from McCollision::point_axes.)
template <class Real>
struct alignas(4 * sizeof(Real)) McPoint {
  Real x, y, z, w;
};

// Values of the `N` cells of a team side by side: one vector load (16 bytes at most) or a few.
template <class Real, int N>
struct alignas(N * sizeof(Real) < 16 ? N * sizeof(Real) : 16) McLanes {
  Real value[N];
};

// Where a team's cell lies: its padded index and padded coordinates.
struct McCellPlace {
  std::int64_t padded;
  int ip[3];
};

// Team scratch per cell, in doubles: its place (McCellPlace: 3), M' - M~ (5), the correction
// system [A | M~ - M'] (5 x 6, row-major), the correction y (5), and one to keep 16 bytes'
// alignment.
constexpr int kMcPlace = 0, kMcDrift = 3, kMcMatrix = 8, kMcSolution = 38, kMcCellDoubles = 44;
static_assert(sizeof(McCellPlace) <= kMcDrift * sizeof(double), "a cell's place fits its slots");

// The widest reduction of McCollision for `cells` per team: the drift of the 5 conserved moments
// of every cell, with a correction together with the monomial sums of h' of every cell.
constexpr int mc_reduce_width(bool correction, int cells) {
  return (correction ? kMcMonomials + 5 : 5) * cells;
}

// Bytes of team scratch McCollision needs: per cell kMcCellDoubles, its working row when rows
// are kept there, g of `g_samples` samples (the entries name samples: N_t, else 0), and the piece
// sums of the gather plan (at most one per list and one more per strip boundary).
inline std::int64_t mc_scratch_bytes(int cells_per_team, bool rows_in_scratch, int nv,
                                     int g_samples, int strips, std::int64_t real_size) {
  return std::int64_t(cells_per_team) *
         (kMcCellDoubles * std::int64_t(sizeof(double)) +
          real_size * ((rows_in_scratch ? nv : 0) + g_samples + nv + strips));
}

// The passes over a team's velocities take them in batches of B: item i of [0, S),
// S = ceil(nv / B), stands for the velocities i + u S (u < B), so that a warp's lanes still take
// consecutive velocities (coalesced loads, distinct banks). A thread issues the loads of its whole
// batch before it waits on any: in a loop over single velocities each iteration's bound check
// kept the compiler from hoisting the next one's loads, and a thread waited for its velocities
// one after the other (two round trips each when streaming: the tables, then the rows they point
// to). Loads past nv read velocity nv - 1 and are not used. B = 3 in the writing pass, 4 in the
// streaming one (kMcStreamBatch; the pass adding the pieces takes mirror pairs, below). Measured
// when streaming's tables were five loads per velocity, the monomials had a pass of their own
// and the pieces pass took batches too (δ = 10, float, one device call): 3 everywhere
// 2.456-2.459 ms/step; 3 streaming and 2 elsewhere 2.509-2.513; 3 streaming, 4
// adding the pieces and summing the monomials, 3 writing 2.48; 2, 3, 3 2.50; 4, 3, 3 2.53; in
// earlier calls 2 everywhere 2.53, 4 everywhere 2.61, none 2.62: loads in flight cost registers).
// The 20^3-velocity cavities (δ = 1, 0.1; one team of 1024 threads per SM) did better with 3
// streaming and 2 elsewhere, 2.40 and 2.07 against 2.45 and 2.12 ms/step (two calls); a batch
// chosen per case at run time (the loops compiled for 3) made them slower, 2.57 and 2.23.
constexpr int kMcVelocityBatch = 3;
// Streaming: 4, since its tables are one signed fraction per velocity and axis (StreamTables),
// which leaves room for the loads of a fourth velocity: against 3, δ = 10 2.010 against
// 2.030 ms/step, δ = 1 2.062 against 2.097 (H200, one call; the monitors the same).
constexpr int kMcStreamBatch = 4;
// The pass that adds the pieces and sums the drift and the monomials of h' takes the velocities
// in pairs mirrored across xi_z = 0, v and v' (McMirrorPair; on a grid symmetric in z, which
// hs_mc's are): the two share x, y, |xi|^2 and the weight, and z changes sign, so a sum even in z
// (10 of the 14 monomials, 4 of the 5 drift moments) takes their sum and one odd in z their
// difference: one multiply-add per sum for two velocities instead of two. Where v' = v (the
// plane z = 0, or a grid without the symmetry: every velocity pairs with itself) the second
// counts 0. A pair's two loads of each kind are in flight together, as a batch of 2 was (with
// batches of 3, 38 float sums had spilled 80 bytes).
struct McMirrorPair {
  int v, mirror;
};

// Cells is the number of cells per team, a compile-time constant so that the per-cell loops in
// the innermost gathers unroll completely; the last team of a box may have fewer (`count`).
// RowsInScratch: the working rows are in the team scratch (GPU shared memory; known at compile
// time, so that its accesses are shared-memory ones), else the output rows serve (one cell).
template <class Real, McCorrection Mode, int Cells, bool RowsInScratch>
struct McCollision {
  static_assert(Cells >= 1 && Cells <= kMcMaxCellsPerTeam, "cells per team");
  static_assert(RowsInScratch || Cells == 1, "rows outside the scratch: one cell per team");
  static constexpr int kSums = mc_reduce_width(Mode != McCorrection::none, Cells);
  // Float: at most 64 registers, so that 1024 threads fit an SM, as one team of 1024 or two of
  // 512 (mc_team_layout): the kernel waits on memory and barriers, and wants every warp it can get.
  static constexpr int kTeamThreads = sizeof(Real) == 4 ? 1024 : 0;

  // h before the step (padded cell numbering, velocity fastest): streamed here when `streams`
  // (the engine: ghosts filled), else already the post-streaming h~.
  const Real* h_in;
  Real* h_out;  // h_new; must not alias h_in
  const McPoint<Real>* points;  // [v]; a mirror pair's second takes the first's x, y, -z, w
  // The points' x, y, z as three tables, [a * stream_table_stride(nv) + v], each on 128-byte
  // lines: what the corrected write reads of a velocity. A warp's 16-byte loads of the points
  // took four lines each where three scalar loads take three, and 12 registers where 9 do.
  const Real* point_axes;
  int nv;
  int row;  // elements between cells' rows of h_in and h_out (Velocities::row)
  const McMirrorPair* mirror_pairs;  // [mirror_items], each velocity in one pair
  int mirror_items;
  McEquilibriumMonomials equilibrium;  // of these points
  // The gather plan (McEntryIndex).
  const McEntryVector<Real>* entries;
  // When the entries name samples (mc_packs_velocities false): their v and v1, and how many;
  // nullptr when the entries pack v and v1.
  const McPair* pairs;
  int n_samples;
  const int* first_piece;
  const int* plan;
  int strips;
  const Real* self_adjust;  // McEntryIndex; nullptr: the sampled self-loss (paper 000)
  StreamTables<Real> stream;
  bool streams;
  CellIndexer cells;
  std::int64_t n_cells;
  Real epsilon;
  double* record;  // [cell * kMcRecord] or nullptr
  double* system;  // [cell * kMcSystem], external mode only

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t group) const {
    using Lanes = McLanes<Real, Cells>;
    const std::int64_t first = group * Cells;
    const int count = int(n_cells - first < Cells ? n_cells - first : Cells);
    double* shared = team.template scratch_memory<double>();  // [cell][kMcCellDoubles]
    const auto place = [&](int c) -> McCellPlace& {
      return *reinterpret_cast<McCellPlace*>(shared + kMcCellDoubles * c + kMcPlace);
    };
    // The working rows [v][cell], then g [sample][cell] when the entries name samples, then the
    // pieces [piece][cell].
    Lanes* scratch = reinterpret_cast<Lanes*>(shared + kMcCellDoubles * Cells);
    Lanes* g = scratch + (RowsInScratch ? nv : 0);
    Lanes* pieces = g + (pairs ? n_samples : 0);
    // Cells past `count` (last team only) repeat the last one and work on scratch, never stored.
    team.for_each_rolled(Cells, [&](int c) {
      const auto coord = cells.coord(first + (c < count ? c : count - 1));
      McCellPlace& p = place(c);
      p.padded = cells.padded(coord);
      for (int d = 0; d < 3; ++d) p.ip[d] = coord.i[d] + cells.offset[d];
    });
    team.sync();
    Lanes* rows;
    if constexpr (RowsInScratch)
      rows = scratch;
    else  // one cell: its output row
      rows = reinterpret_cast<Lanes*>(h_out + place(0).padded * row);

    // The passes over the velocities in batches (kMcVelocityBatch; on the CPU single velocities,
    // whose loop vectorizes): item i stands for the velocities i + u items, and those past nv
    // load the last one. On the GPU `items` is a whole number of kStreamTableAlign, so that
    // each warp's velocities start on a 128-byte line of the tables (and of the rows that start
    // on one) for every u.
    constexpr int kBatch = Team::kBatchesLoads ? kMcVelocityBatch : 1;
    constexpr int kItemAlign = Team::kBatchesLoads ? kStreamTableAlign : 1;
    const int items = ((nv + kBatch - 1) / kBatch + kItemAlign - 1) / kItemAlign * kItemAlign;
    const auto loaded = [&](int v) { return v < nv ? v : nv - 1; };
    const auto for_each_item = [&](int n, const auto& body) {
      if constexpr (Team::kBatchesLoads)
        team.for_each_rolled(n, body);
      else
        team.for_each(n, body);
    };

    // 1. the working rows h~ (streamed here: one pass over h per step, not three), all cells of
    //    the team at once: a velocity's streaming tables are read once for them, and their
    //    loads are in flight together.
    {
      const Real* in[Cells];
      int ip[Cells][3];
      for (int c = 0; c < Cells; ++c) {
        in[c] = h_in + place(c).padded * row;
        for (int d = 0; d < 3; ++d) ip[c][d] = place(c).ip[d];
      }
      if (streams) {
        constexpr int kStreamBatch = Team::kBatchesLoads ? kMcStreamBatch : 1;
        const int stream_items =
            ((nv + kStreamBatch - 1) / kStreamBatch + kItemAlign - 1) / kItemAlign * kItemAlign;
        stream.for_cells(ip, [&](const auto& streamer) {
          for_each_item(stream_items, [&](int i) {
            Lanes h[kStreamBatch];
            for (int u = 0; u < kStreamBatch; ++u) {
              const int v = loaded(i + u * stream_items);
              const auto upwind = streamer.upwind(v);
              for (int c = 0; c < Cells; ++c) h[u].value[c] = streamer.value(upwind, c, in[c] + v);
            }
            for (int u = 0; u < kStreamBatch; ++u)
              if (i + u * stream_items < nv) rows[i + u * stream_items] = h[u];
          });
        });
      } else {
        team.for_each(nv, [&](int v) {
          Lanes h;
          for (int c = 0; c < Cells; ++c) h.value[c] = in[c][v];
          rows[v] = h;
        });
      }
    }
    team.sync();

    // 2. the gather plan: every strip's pieces (the running sum of its entries, closed where a
    //    list or the strip ends), a batch of kMcBatch entries at a time (vector loads), g of an
    //    entry from the unchanged rows at its two velocities (the rows are written only after the
    //    barrier below; `second` carries h~ at the second velocity from one entry to the next,
    //    McEntry) or from g of its sample, stored first (top of this file), ...
    const int length = plan[0];
    const auto gather = [&](const auto& batch_values) {
      team.for_each_rolled(strips, [&](int t) {
        int piece = plan[1 + t];
        Lanes sum, second;
        for (int c = 0; c < Cells; ++c) sum.value[c] = second.value[c] = Real(0);
        constexpr int kPer = McEntryVector<Real>::kEntries, kVectors = kMcBatch / kPer;
        const McEntryVector<Real>* at = entries + t;
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
              pieces[piece++] = sum;
              for (int c = 0; c < Cells; ++c) sum.value[c] = Real(0);
            }
          }
        }
      });
    };
    // g from h = h~(v) and h1 = h~(v1) as h + h1 (1 + eps h): two fused multiply-adds.
    const auto g_of_values = [&](const Lanes& h, const Lanes& h1) {
      Lanes value;
      for (int c = 0; c < Cells; ++c)
        value.value[c] = h.value[c] + h1.value[c] * (Real(1) + epsilon * h.value[c]);
      return value;
    };
    if (pairs) {
      // (Rejected samples have no entries: their g is 0. Selects rather than branches, so that
      // the loads of several samples are in flight at once.)
      team.for_each(n_samples, [&](int l) {
        const McPair pair = pairs[l];
        const bool accepted = pair.v >= 0;
        Lanes value = g_of_values(rows[accepted ? pair.v : 0], rows[accepted ? pair.v1 : 0]);
        for (int c = 0; c < Cells; ++c) value.value[c] = accepted ? value.value[c] : Real(0);
        g[l] = value;
      });
      team.sync();
      gather([&](const std::uint32_t* words, Lanes* values, Lanes&) {
        for (int k = 0; k < kMcBatch; ++k) values[k] = g[words[k] & kMcSampleOf];
      });
    } else {
      // (Every load of the batch into its own registers before any is used, so that they are in
      // flight together: loaded into `second` itself, each waited for the entry before.)
      gather([&](const std::uint32_t* words, Lanes* values, Lanes& second) {
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
    team.sync();
    //    ... and every velocity adds its pieces: h' = h~ + their sum + the self-loss adjustment.
    //    On the way, the drift of the conserved moments, M' - M~ = sum w Phi0 psi (h' - h~): a
    //    sum of increments, accurate relative to itself in the run's precision; and with a
    //    correction,
    // 3. the monomial sums of h' for the correction matrices, sum w Phi0 (1 + eps h') psi psi^T:
    //    the run's equilibrium part plus eps times them (a small term: accumulated per thread in
    //    the run's precision; in invariant_monomials' order, with the weight folded into the
    //    products). One pass for both: with a second pass over the rows and points the step
    //    took 6 % longer. The velocities come in mirror pairs (McMirrorPair): 38 sums in float
    //    registers for two velocities at a time.
    constexpr bool kCorrects = Mode != McCorrection::none;
    const auto add_pieces = [&](int i, auto& drift, auto& monomials) {
      // (The pair's loads before the loops over their pieces: in flight together.)
      const McMirrorPair pair = mirror_pairs[i];
      const int v[2] = {pair.v, pair.mirror};
      const McPoint<Real> q = points[pair.v];
      Lanes before[2];
      Real adjust[2];
      int begin[2], end[2];
      for (int s = 0; s < 2; ++s) {
        adjust[s] = self_adjust ? self_adjust[v[s]] : Real(0);
        before[s] = rows[v[s]];
        begin[s] = first_piece[v[s]];
        end[s] = first_piece[v[s] + 1];
      }
      Lanes after[2];
      for (int s = 0; s < 2; ++s) {
        Lanes delta;
        for (int c = 0; c < Cells; ++c) delta.value[c] = Real(0);
        // (Most lists have one or two pieces: unrolled, the loop was mostly branches; 1 % of the
        // step.)
        BOLT_ROLLED
        for (int p = begin[s]; p < end[s]; ++p)
          for (int c = 0; c < Cells; ++c) delta.value[c] += pieces[p].value[c];
        for (int c = 0; c < Cells; ++c)
          after[s].value[c] =
              before[s].value[c] + (delta.value[c] + adjust[s] * before[s].value[c]);
      }
      const Real w = q.w, x = q.x, y = q.y, z = q.z;
      const Real xx = x * x, yy = y * y, zz = z * z, r2 = xx + yy + zz;
      // The mirror's weight in the sums: 0 where the pair is one velocity.
      const Real w_mirror = pair.mirror != pair.v ? w : Real(0);
      for (int c = 0; c < Cells; ++c) {
        // Even and odd in z: the pair's sum and difference.
        const Real change = w * (after[0].value[c] - before[0].value[c]),
                   change_mirror = w_mirror * (after[1].value[c] - before[1].value[c]);
        const Real even = change + change_mirror, odd = change - change_mirror;
        drift[5 * c] += even;
        drift[5 * c + 1] += even * x;
        drift[5 * c + 2] += even * y;
        drift[5 * c + 3] += odd * z;
        drift[5 * c + 4] += even * r2;
        if constexpr (kCorrects) {
          auto* m = &monomials[kMcMonomials * c];
          const Real n = w * after[0].value[c], n_mirror = w_mirror * after[1].value[c];
          const Real ne = n + n_mirror, no = n - n_mirror, ne_r2 = ne * r2;
          m[0] += ne;
          m[1] += ne * x;
          m[2] += ne * y;
          m[3] += no * z;
          m[4] += ne * xx;
          m[5] += ne * yy;
          m[6] += ne * zz;
          m[7] += ne * x * y;
          m[8] += no * x * z;
          m[9] += no * y * z;
          m[10] += ne_r2 * x;
          m[11] += ne_r2 * y;
          m[12] += no * r2 * z;
          m[13] += ne_r2 * r2;
        }
      }
      rows[v[0]] = after[0];
      rows[v[1]] = after[1];
    };
    if constexpr (kCorrects) {
      // Item kTeamGroup c + e of cell c's group writes its drift (e < 5) and entry e of its
      // system (e < 30), each from the totals it needs.
      const TeamTotals totals =
          team.template reduce_pair_rolled<5 * Cells, kMcMonomials * Cells, Real>(mirror_items,
                                                                                 add_pieces);
      team.for_each_rolled(kTeamGroup * count, [&](int item) {
        const int c = item / kTeamGroup, e = item % kTeamGroup, i = e / 6, j = e % 6;
        double* cell_shared = shared + kMcCellDoubles * c;
        if (e < 5) cell_shared[kMcDrift + e] = totals[5 * c + e];
        if (e >= 30) return;
        const auto equilibrium_sum = [&](int m) { return equilibrium.sum[m]; };
        const auto cell_sum = [&](int m) { return totals[5 * Cells + kMcMonomials * c + m]; };
        cell_shared[kMcMatrix + e] =
            j == 5 ? -totals[5 * c + i]
                   : invariant_product(i, j, equilibrium_sum) +
                         double(epsilon) * invariant_product(i, j, cell_sum);
      });
      team.sync_group();
    } else {
      const Sums<5 * Cells> drift =
          team.template reduce_rolled<5 * Cells, Real>(mirror_items, [&](int i, auto& s) {
            Real no_monomials[1];
            add_pieces(i, s, no_monomials);
          });
      if (team.leader())
        for (int c = 0; c < Cells; ++c)
          for (int k = 0; k < 5; ++k)
            if (c < count) shared[kMcCellDoubles * c + kMcDrift + k] = drift[5 * c + k];
      team.sync();  // the drift, for every cell's group
    }
    //    ... the systems, a group of threads per cell (a GPU warp: no block barriers), Gauss-
    //    Jordan elimination with a thread per matrix entry (one thread per system took as long
    //    as the rest of the step's tail; a block barrier per pivot cost 5 % of the step). No
    //    pivoting: the matrix is symmetric positive definite while f > 0, and a zero or
    //    non-finite pivot leaves the cell uncorrected. Entry (i, j > k) of step k reads column k
    //    and row k, which step k does not write; the columns left of the pivot are never read
    //    again, so they are not cleared. Item kTeamGroup c + e works on entry e of cell c.
    if constexpr (Mode == McCorrection::batched) {
      for (int k = 0; k < 5; ++k) {
        team.for_each_rolled(kTeamGroup * count, [&](int item) {
          double* a = shared + kMcCellDoubles * (item / kTeamGroup) + kMcMatrix;
          const int e = item % kTeamGroup, i = e / 6, j = e % 6;
          if (e < 30 && i != k && j > k) a[6 * i + j] -= a[6 * i + k] * a[6 * k + j] / a[6 * k + k];
        });
        team.sync_group();
      }
      team.for_each_rolled(kTeamGroup * count, [&](int item) {
        double* cell_shared = shared + kMcCellDoubles * (item / kTeamGroup);
        const int k = item % kTeamGroup;
        if (k < 5)
          cell_shared[kMcSolution + k] =
              cell_shared[kMcMatrix + 6 * k + 5] / cell_shared[kMcMatrix + 6 * k + k];
      });
      team.sync_group();
    }
    // ... y of every cell (its group's first thread): none or external (applied later), or a
    //    singular system, give 0, ...
    team.for_each_rolled(kTeamGroup * count, [&](int item) {
      if (item % kTeamGroup != 0) return;
      const int c = item / kTeamGroup;
      double* cell_shared = shared + kMcCellDoubles * c;
      const double* a = cell_shared + kMcMatrix;
      double* y = cell_shared + kMcSolution;
      const std::int64_t cell = first + c;
      if (record)
        for (int k = 0; k < 5; ++k) record[cell * kMcRecord + 5 + k] = cell_shared[kMcDrift + k];
      if (Mode == McCorrection::external) {
        double* out = system + cell * kMcSystem;
        for (int k = 0; k < 5; ++k) {
          for (int j = 0; j < 5; ++j) out[5 * k + j] = a[6 * k + j];
          out[25 + k] = a[6 * k + 5];
        }
      }
      bool solved = Mode == McCorrection::batched;
      for (int k = 0; k < 5; ++k) solved = solved && y[k] - y[k] == 0.0;  // finite
      if (!solved)
        for (int k = 0; k < 5; ++k) y[k] = 0.0;
      if (record)
        for (int k = 0; k < 5; ++k) record[cell * kMcRecord + k] = y[k];
    });
    team.sync();
    // ... and the new rows.
    Real y[Cells][5];
    Real* out[Cells];
    for (int c = 0; c < Cells; ++c) {
      const double* solved = shared + kMcCellDoubles * c + kMcSolution;
      for (int k = 0; k < 5; ++k) y[c][k] = Real(solved[k]);
      out[c] = h_out + place(c).padded * row;
    }
    for_each_item(items, [&](int i) {
      Lanes h[kBatch];
      Real q[kBatch][3] = {};
      for (int u = 0; u < kBatch; ++u) {
        const int v = loaded(i + u * items);
        h[u] = rows[v];
        if constexpr (Mode == McCorrection::batched)
          for (int a = 0; a < 3; ++a) q[u][a] = point_axes[a * stream_table_stride(nv) + v];
      }
      for (int u = 0; u < kBatch; ++u) {
        const int v = i + u * items;
        if (v >= nv) break;
        const Real x = q[u][0], yv = q[u][1], z = q[u][2];
        const Real r2 = x * x + yv * yv + z * z;
        for (int c = 0; c < Cells; ++c) {
          if (c >= count) continue;
          if constexpr (Mode == McCorrection::batched) {
            const Real corr = y[c][0] + y[c][1] * x + y[c][2] * yv + y[c][3] * z + y[c][4] * r2;
            out[c][v] = h[u].value[c] + (Real(1) + epsilon * h[u].value[c]) * corr;
          } else {
            out[c][v] = h[u].value[c];
          }
        }
      }
    });
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
    Real* row = h + p * vel.row;
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
