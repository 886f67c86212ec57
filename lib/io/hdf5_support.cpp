#include "hdf5_support.hpp"

#include <exception>
#include <filesystem>
#include <utility>

#include "core/error.hpp"

namespace bolt::hdf5 {

namespace {

// The innermost description on HDF5's error stack (the first of an upward walk): the library's
// report of the cause, e.g. a system call's error.
herr_t keep_innermost(unsigned, const H5E_error2_t* error, void* data) {
  std::string& cause = *static_cast<std::string*>(data);
  if (cause.empty() && error->desc && error->desc[0]) cause = error->desc;
  return 0;
}

[[noreturn]] void fail_hdf5(const std::string& file, const char* what) {
  std::string cause;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_innermost, &cause);
  H5Eclear2(H5E_DEFAULT);
  if (cause.empty()) fail(file, ": HDF5 ", what, " failed");
  fail(file, ": HDF5 ", what, " failed (", cause, ")");
}

}  // namespace

Handle::Handle(hid_t id, herr_t (*close)(hid_t), const std::string& file, const char* what)
    : id_(id), close_(close) {
  if (id_ < 0) fail_hdf5(file, what);
}

// A moved-from handle holds -1 and closes nothing; that is what lets helpers return handles.
Handle::Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}

Handle::~Handle() {
  if (id_ >= 0) close_(id_);
}

void check(herr_t status, const std::string& file, const char* what) {
  if (status < 0) fail_hdf5(file, what);
}

QuietHdf5::QuietHdf5() {
  H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietHdf5::~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

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

void on_every_rank(MPI_Comm comm, const std::function<void()>& write,
                   const std::function<void()>& clean_up) {
  std::string message;
  try {
    write();
  } catch (const std::exception& e) {
    message = e.what();
  }
  int failed = message.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm);
  if (failed == 0) return;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) try {
      clean_up();
    } catch (const std::exception&) {
      // the write's error is the one to report
    }
  throw Error(message.empty() ? "the write failed on another rank" : message);
}

void require_free_space(const std::string& path, double bytes) {
  constexpr double kMetadataMargin = 64.0 * 1024.0;
  const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
  std::error_code error;
  const std::filesystem::space_info space = std::filesystem::space(folder, error);
  if (error) return;  // nothing known: the write itself reports
  const double needed = bytes + kMetadataMargin;
  if (double(space.available) < needed)
    fail(path, ": not enough space on the device of ", folder.string(), " (", needed / 1048576.0,
         " MiB needed, ", double(space.available) / 1048576.0, " MiB free; No space left on ",
         "device)");
}

}  // namespace bolt::hdf5
