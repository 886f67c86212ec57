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
// one by one in their stored order, to each of the team's cells, on either backend (a team is
// one thread on the CPU).
#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "kernels/streaming.hpp"
#include "kernels/views.hpp"

namespace bolt {

enum ProjectionNode { kAlpha, kBeta, kLambda, kMu, kLambdaS, kMuS, kProjectionNodes };

// A term as the plan makes it (lib/models/projection/plan.hpp) and the reference applies it.
template <class Real>
struct ProjectionTerm {
  int node[kProjectionNodes];  // a, b, l, m, l + s, m - s (one pair: l + s = l, m - s = m)
  Real r;                      // weight of (l + s, m - s); 0: one pair
  Real c;                      // tau kappa N^2 h^3 b g / (2 N_nu) (lib/models/projection/plan.cpp)
};

// A term as the kernel reads it, in two arrays of aligned records (one 16-byte load for the
// nodes, one load for the weights): 24 bytes per term in float, 32 in double.
struct alignas(16) ProjectionTermNodes {
  // Node k in the bits 16 (k % 2) .. 16 (k % 2) + 15 of word k / 2 (velocity sets of at most
  // 65536 nodes); word 3: 1 where a node appears more than once (l = m, a pair equal to (a, b);
  // not the places of (l + s, m - s) that a one-pair term fills with (l, m)), else 0.
  std::uint32_t word[4];

  BOLT_HOST_DEVICE int node(int k) const { return int(word[k / 2] >> (16 * (k % 2)) & 0xffffu); }
  BOLT_HOST_DEVICE bool repeats() const { return word[3] != 0; }
};
template <class Real>
struct alignas(2 * sizeof(Real)) ProjectionTermWeights {
  Real r;
  Real c;
};

// A plan's term in the kernel's form (host code).
inline ProjectionTermNodes projection_term_nodes(const ProjectionTerm<double>& term) {
  ProjectionTermNodes nodes{};
  for (int k = 0; k < kProjectionNodes; ++k) {
    nodes.word[k / 2] |= std::uint32_t(term.node[k]) << (16 * (k % 2));
    const bool copy = term.r == 0.0 && k >= kLambdaS;  // (l, m) again: not a repeat
    for (int j = 0; j < k && !copy; ++j) nodes.word[3] |= term.node[j] == term.node[k] ? 1u : 0u;
  }
  return nodes;
}

// Sums kept per cell: terms skipped for positivity, their sum of |Delta|, and the sum of |Delta|
// over every term (applied or not).
constexpr int kProjectionRecord = 3;

// The values of one velocity node in the rows of a team's cells: the team keeps its cells' rows
// interleaved, node after node, so that one vector access reads or writes a node of every cell
// and a term's nodes and weights, read once, serve every cell of the team.
template <class Real, int Cells>
struct alignas(sizeof(Real) * Cells) NodeCells {
  Real v[Cells];
};

// Cells a team collides at once: a 16-byte access per node (4 in float, 2 in double). The rows
// take 4 N_v floats or 2 N_v doubles of scratch (68 kB on paper 003's 4224 velocities: three
// teams per GPU multiprocessor).
template <class Real>
constexpr int kProjectionCells = 16 / int(sizeof(Real));

// One term on the rows of a team's cells: for each cell Delta, and whether the term was applied
// there (not applied: a value would have gone negative, and the cell's values stay as they
// were). A node may appear twice in a term (l = m, or l = a where the post-collision pair lands
// back on a pre-collision node): its increments are added to its value one by one, in the order
// of the nodes, and every place of the node gets the same value. The new values are formed and
// checked in registers; each node is read once and written once. tally(cell, applied, Delta)
// for each cell.
template <class Real, int Cells, class Tally>
BOLT_HOST_DEVICE inline void apply_projection_term(const ProjectionTermNodes t,
                                                   const ProjectionTermWeights<Real> w,
                                                   NodeCells<Real, Cells>* f, Tally&& tally) {
  NodeCells<Real, Cells> saved[kProjectionNodes];
  BOLT_UNROLL
  for (int k = 0; k < kProjectionNodes; ++k) saved[k] = f[t.node(k)];
  BOLT_UNROLL
  for (int cell = 0; cell < Cells; ++cell) {
    Real s[kProjectionNodes];
    for (int k = 0; k < kProjectionNodes; ++k) s[k] = saved[k].v[cell];
    // (P)^(1-r) (Q)^r as P (Q/P)^r: one logarithm and one power of two instead of two powers,
    // and near equilibrium (Q/P near 1) the logarithm is small, so the rounding of its exponent
    // is not multiplied by |log P| as in P^(1-r).
    const Real p = s[kLambda] * s[kMu];
    Real gain = p;
    if (w.r != Real(0)) {
      const Real q = s[kLambdaS] * s[kMuS];
      gain = p > Real(0) && q > Real(0) ? p * exp2(w.r * log2(q / p)) : Real(0);
    }
    const Real delta = w.c * (s[kAlpha] * s[kBeta] - gain);
    const Real share[kProjectionNodes] = {-delta, -delta, (Real(1) - w.r) * delta,
                                          (Real(1) - w.r) * delta, w.r * delta, w.r * delta};
    // A one-pair term (r = 0) stores (l, m) at the places of (l + s, m - s) too: there they get
    // the increment of (l, m), so that every place of a node holds its one new value.
    Real value[kProjectionNodes];
    for (int k = 0; k < kProjectionNodes; ++k) value[k] = s[k] + share[k];
    if (w.r == Real(0)) value[kLambdaS] = value[kLambda], value[kMuS] = value[kMu];
    if (t.repeats()) {
      // The node's value before the term plus every increment to it.
      for (int k = 0; k < kProjectionNodes; ++k) {
        value[k] = s[k];
        for (int j = 0; j < kProjectionNodes; ++j)
          if (t.node(j) == t.node(k)) value[k] += share[j];
      }
    }
    bool negative = false;
    for (int k = 0; k < kProjectionNodes; ++k) negative = negative || value[k] < Real(0);
    for (int k = 0; k < kProjectionNodes; ++k) saved[k].v[cell] = negative ? s[k] : value[k];
    tally(cell, !negative, delta);
  }
  BOLT_UNROLL
  for (int k = 0; k < kProjectionNodes; ++k) f[t.node(k)] = saved[k];
}

// The collision step of every cell, in place. A team takes up to Cells cells that follow each
// other along x (a group: the x rows of the box split into pieces of Cells), copies their rows
// into its scratch interleaved (NodeCells; the places of missing cells of a short group hold
// zeros, which no term changes), applies the terms there, and copies them back. With Cells = 1
// and no scratch, the team works on the cell's row of f itself.
template <class Real, int Cells>
struct ProjectionCollision {
  // Registers for three teams of 256 threads per GPU multiprocessor, which their scratch allows
  // (launch_cuda.cuh: the kernel is compiled for blocks of up to this many threads). Double fits
  // them unbounded; bounded, ptxas spills.
  static constexpr int kTeamThreads = sizeof(Real) == 4 ? 768 : 0;
  Real* f;
  Velocities<Real> vel;  // n and the row stride
  CellIndexer cells;
  const ProjectionTermNodes* nodes;
  const ProjectionTermWeights<Real>* weights;
  const int* batch_start;  // [batches + 1] into the terms
  int batches;
  double* record;  // [cell][kProjectionRecord]

