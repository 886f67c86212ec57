#include "partition.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "core/error.hpp"

namespace bolt {

namespace {

// Values crossing rank boundaries per step for a space rank grid (both directions of every
// connected face, `ghost` layers deep, every velocity), or infinity where a rank would own fewer
// cells than the ghost depth on some axis.
double halo_values(const PartitionRequest& r, const std::array<int, 3>& p) {
  double values = 0.0;
  for (int a = 0; a < 3; ++a) {
    if (p[a] == 1) continue;
    if (!r.active[a] || r.cells[a] / p[a] < r.ghost) return std::numeric_limits<double>::infinity();
    const int faces = r.periodic[a] ? p[a] : p[a] - 1;
    const double area = double(r.cells[(a + 1) % 3]) * r.cells[(a + 2) % 3];
    values += 2.0 * faces * area * r.ghost * r.nv;
  }
  return values;
}

// The rank grid with the least halo traffic. Ties go to splitting z, then y: their faces are
// contiguous planes of the x-fastest numbering, cheaper to pack.
std::array<int, 3> best_space_grid(const PartitionRequest& r, int ranks) {
  std::array<int, 3> best{0, 0, 0};
  double best_values = std::numeric_limits<double>::infinity();
  for (int px = ranks; px >= 1; --px) {
    if (ranks % px) continue;
    for (int py = ranks / px; py >= 1; --py) {
      if ((ranks / px) % py) continue;
      const std::array<int, 3> p{px, py, ranks / px / py};
      const double values = halo_values(r, p);
      if (values <= best_values && values < std::numeric_limits<double>::infinity()) {
        best = p;
        best_values = values;
      }
    }
  }
  require(best[0] > 0, "-decomp: ", ranks, " space ranks cannot split a grid of ", r.cells[0], " x ",
          r.cells[1], " x ", r.cells[2], " cells with at least ", r.ghost,
          " cells per rank on every split axis; use fewer ranks or more cells");
  return best;
}

int hybrid_velocity_ranks(const PartitionRequest& r, int ranks) {
  if (r.velocity_ranks > 0) {
    require(ranks % r.velocity_ranks == 0, "-decomp_velocity_ranks ", r.velocity_ranks,
            ": must divide the number of ranks (", ranks, ")");
    return r.velocity_ranks;
  }
  int best = 1;
  for (int v = 2; v * v <= ranks; ++v)
    if (ranks % v == 0) best = v;
  return best;
}

// Values each rank sends per step: the space split sends its halos, the velocity split sums
// the moments of every cell (an all-reduce moves about twice the data). f takes the same memory
// either way; the choice is by communication volume. (On an H200 the velocity split was also the
// faster per GPU: 80^3 x 24^3 in double ran at 153.7 ms per step on 2 GPUs against 213.1 ms for
// the space split, docs/benchmarks.md, because half a velocity row per cell fits the GPU better.)
double space_values(const PartitionRequest& r, int ranks) {
  return halo_values(r, best_space_grid(r, ranks)) / ranks;
}

double velocity_values(const PartitionRequest& r) {
  return 2.0 * double(r.cells[0]) * r.cells[1] * r.cells[2] * r.sums_per_cell;
}

}  // namespace

DecompositionKind parse_decomposition(const std::string& name) {
  if (name == "auto") return DecompositionKind::automatic;
  if (name == "space") return DecompositionKind::space;
  if (name == "velocity") return DecompositionKind::velocity;
  if (name == "hybrid") return DecompositionKind::hybrid;
  fail("-decomp ", name, ": unknown decomposition; allowed: auto, space, velocity, hybrid");
}

const char* to_string(DecompositionKind kind) {
  switch (kind) {
    case DecompositionKind::automatic: return "auto";
    case DecompositionKind::space: return "space";
    case DecompositionKind::velocity: return "velocity";
    case DecompositionKind::hybrid: return "hybrid";
  }
  return "?";
}

std::array<int, 2> split_range(int n, int parts, int index) {
  const int base = n / parts, extra = n % parts;
  return {index * base + std::min(index, extra), base + (index < extra ? 1 : 0)};
}

Partition make_partition(MPI_Comm comm, const PartitionRequest& request) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  Partition p;
  p.world = comm;
  DecompositionKind kind = request.kind;
  std::ostringstream why;
  if (ranks == 1) {
    kind = DecompositionKind::space;
    why << "one rank";
  } else if (kind == DecompositionKind::automatic) {
    if (!request.velocity_split_allowed) {
      kind = DecompositionKind::space;
      why << "velocity split not possible: " << request.velocity_split_refusal;
    } else {
      const double space = space_values(request, ranks), velocity = velocity_values(request);
      kind = space <= velocity ? DecompositionKind::space : DecompositionKind::velocity;
      why << "values sent per rank and step: space halos " << space << ", velocity moment sums "
          << velocity;
    }
  } else {
    why << "-decomp " << to_string(kind);
  }
  if (kind != DecompositionKind::space && ranks > 1)
    require(request.velocity_split_allowed, "-decomp ", to_string(kind),
            ": this case cannot split its velocities over ranks (", request.velocity_split_refusal,
            "); use -decomp space");
  p.kind = kind;
  p.velocity_ranks = kind == DecompositionKind::space      ? 1
                     : kind == DecompositionKind::velocity ? ranks
                                                           : hybrid_velocity_ranks(request, ranks);
  require(p.velocity_ranks <= request.nv, "-decomp ", to_string(kind), ": ", p.velocity_ranks,
          " velocity ranks for ", request.nv, " velocities; at most one rank per velocity");
  const int space_count = ranks / p.velocity_ranks;
  p.space_ranks = best_space_grid(request, space_count);
  p.reason = why.str();

