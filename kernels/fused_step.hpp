#pragma once
// The explicit step of the model equations as one pass over f (DESIGN.md, data layout): per
// spatial cell, a team streams every velocity of the row from the upwind rows of f_in, reduces the
// moments of the post-streaming row, builds the relaxation target, relaxes, and writes the row of
// f_out. f is read once and written once per step.
//
// Stream = false gives the relaxation-only pass used by Strang splitting.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "relaxation/relaxation.hpp"
#include "streaming.hpp"
#include "views.hpp"

namespace bolt {

// The post-streaming row of a cell (its row of f_in when !Stream; row_in points at it) written to
// `row`, and the row's moment sums: the sweep FusedStep and StreamAndSum share.
template <bool Stream, class Team, class Real, class Relax>
BOLT_HOST_DEVICE Sums<Relax::kSums> stream_row(const Team& team, const StreamTables<Real>& stream,
                                               const Velocities<Real>& vel, const Relax& relax,
                                               const Real* row_in, const int (&ip)[1][3],
                                               Real* BOLT_RESTRICT row) {
  if constexpr (!Team::kBatchesLoads) {
    // The CPU streams the row first, then sums it: two loops over velocities, each simple
    // enough to vectorize (the row stays in cache between them).
    stream.for_cells(ip, [&](const auto& streamer) {
      team.for_each(vel.n, [&](int v) {
        row[v] = Stream ? streamer.value(streamer.upwind(v), 0, row_in + v) : row_in[v];
      });
      return 0;
    });
    return team.template reduce<Relax::kSums>(
        vel.n, [&](int v, Sums<Relax::kSums>& s) { relax.accumulate(s, vel, v, row[v]); });
  }
  return stream.for_cells(ip, [&](const auto& streamer) {
    return team.template reduce<Relax::kSums>(vel.n, [&](int v, Sums<Relax::kSums>& s) {
      Real value;
      if constexpr (Stream)
        value = streamer.value(streamer.upwind(v), 0, row_in + v);
      else
        value = row_in[v];
      row[v] = value;
      relax.accumulate(s, vel, v, value);
    });
  });
}

template <class Real, class Relax, bool Stream>
struct FusedStep {
  static constexpr int kTeamThreads = Relax::kTeamThreads;  // launch_cuda.cuh: 0 is unbounded
  const Real* f_in;
  Real* f_out;
  Velocities<Real> vel;
  StreamTables<Real> stream;
  CellIndexer cells;
  Relax relax;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const auto c = cells.coord(item);
    const std::int64_t p = cells.padded(c);
    const int ip[1][3] = {
        {c.i[0] + cells.offset[0], c.i[1] + cells.offset[1], c.i[2] + cells.offset[2]}};
    const int nv = vel.n;
    Real* BOLT_RESTRICT row_out = f_out + p * vel.row;
    Real* BOLT_RESTRICT fs = team.row_scratch(row_out);
    // Stream and accumulate the moments in one sweep: the velocity tables are read once for
    // both, and the post-streaming value goes to the scratch row for the relaxation sweep.
    const auto sums = stream_row<Stream>(team, stream, vel, relax, f_in + p * vel.row, ip, fs);
    auto target = relax.target(team, sums, vel);
    if (relax.normalised(target)) relax.normalise(target, relax.normalisation_sums(team, target, vel));
    team.for_each(nv, [&](int v) { row_out[v] = relax.relax(target, vel, v, fs[v]); });
  }
};

// FusedStep in three parts for the velocity decomposition, where a cell's velocities are
// spread over ranks and its sums must be added across them: StreamAndSum writes the
// post-streaming row to f_out and the cell's partial moment sums; after their sum over the
// ranks, SumNormalisation the partial normalisation sums of the target (not needed where they
// factorise over the axes); after their sum, RelaxSummed relaxes f_out in place towards the
// normalised target. (The conservative target
// needs every velocity in its Newton loop: not available split.)
template <class Real, class Relax, bool Stream>
struct StreamAndSum {
  const Real* f_in;
  Real* f_out;
  double* sums;  // [interior cell][Relax::kSums]
  Velocities<Real> vel;
  StreamTables<Real> stream;
  CellIndexer cells;
  Relax relax;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const auto c = cells.coord(item);
    const std::int64_t p = cells.padded(c);
    const int ip[1][3] = {
        {c.i[0] + cells.offset[0], c.i[1] + cells.offset[1], c.i[2] + cells.offset[2]}};
    Real* BOLT_RESTRICT row_out = f_out + p * vel.row;
    const auto s = stream_row<Stream>(team, stream, vel, relax, f_in + p * vel.row, ip, row_out);
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
    team.for_each(vel.n, [&](int v) { row[v] = relax.relax(target, vel, v, row[v]); });
  }
};

}  // namespace bolt
