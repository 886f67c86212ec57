#pragma once
// The order of a pass over a box of cells (for_each_cell_team): the box cut into tiles, each
// visited whole in the cells' own order (x fastest); on the CPU a tile is one thread's, on the GPU
// its cells are consecutive blocks (for_each_cell_team and gpu_layer_cells in launch_cuda.cuh).
//
// A cell's streaming reads the rows of its neighbours along every axis. Visited in plain order,
// the neighbour along the slowest axis was read a whole layer of the box earlier (64 cells of
// 32 KiB rows in the 2-D cavity at 16^3 velocities: 2 MiB back), so it comes back from L3 or
// memory. Tiles cut the axes below the slowest one (the outer axis) to a layer of P cells that
// stays in the thread's L2 until the next layer reads it: between reading a row as the
// neighbour ahead and as the neighbour behind, a thread visits two layers, reading one input
// row and writing one output row per cell, so the window holds 4 P rows; P = L2 / (8 rows)
// leaves half the cache to the velocity tables, the scratch row and an imperfect replacement.
// Tiles are squarish across the cut axes (the least edge, whose neighbours lie in another tile)
// and the outer axis is cut too where the layer's tiles are too few to share among the threads.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fast_divisor.hpp"
#include "host_device.hpp"

namespace bolt {

struct CellTiles {
  int n[3];      // cells of the box per axis
  int size[3];   // cells of a tile per axis (the last tile along an axis may be shorter)
  int count[3];  // tiles per axis

  std::int64_t tiles() const { return std::int64_t(count[0]) * count[1] * count[2]; }
  // f(item) for every cell of tile t, in the cells' own order (item = x + n0 (y + n1 z)).
  template <class F>
  void for_each_cell(std::int64_t t, F&& f) const {
    int lo[3], hi[3];
    range(t, lo, hi);
    for (int z = lo[2]; z < hi[2]; ++z)
      for (int y = lo[1]; y < hi[1]; ++y)
        for (int x = lo[0]; x < hi[0]; ++x)
          f(x + std::int64_t(n[0]) * (y + std::int64_t(n[1]) * z));
  }
  // Cells counted over whole tiles, the last tile along an axis padded to full size.
  std::int64_t padded_cells() const { return tiles() * size[0] * size[1] * size[2]; }
  // The cells [lo, hi) of tile t along each axis (tile 0 first along x).
  void range(std::int64_t t, int lo[3], int hi[3]) const {
    for (int a = 0; a < 3; ++a) {
      const int index = int(t % count[a]);
      t /= count[a];
      lo[a] = index * size[a];
      hi[a] = std::min(n[a], lo[a] + size[a]);
    }
  }
};

// The k-th cell of a box's tiles counted over padded tiles (CellTiles::padded_cells, which must
// fit in an int): the order of the GPU's blocks (launch_cuda.cuh, for_each_cell_team).
struct PaddedTileOrder {
  int n[3];
  int size[3];
  FastDivisor tile_cells, count0, count1, size0, size1;

  explicit PaddedTileOrder(const CellTiles& t)
      : n{t.n[0], t.n[1], t.n[2]},
        size{t.size[0], t.size[1], t.size[2]},
        tile_cells(t.size[0] * t.size[1] * t.size[2]),
        count0(t.count[0]),
        count1(t.count[1]),
        size0(t.size[0]),
        size1(t.size[1]) {}

  // Its item (x fastest: x + n0 (y + n1 z)), or -1 where k falls in a tile's padding.
  BOLT_HOST_DEVICE int item(int k) const {
    const int tile = tile_cells.divide(k), local = k - tile * tile_cells.divisor();
    const int tile12 = count0.divide(tile), tile2 = count1.divide(tile12);
    const int local12 = size0.divide(local), local2 = size1.divide(local12);
    const int c0 = (tile - tile12 * count0.divisor()) * size[0] + local - local12 * size[0];
    const int c1 = (tile12 - tile2 * count1.divisor()) * size[1] + local12 - local2 * size[1];
    const int c2 = tile2 * size[2] + local2;
    if (c0 >= n[0] || c1 >= n[1] || c2 >= n[2]) return -1;
    return c0 + n[0] * (c1 + n[1] * c2);
  }
};

// The slowest axis of a box with more than one cell (0 for a single cell).
inline int outer_axis(const int n[3]) {
  int outer = 0;
  for (int a = 0; a < 3; ++a)
    if (n[a] > 1) outer = a;
  return outer;
}

// Tiles of a box of n cells whose layers (the cells of a tile between two neighbours along the
// outer axis) hold at most `layer` cells, the outer axis walked whole inside each tile.
inline CellTiles layer_tiles(const int n[3], std::int64_t layer) {
  CellTiles t{{n[0], n[1], n[2]}, {n[0], n[1], n[2]}, {1, 1, 1}};
  const int outer = outer_axis(n);
  layer = std::max<std::int64_t>(1, layer);
  int cut = 0;  // axes below the outer one with more than one cell
  for (int a = 0; a < outer; ++a) cut += n[a] > 1;
  // The first of two cut axes takes the square root of the layer, the last what is left of it.
  const std::int64_t side =
      cut == 2 ? std::max<std::int64_t>(1, std::int64_t(std::sqrt(double(layer)))) : layer;
  std::int64_t left = layer;
  for (int a = 0; a < outer; ++a) {
    if (n[a] <= 1) continue;
    t.size[a] = int(std::min<std::int64_t>(n[a], --cut > 0 ? side : left));
    left = std::max<std::int64_t>(1, left / t.size[a]);
  }
  // As many tiles as that size needs, all of about one size (the least padding on the GPU).
  for (int a = 0; a < 3; ++a)
    if (a != outer) {
      t.count[a] = (n[a] + t.size[a] - 1) / t.size[a];
      t.size[a] = (n[a] + t.count[a] - 1) / t.count[a];
    }
  return t;
}

// Tiles of a box of n cells whose rows take row_bytes each, for threads that each have
// cache_bytes of L2 (read from the machine by cpu_l2_bytes).
inline CellTiles cell_tiles(const int n[3], std::size_t row_bytes, std::size_t cache_bytes,
                            int threads) {
  CellTiles t = layer_tiles(
      n, std::int64_t(cache_bytes / (8 * std::max<std::size_t>(row_bytes, 1))));
  const int outer = outer_axis(n);
  std::int64_t in_layer = 1;
  for (int a = 0; a < 3; ++a)
    if (a != outer) in_layer *= t.count[a];
  // Enough tiles for every thread to take several (the dynamic schedule then evens them out).
  const std::int64_t wanted = 4 * std::int64_t(std::max(threads, 1));
  const int chunks = int(std::min<std::int64_t>(n[outer], (wanted + in_layer - 1) / in_layer));
  t.size[outer] = (n[outer] + chunks - 1) / chunks;
  t.count[outer] = (n[outer] + t.size[outer] - 1) / t.size[outer];
  return t;
}

}  // namespace bolt
