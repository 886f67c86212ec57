#include "gather.hpp"

#include <climits>

#include "core/error.hpp"

namespace bolt {

std::vector<double> allgather_blocks(MPI_Comm comm, const std::array<int, 3>& grid, int width,
                                     const Block& block, const std::vector<double>& values) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const std::int64_t mine = block.box.cells() * block.column_count;
  require(std::int64_t(values.size()) == mine, "gather: ", values.size(), " values for a block of ",
          mine);
  constexpr int kDescriptor = 8;  // lo[3], size[3], column_lo, column_count
  const int descriptor[kDescriptor] = {block.box.lo[0],   block.box.lo[1],   block.box.lo[2],
                                       block.box.size[0], block.box.size[1], block.box.size[2],
                                       block.column_lo,   block.column_count};
  std::vector<int> all(std::size_t(ranks) * kDescriptor);
  MPI_Allgather(descriptor, kDescriptor, MPI_INT, all.data(), kDescriptor, MPI_INT, comm);

  std::vector<int> counts(ranks), offsets(ranks);
  std::int64_t total = 0;
  for (int r = 0; r < ranks; ++r) {
    const int* d = all.data() + r * kDescriptor;
    const std::int64_t n = std::int64_t(d[3]) * d[4] * d[5] * d[7];
    require(total + n <= INT_MAX, "gather: more than ", INT_MAX, " values; too large to gather");
    counts[r] = static_cast<int>(n);
    offsets[r] = static_cast<int>(total);
    total += n;
  }
  std::vector<double> received(std::max<std::int64_t>(total, 1));
  MPI_Allgatherv(values.data(), static_cast<int>(mine), MPI_DOUBLE, received.data(), counts.data(),
                 offsets.data(), MPI_DOUBLE, comm);

  std::vector<double> global(std::size_t(grid[0]) * grid[1] * grid[2] * width, 0.0);
  for (int r = 0; r < ranks; ++r) {
    const int* d = all.data() + r * kDescriptor;
    const double* source = received.data() + offsets[r];
    for (int k = 0; k < d[5]; ++k)
      for (int j = 0; j < d[4]; ++j)
        for (int i = 0; i < d[3]; ++i) {
          const std::int64_t cell =
              (d[0] + i) + std::int64_t(grid[0]) * ((d[1] + j) + std::int64_t(grid[1]) * (d[2] + k));
          for (int c = 0; c < d[7]; ++c) global[cell * width + d[6] + c] = *source++;
        }
  }
  return global;
}

}  // namespace bolt
