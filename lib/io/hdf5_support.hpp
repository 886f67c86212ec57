#pragma once
// Small pieces shared by the parallel HDF5 writers and readers (field output, checkpoints):
// an owning identifier, checked calls that name the file, the MPI-IO property lists, and a way
// to run file-system work on rank 0 without leaving other ranks stuck in a collective call.
// Only for lib/io/*.cpp: it pulls in hdf5.h, which must stay out of other headers.
#include <hdf5.h>
#include <mpi.h>

#include <functional>
#include <string>

namespace bolt::hdf5 {

// Owns one HDF5 identifier; every call that makes one is checked where it is made, so a failure
// throws bolt::Error naming the file and the step instead of printing an HDF5 error stack later.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t), const std::string& file, const char* what);
  Handle(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle& operator=(Handle&&) = delete;
  ~Handle();
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// Throws bolt::Error "<file>: HDF5 <what> failed (<cause>)" when an HDF5 call returns a negative
// status; the cause is the innermost message of HDF5's error stack (for a failed write it names
// the system's error, such as "No space left on device").
void check(herr_t status, const std::string& file, const char* what);

// HDF5's own error stack printing off while in scope: failures are reported by bolt's one-line
// error naming the file, not by a trace of the library's internals.
class QuietHdf5 {
 public:
  QuietHdf5();
  ~QuietHdf5();
  QuietHdf5(const QuietHdf5&) = delete;
  QuietHdf5& operator=(const QuietHdf5&) = delete;

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

// File access list with the MPI-IO driver over `comm` (every open/create is collective).
Handle mpio_access(MPI_Comm comm, const std::string& path);
// Dataset transfer list asking for collective I/O, so all ranks' pieces go out in one call.
Handle collective_transfer(const std::string& path);

// Dataset creation list that writes zeros into every element when the dataset is allocated, so
// parts no rank writes (cells outside the domain's boxes) read as 0, not as old disk contents
// (parallel HDF5 does not fill by default).
Handle zero_filled(const std::string& path);

// Runs `action` on rank 0 and makes every rank throw its error, so a failure on rank 0 (disk
// full, permissions) cannot leave the other ranks waiting in the next collective call.
void on_rank0(MPI_Comm comm, const std::function<void()>& action);

// Fails, naming the folder and both sizes, unless the file system of `path` has `bytes` (plus a
// margin for HDF5's metadata) free. Checked before an HDF5 file is created: HDF5 1.10 cannot
// close a file whose writes failed and then crashes at exit (HDFFV-11052), so a full disk must
// be found before the first write.
void require_free_space(const std::string& path, double bytes);

// Runs `write` (collective) on every rank; when it failed on any, runs `clean_up` on rank 0 (e.g.
// removes a half-written temporary file) and throws on every rank, so that no rank goes on to a
// collective call the others do not make.
void on_every_rank(MPI_Comm comm, const std::function<void()>& write,
                   const std::function<void()>& clean_up);

// Writes attribute `name` on `object`: a scalar when count is 1, else a 1-D array. Attributes
// are metadata: every rank passes the same values and the library writes them once.
template <class T>
void write_attribute(hid_t object, const std::string& path, const char* name, hid_t file_type,
                     hid_t memory_type, const T* values, hsize_t count = 1) {
  Handle space(count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), H5Sclose,
               path, "dataspace");
  Handle attribute(H5Acreate2(object, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                   path, name);
  check(H5Awrite(attribute, memory_type, values), path, name);
}

}  // namespace bolt::hdf5
