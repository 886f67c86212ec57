// The CPU's tiles of a pass over cells (lib/core/cell_tiles.hpp): every cell of
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
  for (std::int64_t tile = 0; tile < t.tiles(); ++tile) {
    int lo[3], hi[3];
    t.range(tile, lo, hi);
    for (int z = lo[2]; z < hi[2]; ++z)
      for (int y = lo[1]; y < hi[1]; ++y)
        for (int x = lo[0]; x < hi[0]; ++x)
          ++visits[x + std::size_t(n[0]) * (y + std::size_t(n[1]) * z)];
  }
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

} // namespace
} // namespace bolt