  p.velocity_rank = rank % p.velocity_ranks;
  int s = rank / p.velocity_ranks;
  for (int a = 0; a < 3; ++a) {
    p.space_coord[a] = s % p.space_ranks[a];
    s /= p.space_ranks[a];
  }
  for (int a = 0; a < 3; ++a) {
    const auto range = split_range(request.cells[a], p.space_ranks[a], p.space_coord[a]);
    p.box.lo[a] = range[0];
    p.box.size[a] = range[1];
  }
  const auto batch = split_range(request.nv, p.velocity_ranks, p.velocity_rank);
  p.velocity_lo = batch[0];
  p.velocity_count = batch[1];

  auto world_rank = [&](std::array<int, 3> coord) {
    const int space = coord[0] + p.space_ranks[0] * (coord[1] + p.space_ranks[1] * coord[2]);
    return p.velocity_rank + p.velocity_ranks * space;
  };
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      if (p.space_ranks[a] == 1) continue;  // one rank on the axis: faces are boundaries
      std::array<int, 3> coord = p.space_coord;
      coord[a] += side == 0 ? -1 : 1;
      if (coord[a] < 0 || coord[a] >= p.space_ranks[a]) {
        if (!request.periodic[a]) continue;
        coord[a] = (coord[a] + p.space_ranks[a]) % p.space_ranks[a];
      }
      p.neighbour[a][side] = world_rank(coord);
    }

  const double mean = double(request.cells[0]) * request.cells[1] * request.cells[2] / space_count;
  std::array<int, 3> largest{};
  for (int a = 0; a < 3; ++a) largest[a] = split_range(request.cells[a], p.space_ranks[a], 0)[1];
  p.imbalance = double(largest[0]) * largest[1] * largest[2] / mean - 1.0;

  MPI_Comm_split(comm, rank / p.velocity_ranks, p.velocity_rank, &p.velocity_group);
  return p;
}

void free_partition(Partition& partition) {
  if (partition.velocity_group != MPI_COMM_NULL) MPI_Comm_free(&partition.velocity_group);
}

}  // namespace bolt
