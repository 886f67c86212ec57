#pragma once
// The explicit step of the model equations as one pass over f (DESIGN.md, data layout): per
// spatial cell, a team streams every velocity of the row from the upwind rows of f_in, reduces the
// moments of the post-streaming row, builds the relaxation target, relaxes, and writes the row of
// f_out. f is read once and written once per step.
//
// Stream = false gives the relaxation-only pass used by Strang splitting.
#include <cstdint>
#include <type_traits>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "relaxation/relaxation.hpp"
#include "streaming.hpp"
#include "views.hpp"

namespace bolt {

// Velocities a GPU thread takes per item of the fused step's loops (stream_row, relax_row).
constexpr int kFusedBatch = 4;

// Whether a reduced set lists its g and h nodes in pairs from its first node (Velocities): the
// whole set, or a velocity rank's share of it that starts at a g node and ends at an h node.
template <class Real>
BOLT_HOST_DEVICE bool paired(const Velocities<Real>& vel) {
  return vel.h != nullptr && vel.n % 2 == 0 && vel.h[0] == Real(0);
}

// Calls cell(v) with v = vel, or, for a full set, with a copy whose h is null where the compiler
// sees it: the loops over velocities then test no h node per velocity (a test that splits a GPU
// thread's batch).
template <class Real, class Cell>
BOLT_HOST_DEVICE void with_h_known(const Velocities<Real>& vel, Cell&& cell) {
  if (vel.h) return cell(vel);
  Velocities<Real> full = vel;
  full.h = nullptr;
  cell(full);
}

// body(set): the CPU's loops over velocities take a local copy of vel, whose h the loop then
// knows to be null (a full set) or not. Unlike with_h_known's (which hands a reduced set on by
// reference), the copy is made for every set: an h read through a reference is read again after
// every call in the loop (the vector exp), and its test then keeps the loop from vectorizing.
template <class Real, class Body>
BOLT_HOST_INLINE auto on_cpu_set(const Velocities<Real>& vel, Body&& body) {
  Velocities<Real> set = vel;
  if (set.h) return body(set);
  set.h = nullptr;
  return body(set);
}

// What only the CPU's stream_row reads: the row's first-order runs, and vel's tables in double
// where its float sums take them (x null: none). A GPU team's functors carry NoCpuRowTables.
struct CpuRowTables {
  StreamRuns runs;
  Velocities<double> sum_vel;
};
struct NoCpuRowTables {};

// The row tables of the functors that Team runs.
template <class Team>
using RowTablesOf = std::conditional_t<Team::kBatchesLoads, NoCpuRowTables, CpuRowTables>;

// stream_row's GPU loop on a paired reduced set: a thread takes kFusedBatch / 2 velocities per
// item, each as its g node 2k and h node 2k + 1 (NodePair: one access), which stream with the
// same upwind neighbours and fractions and sum with the same velocity tables, loaded once for
// both (Relaxation::accumulate_pair): per value, half the table loads, the upwind choice and the
// row's loads and stores of stream_row's loop.
template <bool Stream, class Team, class Real, class Relax>
BOLT_HOST_DEVICE Sums<Relax::kSums> stream_pairs(const Team& team,
                                                 const StreamTables<Real>& stream,
                                                 const Velocities<Real>& vel, const Relax& relax,
                                                 const Real* row_in, const int (&ip)[1][3],
                                                 Real* BOLT_RESTRICT row) {
  constexpr int kPairs = kFusedBatch / 2;
  const int pairs = vel.n / 2, items = (pairs + kPairs - 1) / kPairs;
  return stream.for_cells(ip, [&](const auto& streamer) {
    return team.template reduce_rolled<Relax::kSums, Real>(items, [&](int i, auto& s) {
      NodePair<Real> value[kPairs];
      for (int u = 0; u < kPairs; ++u) {
        const int v = 2 * (i + u * items < pairs ? i + u * items : pairs - 1);
        if constexpr (Stream)
          value[u] = streamer.value_pair(streamer.upwind(v), 0, row_in + v);
        else
          value[u] = NodePair<Real>::load(row_in + v);
        if (i + u * items >= pairs) value[u] = {Real(0), Real(0)};
      }
      for (int u = 0; u < kPairs; ++u)
        relax.accumulate_pair(s, vel, 2 * (i + u * items < pairs ? i + u * items : pairs - 1),
                              value[u].g, value[u].h);
      for (int u = 0; u < kPairs; ++u)
        if (i + u * items < pairs) value[u].store(row + 2 * (i + u * items));
    });
  });
}

// The post-streaming row of a cell (its row of f_in when !Stream; row_in points at it) written to
// `row`, and the row's moment sums: the sweep FusedStep and StreamAndSum share. cpu: the CPU's
// row tables (RowTablesOf<Team>).
template <bool Stream, class Team, class Real, class Relax, class RowTables>
BOLT_HOST_DEVICE BOLT_HOST_INLINE Sums<Relax::kSums> stream_row(
    const Team& team, const StreamTables<Real>& stream, const Velocities<Real>& vel,
    const RowTables& cpu, const Relax& relax, const Real* row_in, const int (&ip)[1][3],
    Real* BOLT_RESTRICT row) {
  if constexpr (!Team::kBatchesLoads) {
    // The CPU streams the row first, then sums it: two loops over velocities, each simple
    // enough to vectorize (the row stays in cache between them).
    stream.for_cells(ip, [&](const auto& streamer) {
      using Streamer = std::decay_t<decltype(streamer)>;
      if constexpr (Stream && Streamer::kRuns)
        if (cpu.runs.run) {
          streamer.stream_runs(team, cpu.runs, row_in, row);
          return 0;
        }
      team.for_each(vel.n, [&](int v) {
        row[v] = Stream ? streamer.value(streamer.upwind(v), 0, row_in + v) : row_in[v];
      });
      return 0;
    });
    // The sums add in double: a float row's values are converted as they are added, the
    // velocity tables were converted once (sum_vel, the same values), not per velocity and cell.
    if constexpr (!std::is_same_v<Real, double>)
      if (cpu.sum_vel.x)
        return on_cpu_set(cpu.sum_vel, [&](const Velocities<double>& set) {
          return team.template reduce<Relax::kSums>(set.n, [&](int v, Sums<Relax::kSums>& s) {
            relax.accumulate(s, set, v, double(row[v]));
          });
        });
    return on_cpu_set(vel, [&](const Velocities<Real>& set) {
      return team.template reduce<Relax::kSums>(
          set.n, [&](int v, Sums<Relax::kSums>& s) { relax.accumulate(s, set, v, row[v]); });
    });
  }
  // The GPU takes kFusedBatch velocities per item, i + u * items (u < kFusedBatch, consecutive
  // across a warp's lanes), loaded without branches before any is stored (loads past nv read the
  // last velocity, summed as 0): a loop over single velocities stores each one's value before
  // the next one's loads, which may not pass a store that could alias them, and so waits on
  // each velocity's table and then its upwind values in turn. A thread's and its warp's sums
  // are in Real, the warps' partial sums added in double (Team::team_totals): in float,
  // converting each value and summing in double costs more instructions than its loads.
  if (paired(vel)) return stream_pairs<Stream>(team, stream, vel, relax, row_in, ip, row);
  const int nv = vel.n, items = (nv + kFusedBatch - 1) / kFusedBatch;
  return stream.for_cells(ip, [&](const auto& streamer) {
    return team.template reduce_rolled<Relax::kSums, Real>(items, [&](int i, auto& s) {
      Real value[kFusedBatch];
      for (int u = 0; u < kFusedBatch; ++u) {
        const int v = i + u * items < nv ? i + u * items : nv - 1;
        if constexpr (Stream)
          value[u] = streamer.value(streamer.upwind(v), 0, row_in + v);
        else
          value[u] = row_in[v];
        if (i + u * items >= nv) value[u] = Real(0);
      }
      for (int u = 0; u < kFusedBatch; ++u)
        relax.accumulate(s, vel, i + u * items < nv ? i + u * items : nv - 1, value[u]);
      for (int u = 0; u < kFusedBatch; ++u)
        if (i + u * items < nv) row[i + u * items] = value[u];
    });
  });
}

// Writes relax(v, row[v]) of every velocity to out (both may be one row): on the GPU in batches
// of kFusedBatch per item, as stream_row takes them, all computed before any is stored, with
// the force term's test taken once (per velocity it splits the batch, as in stream_row).
template <class Team, class Real, class Relax>
BOLT_HOST_DEVICE BOLT_HOST_INLINE void relax_row(const Team& team, const Velocities<Real>& vel,
                                                 const Relax& relax, const RelaxationTarget& target,
                                                 const Real* row, Real* out) {
  if constexpr (!Team::kBatchesLoads) {
    // The force term's test outside the loop, so that each loop is branch-free and vectorizes.
    // The target is copied for the same reason as the set (on_cpu_set): the caller's escapes.
    const RelaxationTarget local = target;
    on_cpu_set(vel, [&](const Velocities<Real>& set) {
      const auto loop = [&](auto forced) {
        team.for_each(set.n, [&](int v) {
          constexpr auto force = decltype(forced)::value ? ForceTerm::present : ForceTerm::absent;
          out[v] = relax.template relax<force>(local, set, v, row[v]);
        });
      };
      if (local.forced())
        loop(std::true_type{});
      else
        loop(std::false_type{});
    });
  } else {
    const int nv = vel.n, items = (nv + kFusedBatch - 1) / kFusedBatch;
    const int pairs = nv / 2, pair_items = (pairs + kFusedBatch / 2 - 1) / (kFusedBatch / 2);
    // A paired reduced set: a thread takes kFusedBatch / 2 velocities per item, each as its g
    // node 2k and its h node 2k + 1, which share the target's Gaussian (Relaxation::relax_pair).
    const auto pair_batches = [&](auto forced) {
      team.for_each_rolled(pair_items, [&](int i) {
        constexpr auto force = decltype(forced)::value ? ForceTerm::tested : ForceTerm::absent;
        NodePair<Real> value[kFusedBatch / 2];
        for (int u = 0; u < kFusedBatch / 2; ++u) {
          const int k = i + u * pair_items < pairs ? i + u * pair_items : pairs - 1;
          value[u] = NodePair<Real>::load(row + 2 * k);
          relax.template relax_pair<force>(target, vel, 2 * k, value[u].g, value[u].h);
        }
        for (int u = 0; u < kFusedBatch / 2; ++u)
          if (i + u * pair_items < pairs) value[u].store(out + 2 * (i + u * pair_items));
      });
    };
    const auto batches = [&](auto forced) {
      if (paired(vel)) return pair_batches(forced);
      team.for_each_rolled(items, [&](int i) {
        constexpr auto force = decltype(forced)::value ? ForceTerm::tested : ForceTerm::absent;
        Real value[kFusedBatch];
        for (int u = 0; u < kFusedBatch; ++u) {
          const int v = i + u * items < nv ? i + u * items : nv - 1;
          value[u] = relax.template relax<force>(target, vel, v, row[v]);
        }
        for (int u = 0; u < kFusedBatch; ++u)
          if (i + u * items < nv) out[i + u * items] = value[u];
      });
    };
    if (target.forced())
      batches(std::true_type{});
    else
      batches(std::false_type{});
  }
}

// TeamThreads: the GPU kernel's register bound (launch_cuda.cuh; 0 is unbounded), one of
// Relaxation's; the code is the same for each.
template <class Real, class Relax, bool Stream, class RowTables,
          int TeamThreads = Relax::kTeamThreads>
struct FusedStep {
  static constexpr int kTeamThreads = TeamThreads;
  const Real* f_in;
  Real* f_out;
  Velocities<Real> vel;
  StreamTables<Real> stream;
  CellIndexer cells;
  Relax relax;
  RowTables cpu;  // stream_row's (RowTablesOf the team)

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    with_h_known(vel, [&](const Velocities<Real>& v) { cell(team, item, v); });
  }

