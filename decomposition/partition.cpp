#include "partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

#include "core/error.hpp"

namespace bolt {

namespace {

int hi(const OwnedBox& b, int a) { return b.lo[a] + b.size[a]; }

// Values crossing between the parts of one box split into a p[0] x p[1] x p[2] grid per step
// (both directions, `ghost` layers deep, every velocity), or infinity where a part would have
// fewer cells than the ghost depth on a split axis.
double halo_values(const PartitionRequest& r, const OwnedBox& box, const std::array<int, 3>& p) {
  double values = 0.0;
  for (int a = 0; a < 3; ++a) {
    if (p[a] == 1) continue;
    if (!r.active[a] || box.size[a] / p[a] < r.ghost) return std::numeric_limits<double>::infinity();
    const double area = double(box.size[(a + 1) % 3]) * box.size[(a + 2) % 3];
    values += 2.0 * (p[a] - 1) * area * r.ghost * r.nv;
  }
  return values;
}

// The split of `box` into `parts` with the least halo traffic (ties go to splitting z, then y:
// their faces are contiguous planes of the x-fastest numbering); {0, 0, 0} if none is possible.
std::array<int, 3> best_split(const PartitionRequest& r, const OwnedBox& box, int parts) {
  std::array<int, 3> best{0, 0, 0};
  double best_values = std::numeric_limits<double>::infinity();
  for (int px = parts; px >= 1; --px) {
    if (parts % px) continue;
    for (int py = parts / px; py >= 1; --py) {
      if ((parts / px) % py) continue;
      const std::array<int, 3> p{px, py, parts / px / py};
      const double values = halo_values(r, box, p);
      if (values <= best_values && values < std::numeric_limits<double>::infinity()) {
        best = p;
        best_values = values;
      }
    }
  }
  return best;
}

// Every part of the run: each piece cut into about its share of the space ranks.
struct GlobalParts {
  std::vector<OwnedBox> boxes;
  std::vector<int> piece;
  std::vector<int> owner;  // space rank
  double halo_values = 0.0;
};

GlobalParts cut_pieces(const PartitionRequest& r, int space_ranks) {
  const Geometry& g = r.geometry;
  GlobalParts out;
  const double total = double(g.fluid_cells());
  for (std::size_t i = 0; i < g.pieces.size(); ++i) {
    const OwnedBox& piece = g.pieces[i];
    for (int a = 0; a < 3; ++a)
      require(!r.active[a] || piece.size[a] >= r.ghost, "geometry: the box ", piece.lo[0], ",",
              piece.lo[1], ",", piece.lo[2], " +", piece.size[0], "x", piece.size[1], "x",
              piece.size[2], " (a box, or a part of one between solids) has fewer than ", r.ghost,
              " cells on axis ", "xyz"[a], ", the ghost depth of the streaming scheme");
    int wanted = std::max(1, int(std::ceil(space_ranks * double(piece.cells()) / total - 1e-9)));
    std::array<int, 3> grid{0, 0, 0};
    for (; wanted >= 1; --wanted) {
      grid = best_split(r, piece, wanted);
      if (grid[0] > 0) break;
    }
    out.halo_values += halo_values(r, piece, grid);
    for (int k = 0; k < grid[2]; ++k)
      for (int j = 0; j < grid[1]; ++j)
        for (int ii = 0; ii < grid[0]; ++ii) {
          const int c[3] = {ii, j, k};
          OwnedBox b;
          for (int a = 0; a < 3; ++a) {
            const auto range = split_range(piece.size[a], grid[a], c[a]);
            b.lo[a] = piece.lo[a] + range[0];
            b.size[a] = range[1];
          }
          out.boxes.push_back(b);
          out.piece.push_back(static_cast<int>(i));
        }
  }
  // Largest part first to the least loaded rank (ties: the lower rank).
  std::vector<int> order(out.boxes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return out.boxes[a].cells() > out.boxes[b].cells(); });
  std::vector<std::int64_t> load(space_ranks, 0);
  out.owner.assign(out.boxes.size(), 0);
  for (int p : order) {
    const int rank = int(std::min_element(load.begin(), load.end()) - load.begin());
    out.owner[p] = rank;
    load[rank] += out.boxes[p].cells();
  }
  return out;
}

// Transverse overlap of two boxes across axis a: {lo, size} per transverse axis, size 0 if none.
FaceSegment overlap_segment(const OwnedBox& a, const OwnedBox& b, int axis) {
  FaceSegment s;
  for (int t = 0; t < 2; ++t) {
    const int d = (axis + 1 + t) % 3;
    const int from = std::max(a.lo[d], b.lo[d]), to = std::min(hi(a, d), hi(b, d));
    if (to <= from) return FaceSegment{};
    s.lo[t] = from;
    s.size[t] = to - from;
  }
  return s;
}

bool inside(const OwnedBox& b, const std::array<int, 3>& c) {
  for (int a = 0; a < 3; ++a)
    if (c[a] < b.lo[a] || c[a] >= hi(b, a)) return false;
  return true;
}

// The segments of face (axis, side) of part `me`: across other parts (halos; a periodic axis
// wraps around), and the rest as boundary segments (solid where the cell across is in a solid).
std::vector<FaceSegment> face_segments(const PartitionRequest& r, const GlobalParts& all, int me,
                                       int axis, int side, int velocity_rank, int velocity_ranks) {
  const OwnedBox& box = all.boxes[me];
  const int extent = r.geometry.extent[axis];
  const int plane = side == 1 ? hi(box, axis) : box.lo[axis];
  const int count = static_cast<int>(all.boxes.size());
  std::vector<FaceSegment> across;
  for (int q = 0; q < count; ++q) {
    const OwnedBox& other = all.boxes[q];
    const int other_plane = side == 1 ? other.lo[axis] : hi(other, axis);
    bool touches = other_plane == plane && q != me;
    bool wraps = false;
    if (!touches && r.periodic[axis] && plane == (side == 1 ? extent : 0) &&
        other_plane == (side == 1 ? 0 : extent)) {
      touches = wraps = true;
    }
    if (!touches) continue;
    FaceSegment s = overlap_segment(box, other, axis);
    if (s.size[0] == 0) continue;
    if (wraps && q == me) {
      s.self_periodic = true;
    } else {
      s.peer = velocity_rank + velocity_ranks * all.owner[q];
      // Message keys: (sender part, its face, receiver part), the same on both ends.
      s.send_tag = ((me * 3 + axis) * 2 + side) * count + q;
      s.receive_tag = ((q * 3 + axis) * 2 + (1 - side)) * count + me;
    }
    across.push_back(s);
  }
  // Cut the face along every segment edge; each cell of that grid not covered is a boundary.
  std::array<std::vector<int>, 2> cuts;
  for (int t = 0; t < 2; ++t) {
    const int d = (axis + 1 + t) % 3;
    cuts[t] = {box.lo[d], hi(box, d)};
    for (const FaceSegment& s : across) {
      cuts[t].push_back(s.lo[t]);
      cuts[t].push_back(s.lo[t] + s.size[t]);
    }
    std::sort(cuts[t].begin(), cuts[t].end());
    cuts[t].erase(std::unique(cuts[t].begin(), cuts[t].end()), cuts[t].end());
  }
  std::vector<FaceSegment> segments = across;
  for (std::size_t i1 = 0; i1 + 1 < cuts[1].size(); ++i1)
    for (std::size_t i0 = 0; i0 + 1 < cuts[0].size(); ++i0) {
      const int t0 = cuts[0][i0], t1 = cuts[1][i1];
      bool covered = false;
      for (const FaceSegment& s : across)
        covered = covered || (t0 >= s.lo[0] && t0 < s.lo[0] + s.size[0] && t1 >= s.lo[1] &&
                              t1 < s.lo[1] + s.size[1]);
      if (covered) continue;
      FaceSegment b;
      b.lo = {t0, t1};
      b.size = {cuts[0][i0 + 1] - t0, cuts[1][i1 + 1] - t1};
      std::array<int, 3> cell{};
      cell[axis] = side == 1 ? plane : plane - 1;
      cell[(axis + 1) % 3] = t0;
      cell[(axis + 2) % 3] = t1;
      for (const OwnedBox& solid : r.geometry.solids) b.solid = b.solid || inside(solid, cell);
      segments.push_back(b);
    }
  return segments;
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
// either way; the choice is by communication volume. (Where both are allowed the velocity split
// is also the faster per GPU in docs/benchmarks.md: half a velocity row per cell fits the GPU
// better.)
double space_values(const PartitionRequest& r, int ranks) {
  return cut_pieces(r, ranks).halo_values / ranks;
}

double velocity_values(const PartitionRequest& r) {
  return 2.0 * double(r.geometry.fluid_cells()) * r.sums_per_cell;
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
  p.space_ranks = ranks / p.velocity_ranks;
  p.reason = why.str();
  p.velocity_rank = rank % p.velocity_ranks;
  p.space_rank = rank / p.velocity_ranks;
  const auto batch = split_range(request.nv, p.velocity_ranks, p.velocity_rank);
  p.velocity_lo = batch[0];
  p.velocity_count = batch[1];

  const GlobalParts all = cut_pieces(request, p.space_ranks);
  p.total_parts = static_cast<int>(all.boxes.size());
  std::vector<std::int64_t> load(p.space_ranks, 0);
  for (int q = 0; q < p.total_parts; ++q) {
    load[all.owner[q]] += all.boxes[q].cells();
    if (all.owner[q] != p.space_rank) continue;
    OwnedPart part;
    part.box = all.boxes[q];
    part.piece = all.piece[q];
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side)
        if (request.active[a])
          part.faces[a][side] =
              face_segments(request, all, q, a, side, p.velocity_rank, p.velocity_ranks);
    p.parts.push_back(part);
  }
  const double mean = double(request.geometry.fluid_cells()) / p.space_ranks;
  p.imbalance = double(*std::max_element(load.begin(), load.end())) / mean - 1.0;

  MPI_Comm_split(comm, p.space_rank, p.velocity_rank, &p.velocity_group);
  return p;
}

void free_partition(Partition& partition) {
  if (partition.velocity_group != MPI_COMM_NULL) MPI_Comm_free(&partition.velocity_group);
}

}  // namespace bolt
