#include "hdf5_support.hpp"

#include <exception>
#include <utility>

#include "core/error.hpp"

namespace bolt::hdf5 {

Handle::Handle(hid_t id, herr_t (*close)(hid_t), const std::string& file, const char* what)
    : id_(id), close_(close) {
  if (id_ < 0) fail(file, ": HDF5 ", what, " failed");
}

// A moved-from handle holds -1 and closes nothing; that is what lets helpers return handles.
Handle::Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}

Handle::~Handle() {
  if (id_ >= 0) close_(id_);
}

void check(herr_t status, const std::string& file, const char* what) {
  if (status < 0) fail(file, ": HDF5 ", what, " failed");
}

Handle mpio_access(MPI_Comm comm, const std::string& path) {
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, path, "file access list");
  check(H5Pset_fapl_mpio(access, comm, MPI_INFO_NULL), path, "MPI-IO driver");
  return access;
}

Handle zero_filled(const std::string& path) {
  Handle create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, path, "dataset creation list");
  const double zero = 0.0;
  check(H5Pset_fill_value(create, H5T_NATIVE_DOUBLE, &zero), path, "fill value");
  check(H5Pset_fill_time(create, H5D_FILL_TIME_ALLOC), path, "fill time");
  return create;
}

Handle collective_transfer(const std::string& path) {
  Handle xfer(H5Pcreate(H5P_DATASET_XFER), H5Pclose, path, "transfer list");
  check(H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE), path, "collective transfer");
  return xfer;
}

void on_rank0(MPI_Comm comm, const std::function<void()>& action) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string message;
  if (rank == 0) try {
      action();
    } catch (const std::exception& e) {
      message = e.what();
    }
  // The length goes first so the other ranks can size their buffer; 0 means success.
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  message.resize(length);
  MPI_Bcast(message.data(), length, MPI_CHAR, 0, comm);
  if (length > 0) throw Error(message);
}

}  // namespace bolt::hdf5
