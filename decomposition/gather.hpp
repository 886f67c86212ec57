#pragma once
// Assembling distributed data into global arrays on every rank, for the diagnostics that need
// the whole domain (cavity drag and vortex flow, shock profiles, conservation totals). Output and
// checkpoints do not use this: they write each rank's block collectively (lib/io).
#include <mpi.h>

#include <array>
#include <span>
#include <vector>

#include "owned_box.hpp"

namespace bolt {

// A rank's part of a global array of shape [cells of `grid`][width] (cells x fastest): the cells
// of `box` and the columns [column_lo, column_lo + column_count). `values` holds them box-cell-
// major, column fastest. A rank contributing nothing passes an empty box.
struct Block {
  OwnedBox box;
  int column_lo = 0, column_count = 0;
};

// Collective over comm: every rank receives the whole array. A rank passes any number of blocks
// (values: the blocks' values one after the other). Positions nobody contributes stay 0.
std::vector<double> allgather_blocks(MPI_Comm comm, const std::array<int, 3>& grid, int width,
                                     const std::vector<Block>& blocks,
                                     std::span<const double> values);

}  // namespace bolt
