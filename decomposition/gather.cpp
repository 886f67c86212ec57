#include "gather.hpp"

#include <climits>

#include "core/error.hpp"

namespace bolt {

std::vector<double> allgather_blocks(MPI_Comm comm, const std::array<int, 3>& grid, int width,
                                     const std::vector<Block>& blocks,
                                     std::span<const double> values) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  constexpr int kDescriptor = 8;  // lo[3], size[3], column_lo, column_count
  std::vector<int> mine;
  std::int64_t my_values = 0;
  for (const Block& b : blocks) {
    mine.insert(mine.end(), {b.box.lo[0], b.box.lo[1], b.box.lo[2], b.box.size[0], b.box.size[1],
                             b.box.size[2], b.column_lo, b.column_count});
    my_values += b.box.cells() * b.column_count;
  }
  require(std::int64_t(values.size()) == my_values, "gather: ", values.size(),
          " values for blocks of ", my_values);

  // Descriptors of every rank's blocks, then the values.
  int my_descriptors = static_cast<int>(mine.size());
  std::vector<int> descriptor_counts(ranks), descriptor_offsets(ranks);
  MPI_Allgather(&my_descriptors, 1, MPI_INT, descriptor_counts.data(), 1, MPI_INT, comm);
  int descriptor_total = 0;
  for (int r = 0; r < ranks; ++r) {
    descriptor_offsets[r] = descriptor_total;
    descriptor_total += descriptor_counts[r];
  }
  std::vector<int> all(std::max(descriptor_total, 1));
  MPI_Allgatherv(mine.data(), my_descriptors, MPI_INT, all.data(), descriptor_counts.data(),
                 descriptor_offsets.data(), MPI_INT, comm);

  std::vector<int> counts(ranks), offsets(ranks);
  std::int64_t total = 0;
  for (int r = 0; r < ranks; ++r) {
    std::int64_t n = 0;
    for (int k = 0; k < descriptor_counts[r]; k += kDescriptor) {
      const int* d = all.data() + descriptor_offsets[r] + k;
      n += std::int64_t(d[3]) * d[4] * d[5] * d[7];
    }
    require(total + n <= INT_MAX, "gather: more than ", INT_MAX, " values; too large to gather");
    counts[r] = static_cast<int>(n);
    offsets[r] = static_cast<int>(total);
    total += n;
  }
  std::vector<double> received(std::max<std::int64_t>(total, 1));
  MPI_Allgatherv(values.data(), static_cast<int>(my_values), MPI_DOUBLE, received.data(),
                 counts.data(), offsets.data(), MPI_DOUBLE, comm);

  std::vector<double> global(std::size_t(grid[0]) * grid[1] * grid[2] * width, 0.0);
  const double* source = received.data();
  for (int r = 0; r < ranks; ++r)
    for (int k = 0; k < descriptor_counts[r]; k += kDescriptor) {
      const int* d = all.data() + descriptor_offsets[r] + k;
      for (int z = 0; z < d[5]; ++z)
        for (int y = 0; y < d[4]; ++y)
          for (int x = 0; x < d[3]; ++x) {
            const std::int64_t cell = (d[0] + x) + std::int64_t(grid[0]) *
                                                       ((d[1] + y) + std::int64_t(grid[1]) * (d[2] + z));
            for (int c = 0; c < d[7]; ++c) global[cell * width + d[6] + c] = *source++;
          }
    }
  return global;
}

}  // namespace bolt
