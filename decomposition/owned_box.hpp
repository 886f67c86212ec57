#pragma once
// A block of the global grid: the cells of one part a rank owns (numbered as in the global grid,
// without ghost layers). The space decomposition gives each rank a list of them, and the I/O
// writes and reads every rank's blocks collectively into one global file, so the block is the
// one thing the decomposition and the output have to agree on. A block may be empty (a rank
// with fewer blocks still joins the collective calls).
#include <array>
#include <cstdint>

namespace bolt {

struct OwnedBox {
  std::array<int, 3> lo{0, 0, 0};    // lower corner, global interior cell index per axis
  std::array<int, 3> size{1, 1, 1};  // extent per axis; 0 on any axis makes the box empty

  // 64-bit because the product of three int extents overflows int on large grids.
  std::int64_t cells() const { return std::int64_t(size[0]) * size[1] * size[2]; }
};

// The box covering a whole grid of `cells` (N_x, N_y, N_z): what a single rank owns.
inline OwnedBox whole_grid(const std::array<int, 3>& cells) { return {{0, 0, 0}, cells}; }

}  // namespace bolt