  template <class Team>
  BOLT_HOST_DEVICE BOLT_HOST_INLINE void cell(const Team& team, std::int64_t item,
                                              const Velocities<Real>& vel) const {
    const auto c = cells.coord(item);
    const std::int64_t p = cells.padded(c);
    const int ip[1][3] = {
        {c.i[0] + cells.offset[0], c.i[1] + cells.offset[1], c.i[2] + cells.offset[2]}};
    Real* BOLT_RESTRICT row_out = f_out + p * vel.row;
    Real* BOLT_RESTRICT fs = team.row_scratch(row_out);
    // Stream and accumulate the moments in one sweep: the velocity tables are read once for
    // both, and the post-streaming value goes to the scratch row for the relaxation sweep.
    const auto sums =
        stream_row<Stream>(team, stream, vel, cpu, relax, f_in + p * vel.row, ip, fs);
    auto target = relax.target(team, sums, vel);
    if (relax.normalised(target)) relax.normalise(target, relax.normalisation_sums(team, target, vel));
    relax_row(team, vel, relax, target, fs, row_out);
  }
};

// FusedStep in three parts for the velocity decomposition, where a cell's velocities are
// spread over ranks and its sums must be added across them: StreamAndSum writes the
// post-streaming row to f_out and the cell's partial moment sums; after their sum over the
// ranks, SumNormalisation the partial normalisation sums of the target (not needed where they
// factorise over the axes); after their sum, RelaxSummed relaxes f_out in place towards the
// normalised target. (The conservative target
// needs every velocity in its Newton loop: not available split.)
template <class Real, class Relax, bool Stream, class RowTables>
struct StreamAndSum {
  const Real* f_in;
  Real* f_out;
  double* sums;  // [interior cell][Relax::kSums]
  Velocities<Real> vel;
  StreamTables<Real> stream;
  CellIndexer cells;
  Relax relax;
  RowTables cpu;  // stream_row's (RowTablesOf the team)

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    with_h_known(vel, [&](const Velocities<Real>& v) { cell(team, item, v); });
  }

  template <class Team>
  BOLT_HOST_DEVICE BOLT_HOST_INLINE void cell(const Team& team, std::int64_t item,
                                              const Velocities<Real>& vel) const {
    const auto c = cells.coord(item);
    const std::int64_t p = cells.padded(c);
    const int ip[1][3] = {
        {c.i[0] + cells.offset[0], c.i[1] + cells.offset[1], c.i[2] + cells.offset[2]}};
    Real* BOLT_RESTRICT row_out = f_out + p * vel.row;
    const auto s =
        stream_row<Stream>(team, stream, vel, cpu, relax, f_in + p * vel.row, ip, row_out);
    if (team.leader())
      for (int k = 0; k < Relax::kSums; ++k) sums[item * Relax::kSums + k] = s[k];
  }
};

