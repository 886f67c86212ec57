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

// Throws bolt::Error "<file>: HDF5 <what> failed" when an HDF5 call returns a negative status.
void check(herr_t status, const std::string& file, const char* what);

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
