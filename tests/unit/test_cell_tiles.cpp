// The tiles of a pass over cells (lib/core/cell_tiles.hpp): every cell of
// the box in exactly one tile, whatever the box (1-D, 2-D, 3-D, thin regions, a
// single cell); a tile's layer across the cut axes within the cache budget (L2
// / 8 rows); enough tiles for the threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/cell_tiles.hpp"

namespace bolt {
namespace {

void expect_each_cell_once(const int n[3], std::size_t row_bytes,
                           std::size_t cache, int threads) {
  const CellTiles t = cell_tiles(n, row_bytes, cache, threads);
  std::vector<int> visits(std::size_t(n[0]) * n[1] * n[2], 0);
  for (std::int64_t tile = 0; tile < t.tiles(); ++tile)
    t.for_each_cell(tile, [&](std::int64_t item) { ++visits[std::size_t(item)]; });
  for (std::size_t c = 0; c < visits.size(); ++c)
    ASSERT_EQ(visits[c], 1)
        << "cell " << c << " of " << n[0] << "x" << n[1] << "x" << n[2];
}

TEST(CellTiles, EveryCellOnceInAnyBox) {
  const int boxes[][3] = {{1, 1, 1},  {7, 1, 1},   {64, 64, 1},  {129, 37, 1},
                          {1, 50, 1}, {13, 11, 9}, {64, 64, 64}, {1, 1, 30},
                          {2, 40, 3}, {40, 1, 17}};
  for (const auto &n : boxes)
    for (std::size_t row :
         {std::size_t(64), std::size_t(32768), std::size_t(1) << 22})
      for (int threads : {1, 2, 16})
        expect_each_cell_once(n, row, std::size_t(2) << 20, threads);
}

TEST(CellTiles, LayerFitsTheCacheBudgetAndTheThreadsGetSeveralTiles) {
  // 2-D 64 x 64, 32 KiB rows, 2 MiB L2: layers of 2 MiB / (8 * 32 KiB) = 8
  // cells along x, the whole y axis walked inside a tile unless the 8 tiles of
  // a layer are too few for 4 per thread.
  const int plane[3] = {64, 64, 1};
  CellTiles t = cell_tiles(plane, 32768, std::size_t(2) << 20, 2);
  EXPECT_EQ(t.size[0], 8);
  EXPECT_EQ(t.size[1], 64);
  EXPECT_GE(t.tiles(), 8);
  t = cell_tiles(plane, 32768, std::size_t(2) << 20,
                 4); // 16 tiles wanted: y cut in two
  EXPECT_EQ(t.size[1], 32);
  EXPECT_GE(t.tiles(), 16);
  // 3-D 64^3: a layer of 8 cells cut squarish (2 x 4), z walked inside.
  const int box[3] = {64, 64, 64};
  t = cell_tiles(box, 32768, std::size_t(2) << 20, 2);
  EXPECT_EQ(t.size[0], 2);
  EXPECT_EQ(t.size[1], 4);
  EXPECT_EQ(t.size[2], 64);
}

// The GPU's order (launch_cuda.cuh, for_each_cell_team): block k takes PaddedTileOrder's item(k)
// of layer_tiles; every cell once, the padding empty, and the box's own order where one layer
// holds the box's layer.
void expect_padded_order_covers_once(const int n[3], std::int64_t layer) {
  const CellTiles t = layer_tiles(n, layer);
  const PaddedTileOrder order(t);
  std::vector<int> visits(std::size_t(n[0]) * n[1] * n[2], 0);
  for (int k = 0; k < int(t.padded_cells()); ++k) {
    const int item = order.item(k);
    if (item < 0) continue;
    ASSERT_LT(std::size_t(item), visits.size());
    ++visits[std::size_t(item)];
  }
  for (std::size_t c = 0; c < visits.size(); ++c)
    ASSERT_EQ(visits[c], 1) << "cell " << c << " of " << n[0] << "x" << n[1] << "x" << n[2]
                            << ", layer " << layer;
  // Tiles of balanced sizes: less than one cell of padding per tile along each axis.
  for (int a = 0; a < 3; ++a) EXPECT_LT(t.count[a] * t.size[a] - n[a], t.count[a]);
}

TEST(CellTiles, GpuOrderCoversEveryCellOnce) {
  const int boxes[][3] = {{1, 1, 1}, {7, 1, 1},  {64, 64, 1}, {129, 37, 1}, {1, 50, 1},
                          {13, 11, 9}, {64, 64, 64}, {1, 1, 30}, {2, 40, 3}, {100, 3, 70}};
  for (const auto &n : boxes)
    for (std::int64_t layer : {1, 7, 64, 121, 132, 4096, 1 << 20})
      expect_padded_order_covers_once(n, layer);
}

TEST(CellTiles, GpuOrderWalksTheOuterAxisInsideSquarishTiles) {
  // 64^3 with layers of at most 132 cells: 11 x 11 tiles (6 per axis, 2 cells of padding),
  // z inside; the cell a layer behind along z is 121 blocks earlier.
  const int box[3] = {64, 64, 64};
  const CellTiles t = layer_tiles(box, 132);
  const PaddedTileOrder order(t);
  EXPECT_EQ(t.size[0], 11);
  EXPECT_EQ(t.size[1], 11);
  EXPECT_EQ(t.size[2], 64);
  EXPECT_EQ(order.item(0), 0);
  EXPECT_EQ(order.item(1), 1);
  EXPECT_EQ(order.item(11), 64);        // (0, 1, 0)
  EXPECT_EQ(order.item(121), 64 * 64);  // (0, 0, 1)
  // A box whose layer fits: its own order, no padding.
  const int plane[3] = {128, 128, 1};
  const CellTiles whole = layer_tiles(plane, 132);
  EXPECT_EQ(whole.tiles(), 1);
  const PaddedTileOrder own(whole);
  for (int k = 0; k < 128 * 128; k += 97) EXPECT_EQ(own.item(k), k);
}

// FastDivisor (core/fast_divisor.hpp): the quotient of every int below 2^31 it is given, for
// small divisors, powers of two and their neighbours, and large ones.
TEST(FastDivisor, ExactQuotients) {
  std::vector<int> divisors;
  for (int d = 1; d <= 300; ++d) divisors.push_back(d);
  for (int s = 9; s <= 30; ++s)
    for (int e : {-1, 0, 1}) divisors.push_back((1 << s) + e);
  divisors.push_back(2147483647);
  for (int d : divisors) {
    const FastDivisor divisor(d);
    const std::int64_t d64 = d;
    for (std::int64_t n : {std::int64_t(0), std::int64_t(1), d64 - 1, d64, d64 + 1, 2 * d64 + 3,
                           std::int64_t(1000003), std::int64_t(2147483646),
                           std::int64_t(2147483647)}) {
      if (n > 2147483647) continue;
      ASSERT_EQ(divisor.divide(int(n)), int(n) / d) << n << " / " << d;
    }
    for (std::int64_t n = 0; n < 2147483647; n += 2147483647 / 997 + d)
      ASSERT_EQ(divisor.divide(int(n)), int(n) / d) << n << " / " << d;
  }
  EXPECT_THROW(FastDivisor(0), std::exception);
  EXPECT_THROW(FastDivisor(-3), std::exception);
}

} // namespace
} // namespace bolt
