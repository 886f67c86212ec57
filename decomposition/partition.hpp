#pragma once
// How the ranks of a run share the phase space (DESIGN.md, "Decomposition"): the boxes of the
// geometry cut into rectangular parts shared out over ranks by cell count (space
// decomposition), batches of discrete velocities over all boxes (velocity decomposition), or both
// (hybrid: a 2-D rank grid). A rank's world rank is velocity_rank + velocity_ranks * space_rank,
// so the ranks that sum moments together (same boxes, all velocity batches) are neighbours on a
// node.
#include <mpi.h>

#include <array>
#include <string>

#include "geometry.hpp"
#include "owned_box.hpp"

namespace bolt {

enum class DecompositionKind { automatic, space, velocity, hybrid };

DecompositionKind parse_decomposition(const std::string& name);
const char* to_string(DecompositionKind kind);

// What the choice has to know about the case.
struct PartitionRequest {
  DecompositionKind kind = DecompositionKind::automatic;
  int velocity_ranks = 0;                 // hybrid: ranks per velocity group (0: choose)
  Geometry geometry;                      // boxes, solids, pieces, contacts
  std::array<bool, 3> active{};           // axes with ghost layers
  std::array<bool, 3> periodic{};         // axes whose two outer faces connect
  int ghost = 1;
  int nv = 1;
  int sums_per_cell = 5;                  // doubles summed across velocity ranks per cell
  bool velocity_split_allowed = true;     // false: the model/boundaries need every velocity
  std::string velocity_split_refusal;     // why not, for the error message
};

// Part of a face of an owned box: a rectangle in global cell indices along the face's two
// other axes, (axis + 1) % 3 and (axis + 2) % 3. Its ghost cells come from the rank owning the
// cells across (peer >= 0; the halo message carries `tag` on both sides), or from a boundary
// condition: the case's for that side of the axis, or a wall at rest on a solid's face.
struct FaceSegment {
  std::array<int, 2> lo{0, 0}, size{0, 0};
  int peer = -1;
  int send_tag = 0, receive_tag = 0;  // the two messages across it
  bool solid = false;
  bool self_periodic = false;  // periodic onto this box's own opposite face: copied locally
};

// A box of cells one rank owns: a piece of the geometry or a part of one.
struct OwnedPart {
  OwnedBox box;
  int piece = 0;
  std::array<std::array<std::vector<FaceSegment>, 2>, 3> faces;  // [axis][side]
};

struct Partition {
  DecompositionKind kind = DecompositionKind::space;
  std::string reason;                      // why this decomposition (printed at start)
  int space_ranks = 1;                     // ranks sharing out the boxes
  int velocity_ranks = 1;
  int space_rank = 0;
  int velocity_rank = 0;
  std::vector<OwnedPart> parts;            // boxes this rank owns (the same in a velocity group)
  int total_parts = 0;                     // over all space ranks
  int velocity_lo = 0, velocity_count = 1; // velocities this rank owns
  double imbalance = 0.0;                  // largest rank cells / mean cells - 1
  MPI_Comm world = MPI_COMM_NULL;
  MPI_Comm velocity_group = MPI_COMM_NULL; // ranks owning these boxes (they sum moments)

  // The rank that reports for these boxes (writes their fields, contributes diagnostics).
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