  // Teams: the groups of the box's cells.
  std::int64_t groups() const {
    return std::int64_t((cells.n[0] + Cells - 1) / Cells) * cells.n[1] * cells.n[2];
  }

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t group) const {
    using Node = NodeCells<Real, Cells>;
    const int per_row = (cells.n[0] + Cells - 1) / Cells;
    const int line = int(group / per_row), x0 = int(group - std::int64_t(line) * per_row) * Cells;
    const int here = cells.n[0] - x0 < Cells ? cells.n[0] - x0 : Cells;
    const std::int64_t first = std::int64_t(line) * cells.n[0] + x0;  // interior index
    Real* row = f + cells.padded(cells.coord(first)) * vel.row;
    const std::int64_t next = cells.stride[0] * vel.row;  // from one cell's row to the next
    // The scratch addressed as such where the team always has one (GPU: shared-memory accesses).
    Node* fs = Cells > 1 ? team.template scratch_memory<Node>()
                         : reinterpret_cast<Node*>(team.row_scratch(row));
    if (reinterpret_cast<Real*>(fs) != row) {
      team.for_each(vel.n, [&](int v) {
        Node values;
        for (int c = 0; c < Cells; ++c) values.v[c] = c < here ? row[c * next + v] : Real(0);
        fs[v] = values;
      });
      team.sync();
    }
    // Each thread counts its own terms, per cell, in the run's precision (a diagnostic: fewer
    // registers); the team adds the counts once, after the last batch.
    Sums<kProjectionRecord * Cells, Real> mine = Sums<kProjectionRecord * Cells, Real>::zero();
    for (int b = 0; b < batches; ++b) {
      const int start = batch_start[b];
      team.for_each_rolled(batch_start[b + 1] - start, [&](int i) {
        apply_projection_term<Real, Cells>(
            nodes[start + i], weights[start + i], fs, [&](int c, bool applied, Real delta) {
              const Real size = fabs(delta);
              mine[kProjectionRecord * c + 2] += size;
              if (!applied) {
                mine[kProjectionRecord * c] += Real(1);
                mine[kProjectionRecord * c + 1] += size;
              }
            });
      });
      team.sync();  // a batch reads what the one before wrote
    }
    Sums<kProjectionRecord * Cells> mine_wide;
    for (int k = 0; k < kProjectionRecord * Cells; ++k) mine_wide[k] = mine[k];
    const Sums<kProjectionRecord * Cells> totals = team.team_totals(mine_wide);
    if (reinterpret_cast<Real*>(fs) != row)
      team.for_each(vel.n, [&](int v) {
        const Node values = fs[v];
        for (int c = 0; c < here; ++c) row[c * next + v] = values.v[c];
      });
    if (team.leader())
      for (int c = 0; c < here; ++c)
        for (int k = 0; k < kProjectionRecord; ++k)
          record[(first + c) * kProjectionRecord + k] = totals[kProjectionRecord * c + k];
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
