#pragma once
// What the collision step of the semi-regular Monte Carlo method (collision.hpp) reads and how it
// lays out a team: the velocities and the gather plan of a step (McStepTables), the cells of a
// pass (McPass), the team scratch's layout and size, and the batches its passes over the
// velocities take.
#include <cstdint>

#include "core/host_device.hpp"
#include "kernels/hs_mc/correction.hpp"
#include "kernels/hs_mc/plan.hpp"
#include "kernels/streaming.hpp"
#include "kernels/views.hpp"

namespace bolt {

// Cells one team works on at most, 1 or 2: a thread keeps the monomial sums of every cell of its
// team in registers (14 each), and a warp reduces at most 32 sums at once.
constexpr int kMcMaxCellsPerTeam = 2;

// A velocity of the grid and its number weight w Phi0: what the pass adding the pieces reads of
// it, in one load (16 bytes in float; four tables would take four loads from L2 per velocity,
// and two teams per multiprocessor leave the L1 little room). The corrected write, which needs
// x, y, z only, reads them from McStepTables::point_axes.
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
// keeps the compiler from hoisting the next one's loads, and a thread waits for its velocities
// one after the other (two round trips each when streaming: the tables, then the rows they point
// to). Loads past nv read velocity nv - 1 and are not used. B = 3 in the writing pass: larger
// batches hold more loads in flight in registers, which the kernel has few of (docs/benchmarks.md
// has the comparisons).
constexpr int kMcVelocityBatch = 3;
// Streaming: 4, since its tables are one signed fraction per velocity and axis (StreamTables),
// which leaves room for the loads of a fourth velocity.
constexpr int kMcStreamBatch = 4;
// The pass that adds the pieces and sums the drift and the monomials of h' takes the velocities
// in pairs mirrored across xi_z = 0, v and v' (McMirrorPair; on a grid symmetric in z, which
// hs_mc's are): the two share x, y, |xi|^2 and the weight, and z changes sign, so a sum even in z
// (10 of the 14 monomials, 4 of the 5 drift moments) takes their sum and one odd in z their
// difference: one multiply-add per sum for two velocities instead of two. Where v' = v (the
// plane z = 0, or a grid without the symmetry: every velocity pairs with itself) the second
// counts 0. A pair's two loads of each kind are in flight together (larger batches spill the
// 38 float sums).
struct McMirrorPair {
  int v, mirror;
};

// What the samples of a step give every cell (McDevice): the velocities as the collision reads
// them and the gather plan (McEntryIndex).
template <class Real>
struct McStepTables {
  const McPoint<Real>* points;  // [v]; a mirror pair's second takes the first's x, y, -z, w
  // The points' x, y, z as three tables, [a * stream_table_stride(nv) + v], each on 128-byte
  // lines: what the corrected write reads of a velocity (a warp's 16-byte loads of the points
  // would take four lines each where three scalar loads take three, and more registers).
  const Real* point_axes;
  int nv;
  const McMirrorPair* mirror_pairs;  // [mirror_items], each velocity in one pair
  int mirror_items;
  McEquilibriumMonomials equilibrium;  // of these points
  const McEntryVector<Real>* entries;
  // When the entries name samples (mc_packs_velocities false): their v and v1, and how many;
  // nullptr when the entries pack v and v1.
  const McPair* pairs;
  int n_samples;
  const int* first_piece;
  const int* plan;
  int strips;
  const Real* self_adjust;  // McEntryIndex; nullptr: the sampled self-loss (paper 000)
  Real epsilon;             // f = Phi0 (1 + eps h)
};

// The cells one collision pass works on, and where it leaves its records (McOperator).
template <class Real>
struct McPass {
  // h before the step (padded cell numbering, velocity fastest): streamed here when `streams`
  // (the engine: ghosts filled), else already the post-streaming h~.
  const Real* h_in;
  Real* h_out;  // h_new; must not alias h_in
  int row;      // elements between cells' rows of h_in and h_out (Velocities::row)
  StreamTables<Real> stream;
  bool streams;
  CellIndexer cells;
  std::int64_t n_cells;
  double* record;  // [cell * kMcRecord] or nullptr
  double* system;  // [cell * kMcSystem], external mode only
};

}  // namespace bolt
