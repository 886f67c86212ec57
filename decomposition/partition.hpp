#pragma once
// How the ranks of a run share the phase space (DESIGN.md, "Decomposition"): a grid of
// rectangular sub-boxes of physical space (space decomposition), batches of discrete velocities
// over the whole box (velocity decomposition), or both (hybrid: a 2-D rank grid). A rank's world
// rank is velocity_rank + velocity_ranks * space_rank, so the ranks that sum moments together
// (one box, all velocity batches) are neighbours on a node.
#include <mpi.h>

#include <array>
#include <string>

#include "owned_box.hpp"

namespace bolt {

enum class DecompositionKind { automatic, space, velocity, hybrid };

DecompositionKind parse_decomposition(const std::string& name);
const char* to_string(DecompositionKind kind);

// What the choice has to know about the case.
struct PartitionRequest {
  DecompositionKind kind = DecompositionKind::automatic;
  int velocity_ranks = 0;                 // hybrid: ranks per velocity group (0: choose)
  std::array<int, 3> cells{1, 1, 1};      // global interior cells
  std::array<bool, 3> active{};           // axes with ghost layers
  std::array<bool, 3> periodic{};         // axes whose two faces connect
  int ghost = 1;
  int nv = 1;
  int sums_per_cell = 5;                  // doubles summed across velocity ranks per cell
  bool velocity_split_allowed = true;     // false: the model/boundaries need every velocity
  std::string velocity_split_refusal;     // why not, for the error message
};

struct Partition {
  DecompositionKind kind = DecompositionKind::space;
  std::string reason;                      // why this decomposition (printed at start)
  std::array<int, 3> space_ranks{1, 1, 1};
  int velocity_ranks = 1;
  std::array<int, 3> space_coord{0, 0, 0};
  int velocity_rank = 0;
  OwnedBox box;                            // cells this rank owns
  int velocity_lo = 0, velocity_count = 1; // velocities this rank owns
  // World rank of the neighbour across each face ([axis][side]); -1 at a boundary of the
  // domain. A periodic axis split over several ranks wraps around; a periodic axis on one rank
  // has no neighbour (the boundary fill copies the opposite side).
  std::array<std::array<int, 2>, 3> neighbour{{{-1, -1}, {-1, -1}, {-1, -1}}};
  double imbalance = 0.0;                  // largest box cells / mean cells - 1
  MPI_Comm world = MPI_COMM_NULL;
  MPI_Comm velocity_group = MPI_COMM_NULL; // ranks owning this box (they sum moments)

  int space_rank_count() const { return space_ranks[0] * space_ranks[1] * space_ranks[2]; }
  // The rank that reports for this box (writes its fields, contributes its diagnostics).
  bool box_leader() const { return velocity_rank == 0; }
};

// Splits the run over the ranks of `comm` (collective: creates the velocity-group communicator,
// released by free_partition). Throws bolt::Error for a request that cannot be met.
Partition make_partition(MPI_Comm comm, const PartitionRequest& request);
void free_partition(Partition& partition);

// Cells per rank along one axis: n split into parts as equal as possible (the first n % parts
// ranks get one more). Returns {first cell, count} of part `index`.
std::array<int, 2> split_range(int n, int parts, int index);

}  // namespace bolt
