#pragma once
// The collision step of the conservative projection method (paper 003; the rules in
// ../shared/refdata/projection/): over a time step tau, every term nu of the discrete collision
// integral is applied to a cell's row of f in turn,
//   Delta = c (f_a f_b - (f_l f_m)^(1-r) (f_l' f_m')^r),
//   f_a -= Delta, f_b -= Delta, f_l += (1-r) Delta, f_m += (1-r) Delta,
//   f_l' += r Delta, f_m' += r Delta,
// (a, b) the pre-collision pair, (l, m) and (l', m') = (l + s, m - s) the two node pairs the
// post-collision pair is projected onto, with the momentum of (a, b) and energies on either side
// of it, r the weight that conserves energy. Mass, momentum and energy are conserved by every
// term, and the power interpolation of the gain makes a discrete Maxwellian an exact zero. A
// term that would make any of its six values negative is not applied (positivity); it is
// counted with its |Delta|.
//
// The terms come in batches in which no two share a velocity: a batch is applied by the team's
// threads together, the batches one after the other. The result is that of applying the terms
// one by one in their stored order, on either backend (one thread per cell on the CPU).
#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "kernels/streaming.hpp"
#include "kernels/views.hpp"

namespace bolt {

enum ProjectionNode { kAlpha, kBeta, kLambda, kMu, kLambdaS, kMuS, kProjectionNodes };

template <class Real>
struct ProjectionTerm {
  int node[kProjectionNodes];  // a, b, l, m, l + s, m - s
  Real r;                      // weight of (l + s, m - s); 0: one pair
  Real c;                      // tau kappa N^2 h^3 b g / (2 N_nu) (lib/models/projection/plan.cpp)
};

// Sums kept per cell: terms skipped for positivity, their sum of |Delta|, and the sum of |Delta|
// over every term (applied or not).
constexpr int kProjectionRecord = 3;

// One term on a row: whether it was applied (false: a value would have gone negative, and the
// row is as it was), and Delta. A node may appear twice in a term (l = m, or l = a where the
// post-collision pair lands back on a pre-collision node): its increments are added to its
// value one by one, in the order of the nodes. The new values are formed and checked in
// registers and stored only when the term is applied: the row (shared memory on the GPU) is read
// six times and written six times per term, no more -- the L1/shared pipe is what bounds this
// kernel (docs/benchmarks.md).
template <class Real>
BOLT_HOST_DEVICE inline bool apply_projection_term(const ProjectionTerm<Real>& t, Real* f,
                                                   Real& delta) {
  const int nodes = t.r != Real(0) ? kProjectionNodes : kLambdaS;
  Real saved[kProjectionNodes];
  for (int k = 0; k < nodes; ++k) saved[k] = f[t.node[k]];
  // (P)^(1-r) (Q)^r as P (Q/P)^r: one logarithm and one power of two instead of two powers,
  // and near equilibrium (Q/P near 1) the logarithm is small, so the rounding of its exponent is
  // not multiplied by |log P| as in P^(1-r).
  const Real p = saved[kLambda] * saved[kMu];
  Real gain = p;
  if (t.r != Real(0)) {
    const Real q = saved[kLambdaS] * saved[kMuS];
    gain = p > Real(0) && q > Real(0) ? p * exp2(t.r * log2(q / p)) : Real(0);
  }
  delta = t.c * (saved[kAlpha] * saved[kBeta] - gain);
  const Real share[kProjectionNodes] = {-delta, -delta, (Real(1) - t.r) * delta,
                                        (Real(1) - t.r) * delta, t.r * delta, t.r * delta};
  Real updated[kProjectionNodes];
  bool negative = false;
  for (int k = 0; k < nodes; ++k) {
    // The node's value before the term plus every increment to it (a repeated node gets the
    // same value at each of its places).
    Real value = saved[k];
    for (int j = 0; j < nodes; ++j)
      if (t.node[j] == t.node[k]) value += share[j];
    updated[k] = value;
    negative = negative || value < Real(0);
  }
  if (!negative)
    for (int k = 0; k < nodes; ++k) f[t.node[k]] = updated[k];
  return !negative;
}

// The collision step of every cell, in place: a team per cell, its row in the team scratch when
// it has one.
template <class Real>
struct ProjectionCollision {
  Real* f;
  Velocities<Real> vel;  // n and the row stride
  CellIndexer cells;
  const ProjectionTerm<Real>* terms;
  const int* batch_start;  // [batches + 1] into terms
  int batches;
  double* record;  // [cell][kProjectionRecord]

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    Real* row = f + cells.padded(cells.coord(item)) * vel.row;
    Real* fs = team.row_scratch(row);
    if (fs != row) {
      team.for_each(vel.n, [&](int v) { fs[v] = row[v]; });
      team.sync();
    }
    // Each thread counts its own terms; the team adds the counts once, after the last batch.
    Sums<kProjectionRecord> mine = Sums<kProjectionRecord>::zero();
    for (int b = 0; b < batches; ++b) {
      const int first = batch_start[b];
      team.for_each_rolled(batch_start[b + 1] - first, [&](int i) {
        Real delta;
        const bool applied = apply_projection_term(terms[first + i], fs, delta);
        const double size = fabs(double(delta));
        mine[2] += size;
        if (!applied) {
          mine[0] += 1.0;
          mine[1] += size;
        }
      });
      team.sync();  // a batch reads what the one before wrote
    }
    const Sums<kProjectionRecord> totals = team.team_totals(mine);
    if (fs != row) team.for_each(vel.n, [&](int v) { row[v] = fs[v]; });
    if (team.leader())
      for (int k = 0; k < kProjectionRecord; ++k) record[item * kProjectionRecord + k] = totals[k];
  }
};

// Free streaming alone (the projection method collides in a pass of its own): f_out of every
// cell from the upwind rows of f_in.
template <class Real>
struct StreamOnly {
  const Real* f_in;
  Real* f_out;
  Velocities<Real> vel;
  StreamTables<Real> stream;
  CellIndexer cells;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const auto c = cells.coord(item);
    const std::int64_t p = cells.padded(c);
    const int ip[1][3] = {
        {c.i[0] + cells.offset[0], c.i[1] + cells.offset[1], c.i[2] + cells.offset[2]}};
    const Real* in = f_in + p * vel.row;
    Real* out = f_out + p * vel.row;
    stream.for_cells(ip, [&](const auto& streamer) {
      team.for_each(vel.n, [&](int v) { out[v] = streamer.value(streamer.upwind(v), 0, in + v); });
      return 0;
    });
  }
};

}  // namespace bolt
