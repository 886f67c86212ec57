#include "checkpoint_history.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "hdf5_support.hpp"

namespace bolt {

using namespace hdf5;  // Handle, check: lib/io/hdf5_support.hpp

void write_checkpoint_history(MPI_Comm comm, hid_t file, const std::string& path,
                              const CheckpointHistory& history) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Handle group(H5Gcreate2(file, "history", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, path,
               "create /history");
  Handle xfer = collective_transfer(path);
  for (const auto& [name, values] : history) {
    const hsize_t count = values.size();
    Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose, path, "dataspace");
    Handle set(H5Dcreate2(group, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT),
               H5Dclose, path, name.c_str());
    if (count == 0) continue;
    // Every rank holds the same values: rank 0 writes them, the others join with none.
    const hsize_t memory_count = rank == 0 ? count : 1;
    Handle memory(H5Screate_simple(1, &memory_count, nullptr), H5Sclose, path, "dataspace");
    if (rank != 0) {
      check(H5Sselect_none(memory), path, "select none");
      check(H5Sselect_none(space), path, "select none");
    }
    const double none = 0.0;
    check(H5Dwrite(set, H5T_NATIVE_DOUBLE, memory, space, xfer,
                   rank == 0 ? values.data() : &none),
          path, name.c_str());
  }
}

CheckpointHistory read_checkpoint_history(hid_t file, const std::string& path) {
  const htri_t exists = H5Lexists(file, "history", H5P_DEFAULT);
  check(exists, path, "group lookup");
  if (exists == 0) fail(path, ": not a bolt checkpoint (group /history is missing)");
  Handle group(H5Gopen2(file, "history", H5P_DEFAULT), H5Gclose, path, "open /history");
  H5G_info_t info;
  check(H5Gget_info(group, &info), path, "/history");
  CheckpointHistory history;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    // Listed by name (the library's order), as the header checksum hashes them.
    const ssize_t length = H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr,
                                              0, H5P_DEFAULT);
    check(length, path, "/history");
    std::string name(std::size_t(length) + 1, '\0');
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(),
                       H5P_DEFAULT);
    name.resize(std::size_t(length));
    Handle set(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, path, name.c_str());
    Handle space(H5Dget_space(set), H5Sclose, path, name.c_str());
    const hssize_t points = H5Sget_simple_extent_npoints(space);
    if (H5Sget_simple_extent_ndims(space) != 1 || points < 0)
      fail(path, ": /history/", name, " is not a one-dimensional array");
    std::vector<double> values(static_cast<std::size_t>(points));
    if (points > 0)
      check(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), path,
            name.c_str());
    history.emplace_back(std::move(name), std::move(values));
  }
  return history;
}

const std::vector<double>& history_entry(const CheckpointHistory& history, const std::string& name,
                                         const std::string& file) {
  for (const auto& entry : history)
    if (entry.first == name) return entry.second;
  fail(file, ": the checkpoint's /history has no '", name, "'");
}

std::string history_bytes(const CheckpointHistory& given) {
  // By name, the order the file lists them in.
  CheckpointHistory history = given;
  std::sort(history.begin(), history.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string bytes;
  for (const auto& [name, values] : history) {
    const std::uint64_t count = values.size();
    bytes += name + '\0';
    bytes.append(reinterpret_cast<const char*>(&count), sizeof count);
    bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
  }
  return bytes;
}

}  // namespace bolt