// The target of a cell from its summed moments.
template <class Relax, class Team, class Real>
BOLT_HOST_DEVICE RelaxationTarget summed_target(const Relax& relax, const Team& team,
                                                const double* sums, const Velocities<Real>& vel,
                                                std::int64_t item) {
  Sums<Relax::kSums> s;
  for (int k = 0; k < Relax::kSums; ++k) s[k] = sums[item * Relax::kSums + k];
  return relax.target(team, s, vel);
}

template <class Real, class Relax>
struct SumNormalisation {
  const double* sums;   // [interior cell][Relax::kSums], summed over the ranks
  double* normalisation;  // [interior cell][kNormalisationSums], this rank's part
  Velocities<Real> vel;
  Relax relax;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const RelaxationTarget target = summed_target(relax, team, sums, vel, item);
    const auto s = relax.normalisation_sums(team, target, vel);
    if (team.leader())
      for (int k = 0; k < kNormalisationSums; ++k)
        normalisation[item * kNormalisationSums + k] = s[k];
  }
};

template <class Real, class Relax>
struct RelaxSummed {
  Real* f;
  const double* sums;           // summed over the ranks
  const double* normalisation;  // summed over the ranks; unused where relax.factorised()
  Velocities<Real> vel;
  CellIndexer cells;
  Relax relax;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    Real* BOLT_RESTRICT row = f + cells.padded(cells.coord(item)) * vel.row;
    RelaxationTarget target = summed_target(relax, team, sums, vel, item);
    if (relax.factorised()) {
      relax.normalise(target, relax.factorised_sums(team, target));
    } else {
      Sums<kNormalisationSums> s;
      for (int k = 0; k < kNormalisationSums; ++k)
        s[k] = normalisation[item * kNormalisationSums + k];
      relax.normalise(target, s);
    }
    relax_row(team, vel, relax, target, row, row);
  }
};

}  // namespace bolt
