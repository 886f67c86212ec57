#pragma once
// Phases 3 and 4 of McCollision (collision.hpp, which includes this file after the class): the
// pieces of the gather plan added into h', with the drift of the conserved moments and, with a
// correction, the monomial sums of its matrix summed in the same pass; the correction systems
// solved; the records.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "kernels/hs_mc/collision.hpp"
#include "kernels/hs_mc/correction.hpp"
#include "kernels/hs_mc/step_tables.hpp"

namespace bolt {

// 3. Mirror pair i adds its pieces: h' = h~ + their sum + the self-loss adjustment, into
//    `after` from `before` (h~). (The pair's loads before the loops over their pieces: in
//    flight together.)
template <class Real, McCorrection Mode, int Cells, bool RowsInScratch, int StreamOrder>
BOLT_HOST_DEVICE BOLT_FORCE_INLINE void
McCollision<Real, Mode, Cells, RowsInScratch, StreamOrder>::pair_after(const Work& w,
                                                                       const McMirrorPair& pair,
                                                                       Lanes before[2],
                                                                       Lanes after[2]) const {
  const int v[2] = {pair.v, pair.mirror};
  Real adjust[2];
  int begin[2], end[2];
  for (int s = 0; s < 2; ++s) {
    adjust[s] = tables.self_adjust ? tables.self_adjust[v[s]] : Real(0);
    before[s] = w.rows[v[s]];
    begin[s] = tables.first_piece[v[s]];
    end[s] = tables.first_piece[v[s] + 1];
  }
  for (int s = 0; s < 2; ++s) {
    Lanes delta;
    for (int c = 0; c < Cells; ++c) delta.value[c] = Real(0);
    // (Most lists have one or two pieces: unrolled, the loop is mostly branches.)
    BOLT_ROLLED
    for (int p = begin[s]; p < end[s]; ++p)
      for (int c = 0; c < Cells; ++c) delta.value[c] += w.pieces[p].value[c];
    for (int c = 0; c < Cells; ++c)
      after[s].value[c] = before[s].value[c] + (delta.value[c] + adjust[s] * before[s].value[c]);
  }
}

//    ... and its drift of the conserved moments, M' - M~ = sum w Phi0 psi (h' - h~): a sum of
//    increments, accurate relative to itself in the run's precision; and with a correction the
//    monomial sums of h' for the correction matrices, sum w Phi0 (1 + eps h') psi psi^T: the
//    run's equilibrium part plus eps times them (in invariant_monomials' order, with the
//    weight folded into the products). One pass for both, over mirror pairs (McMirrorPair).
template <class Real, McCorrection Mode, int Cells, bool RowsInScratch, int StreamOrder>
template <class Drift, class Monomials>
BOLT_HOST_DEVICE BOLT_FORCE_INLINE void
McCollision<Real, Mode, Cells, RowsInScratch, StreamOrder>::add_pieces(const Work& w, int i,
                                                                       Drift& drift,
                                                                       Monomials& monomials) const {
  const McMirrorPair pair = tables.mirror_pairs[i];
  const McPoint<Real> q = tables.points[pair.v];
  Lanes before[2], after[2];
  pair_after(w, pair, before, after);
  const Real wt = q.w, x = q.x, y = q.y, z = q.z;
  const Real xx = x * x, yy = y * y, zz = z * z, r2 = xx + yy + zz;
  // The mirror's weight in the sums: 0 where the pair is one velocity.
  const Real w_mirror = pair.mirror != pair.v ? wt : Real(0);
  for (int c = 0; c < Cells; ++c) {
    // Even and odd in z: the pair's sum and difference.
    const Real change = wt * (after[0].value[c] - before[0].value[c]),
               change_mirror = w_mirror * (after[1].value[c] - before[1].value[c]);
    const Real even = change + change_mirror, odd = change - change_mirror;
    drift[5 * c] += even;
    drift[5 * c + 1] += even * x;
    drift[5 * c + 2] += even * y;
    drift[5 * c + 3] += odd * z;
    drift[5 * c + 4] += even * r2;
    if constexpr (kCorrects) {
      auto* m = &monomials[kMcMonomials * c];
      const Real n = wt * after[0].value[c], n_mirror = w_mirror * after[1].value[c];
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
  w.rows[pair.v] = after[0];
  w.rows[pair.mirror] = after[1];
}

//    Without a correction: the drift only, into the scratch.
template <class Real, McCorrection Mode, int Cells, bool RowsInScratch, int StreamOrder>
template <class Team>
BOLT_HOST_DEVICE BOLT_FORCE_INLINE void
McCollision<Real, Mode, Cells, RowsInScratch, StreamOrder>::sum_drift(const Team& team,
                                                                      const Work& w) const {
  const Sums<5 * Cells> drift =
      team.template reduce_rolled<5 * Cells, Real>(tables.mirror_items, [&](int i, auto& s) {
        Real no_monomials[1];
        add_pieces(w, i, s, no_monomials);
      });
  if (team.leader())
    for (int c = 0; c < Cells; ++c)
      for (int k = 0; k < 5; ++k)
        if (c < w.count) w.shared[kMcCellDoubles * c + kMcDrift + k] = drift[5 * c + k];
}

//    With a correction: the drift and every cell's system [A | M~ - M'] into the scratch. Item
//    kTeamGroup c + e of cell c's group writes its drift (e < 5) and entry e of its system
//    (e < 30), each from the totals it needs.
template <class Real, McCorrection Mode, int Cells, bool RowsInScratch, int StreamOrder>
template <class Team>
BOLT_HOST_DEVICE BOLT_FORCE_INLINE void
McCollision<Real, Mode, Cells, RowsInScratch, StreamOrder>::sum_systems(const Team& team,
                                                                        const Work& w) const {
  const TeamTotals totals = team.template reduce_pair_rolled<5 * Cells, kMcMonomials * Cells, Real>(
      tables.mirror_items,
      [&](int i, auto& drift, auto& monomials) { add_pieces(w, i, drift, monomials); });
  team.for_each_rolled(kTeamGroup * w.count, [&](int item) {
    const int c = item / kTeamGroup, e = item % kTeamGroup, i = e / 6, j = e % 6;
    double* cell_shared = w.shared + kMcCellDoubles * c;
    if (e < 5) cell_shared[kMcDrift + e] = totals[5 * c + e];
    if (e >= 30) return;
    const auto equilibrium_sum = [&](int m) { return tables.equilibrium.sum[m]; };
    const auto cell_sum = [&](int m) { return totals[5 * Cells + kMcMonomials * c + m]; };
    cell_shared[kMcMatrix + e] =
        j == 5 ? -totals[5 * c + i]
               : invariant_product(i, j, equilibrium_sum) +
                     double(tables.epsilon) * invariant_product(i, j, cell_sum);
  });
}

// 4. The systems, a group of threads per cell (a GPU warp: no block barriers, which would cost
//    one per pivot), Gauss-Jordan elimination with a thread per matrix entry (one thread per
//    system would be as long as the rest of the step's tail). No pivoting: the matrix is
//    symmetric positive definite while f > 0, and a zero or non-finite pivot leaves the cell
//    uncorrected. Entry (i, j > k) of step k reads column k and row k, which step k does not
//    write; the columns left of the pivot are never read again, so they are not cleared. Item
//    kTeamGroup c + e works on entry e of cell c.
template <class Real, McCorrection Mode, int Cells, bool RowsInScratch, int StreamOrder>
template <class Team>
BOLT_HOST_DEVICE BOLT_FORCE_INLINE void
McCollision<Real, Mode, Cells, RowsInScratch, StreamOrder>::solve_systems(const Team& team,
                                                                          const Work& w) const {
  for (int k = 0; k < 5; ++k) {
    team.for_each_rolled(kTeamGroup * w.count, [&](int item) {
      double* a = w.shared + kMcCellDoubles * (item / kTeamGroup) + kMcMatrix;
      const int e = item % kTeamGroup, i = e / 6, j = e % 6;
      if (e < 30 && i != k && j > k) a[6 * i + j] -= a[6 * i + k] * a[6 * k + j] / a[6 * k + k];
    });
    team.sync_group();
  }
  team.for_each_rolled(kTeamGroup * w.count, [&](int item) {
    double* cell_shared = w.shared + kMcCellDoubles * (item / kTeamGroup);
    const int k = item % kTeamGroup;
    if (k < 5)
      cell_shared[kMcSolution + k] =
          cell_shared[kMcMatrix + 6 * k + 5] / cell_shared[kMcMatrix + 6 * k + k];
  });
  team.sync_group();
}

//    ... y of every cell (its group's first thread): none or external (applied later), or a
//    singular system, give 0; the records and the external systems.
template <class Real, McCorrection Mode, int Cells, bool RowsInScratch, int StreamOrder>
template <class Team>
BOLT_HOST_DEVICE BOLT_FORCE_INLINE void
McCollision<Real, Mode, Cells, RowsInScratch, StreamOrder>::record_solutions(const Team& team,
                                                                             const Work& w) const {
  team.for_each_rolled(kTeamGroup * w.count, [&](int item) {
    if (item % kTeamGroup != 0) return;
    const int c = item / kTeamGroup;
    double* cell_shared = w.shared + kMcCellDoubles * c;
    const double* a = cell_shared + kMcMatrix;
    double* y = cell_shared + kMcSolution;
    const std::int64_t cell = w.first + c;
    double* record = pass.record;
    if (record)
      for (int k = 0; k < 5; ++k) record[cell * kMcRecord + 5 + k] = cell_shared[kMcDrift + k];
    if (Mode == McCorrection::external) {
      double* out = pass.system + cell * kMcSystem;
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
}

}  // namespace bolt
