// Checkpoint and field output round trips through parallel HDF5. Runs at any rank count: the
// 3 x 2 x 1 grid is cut into x slabs, so at 2 ranks the owned rows are not contiguous in the
// global numbering and at 4 or more some ranks own nothing (both are cases the collective
// selections must handle). Needs the MPI main in mpi_gtest_main.cpp.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "decomposition/owned_box.hpp"
#include "io/checkpoint.hpp"
#include "io/hdf5_fields.hpp"
#include "io/temporary_name.hpp"
#include "kernels/cell_moments.hpp"

namespace bolt {
namespace {

namespace fs = std::filesystem;

int comm_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int comm_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// A 3 x 2 x 1 grid, stretched in x so coordinates are not trivially i + 1/2.
PhysicalGrid small_grid() {
  std::array<AxisSpec, 3> specs;
  specs[0] = {3, 0.0, 1.0, 0.5, FineAt::low};
  specs[1] = {2, -1.0, 1.0};
  specs[2] = {1, 0.0, 1.0};
  return make_physical_grid(specs, 1);
}

// This rank's x slab of the whole grid (empty when there are more ranks than x cells).
OwnedBox slab(const PhysicalGrid& grid) {
  const int n = grid.cells(0), rank = comm_rank(), size = comm_size();
  const int lo = int(std::int64_t(n) * rank / size), hi = int(std::int64_t(n) * (rank + 1) / size);
  OwnedBox box;
  box.lo = {lo, 0, 0};
  box.size = {hi - lo, grid.cells(1), grid.cells(2)};
  return box;
}

// Values with full mantissas, so a round trip through float or text would show.
double value(std::int64_t cell, int component, double shift) {
  return std::sin(1.7 * double(cell) + 0.31 * component + shift) / 3.0 + 1.0;
}

// Per-cell values of `box`, x fastest, `width` per cell, as the engine hands them over (a
// checkpoint's as HostValues).
template <class Values = std::vector<double>>
Values box_values(const PhysicalGrid& grid, const OwnedBox& box, int width, double shift) {
  Values out;
  for (int k = box.lo[2]; k < box.lo[2] + box.size[2]; ++k)
    for (int j = box.lo[1]; j < box.lo[1] + box.size[1]; ++j)
      for (int i = box.lo[0]; i < box.lo[0] + box.size[0]; ++i) {
        const std::int64_t cell = i + grid.cells(0) * (j + std::int64_t(grid.cells(1)) * k);
        for (int c = 0; c < width; ++c) out.push_back(value(cell, c, shift));
      }
  return out;
}

// The header of an hs_mc checkpoint (its stored state h) on `grid` with `nv` velocities.
CheckpointInfo hs_mc_info(const PhysicalGrid& grid, int nv, std::int64_t step, double dt,
                          const char* precision) {
  CheckpointInfo info;
  info.step = step;
  info.dt = dt;
  info.grid = {grid.cells(0), grid.cells(1), grid.cells(2)};
  info.nv = nv;
  info.model = "hs_mc";
  info.precision = precision;
  info.state_variable = "h";
  return info;
}

// A fresh directory shared by all ranks, named after rank 0's process id.
class IoRoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    long id = comm_rank() == 0 ? long(getpid()) : 0;
    MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    directory_ = fs::temp_directory_path() / ("bolt_io_test_" + std::to_string(id));
    if (comm_rank() == 0) fs::remove_all(directory_);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  void TearDown() override {
    MPI_Barrier(MPI_COMM_WORLD);
    if (comm_rank() == 0) fs::remove_all(directory_);
  }
  fs::path directory_;
};

TEST_F(IoRoundTrip, CheckpointRestoresStateBitwise) {
  const PhysicalGrid grid = small_grid();
  const OwnedBox owned = slab(grid);
  constexpr int nv = 5;
  CheckpointInfo info;
  info.step = 1234;
  info.time = 0.1 + 0.2;  // not a short decimal
  info.dt = 1.0 / 3.0;
  info.grid = {grid.cells(0), grid.cells(1), grid.cells(2)};
  info.nv = nv;
  info.model = "shakhov";
  info.precision = "float";
  const std::string path = (directory_ / "restart" / "state.h5").string();
  write_checkpoint(MPI_COMM_WORLD, path, info, {owned}, {0, nv},
                   {box_values<HostValues>(grid, owned, nv, 0.0)});
  EXPECT_TRUE(fs::exists(path));
  EXPECT_FALSE(fs::exists(temporary_name(path)));

  const CheckpointInfo read = read_checkpoint_info(MPI_COMM_WORLD, path);
  EXPECT_EQ(read.step, info.step);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(read.time), std::bit_cast<std::uint64_t>(info.time));
  EXPECT_EQ(std::bit_cast<std::uint64_t>(read.dt), std::bit_cast<std::uint64_t>(info.dt));
  EXPECT_EQ(read.grid, info.grid);
  EXPECT_EQ(read.nv, nv);
  EXPECT_EQ(read.model, "shakhov");
  EXPECT_EQ(read.precision, "float");

  // Own rows, and the whole grid on every rank: the second checks the global layout, not just
  // that a decomposition reads back what it wrote.
  const OwnedBox everything = whole_grid(read.grid);
  for (const OwnedBox& box : {owned, everything}) {
    const std::vector<double> expected = box_values(grid, box, nv, 0.0);
    const HostValues got = read_checkpoint_state(MPI_COMM_WORLD, path, read, {box}, {0, nv})[0];
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(expected[i]))
          << "value " << i;
  }

  // A second checkpoint replaces the first through the temporary file's rename.
  info.step = 1300;
  write_checkpoint(MPI_COMM_WORLD, path, info, {owned}, {0, nv},
                   {box_values<HostValues>(grid, owned, nv, 0.5)});
  EXPECT_EQ(read_checkpoint_info(MPI_COMM_WORLD, path).step, 1300);
}

// Cells of no box (a slab's row y = 1 left out on every rank) read back as zeros: a dataset the
// boxes do not cover is zero-filled at allocation (one they cover is not filled: the covered
// case is CheckpointRestoresStateBitwise).
TEST_F(IoRoundTrip, CheckpointZerosCellsOutsideTheBoxes) {
  const PhysicalGrid grid = small_grid();
  OwnedBox owned = slab(grid);
  owned.size[1] = 1;
  constexpr int nv = 3;
  const CheckpointInfo info = hs_mc_info(grid, nv, 7, 0.5, "float");
  const std::string path = (directory_ / "partial.h5").string();
  write_checkpoint(MPI_COMM_WORLD, path, info, {owned}, {0, nv},
                   {box_values<HostValues>(grid, owned, nv, 0.0)},
                   {box_values<HostValues>(grid, owned, nv, 0.5)});
  const CheckpointInfo read = read_checkpoint_info(MPI_COMM_WORLD, path);
  for (const bool stored : {false, true}) {
    const HostValues got =
        read_checkpoint_state(MPI_COMM_WORLD, path, read, {whole_grid(read.grid)}, {0, nv},
                              stored)[0];
    ASSERT_EQ(got.size(), std::size_t(grid.interior_cells()) * nv);
    for (int i = 0; i < grid.cells(0); ++i)
      for (int j = 0; j < grid.cells(1); ++j)
        for (int c = 0; c < nv; ++c) {
          const std::int64_t cell = i + std::int64_t(grid.cells(0)) * j;
          const double expected = j == 0 ? value(cell, c, stored ? 0.5 : 0.0) : 0.0;
          EXPECT_EQ(got[cell * nv + c], expected) << "cell " << cell << ", stored " << stored;
        }
  }
}

// A temporary file is named after its writer; those of writers gone (killed inside a write)
// are removed, those of a running process or of another host stay.
TEST_F(IoRoundTrip, StaleTemporariesAreRemoved) {
  if (comm_rank() != 0) return;
  const std::string path = (directory_ / "stale" / "state.h5").string();
  fs::create_directories(fs::path(path).parent_path());
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  const std::string mine = temporary_name(path);
  const std::string prefix = mine.substr(0, mine.rfind('.') + 1);
  const std::string gone = prefix + std::to_string(child);
  const std::string gone_lock = gone + "-123-456.lock";
  const std::string other_host = path + ".tmp.another-host." + std::to_string(child);
  for (const std::string& name : {mine, gone, gone_lock, other_host}) std::ofstream(name) << "x";
  remove_stale_temporaries(path);
  EXPECT_TRUE(fs::exists(mine));
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_FALSE(fs::exists(gone_lock));
  EXPECT_TRUE(fs::exists(other_host));
}

// The bytes per value of a checkpoint's dataset as stored in the file.
std::size_t stored_value_size(const std::string& path, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  const hid_t type = H5Dget_type(set);
  const std::size_t size = H5Tget_size(type);
  H5Tclose(type);
  H5Dclose(set);
  H5Fclose(file);
  return size;
}

// Values that are floats (a float run's state) are stored in single precision, the others in
// double, and both read back bit for bit through their checksums: an hs_mc float run's h in
// 4 bytes a value beside its f = Phi0 (1 + eps h) in 8.
TEST_F(IoRoundTrip, CheckpointStoresFloatsInSinglePrecision) {
  const PhysicalGrid grid = small_grid();
  const OwnedBox owned = slab(grid);
  constexpr int nv = 4;
  HostValues floats = box_values<HostValues>(grid, owned, nv, 0.25);
  for (double& v : floats) v = double(float(v));
  const HostValues doubles = box_values<HostValues>(grid, owned, nv, 0.0);
  const CheckpointInfo info = hs_mc_info(grid, nv, 57, 0.1, "float");
  const std::string path = (directory_ / "precision.h5").string();
  write_checkpoint(MPI_COMM_WORLD, path, info, {owned}, {0, nv}, {doubles}, {floats});
  const CheckpointInfo read = read_checkpoint_info(MPI_COMM_WORLD, path);
  for (const bool stored : {false, true}) {
    const BoxValues got =
        read_checkpoint_state(MPI_COMM_WORLD, path, read, {owned}, {0, nv}, stored);
    EXPECT_EQ(got[0], stored ? floats : doubles);
    EXPECT_NO_THROW(
        verify_checkpoint_state(MPI_COMM_WORLD, path, read, {owned}, {0, nv}, got, stored));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (comm_rank() == 0) {
    EXPECT_EQ(stored_value_size(path, "f"), 8u);
    EXPECT_EQ(stored_value_size(path, "state"), 4u);
  }

  // A model whose state is f itself: f in single precision.
  CheckpointInfo plain = info;
  plain.model = "bgk";
  plain.state_variable.clear();
  const std::string plain_path = (directory_ / "float_f.h5").string();
  write_checkpoint(MPI_COMM_WORLD, plain_path, plain, {owned}, {0, nv}, {floats});
  const CheckpointInfo plain_read = read_checkpoint_info(MPI_COMM_WORLD, plain_path);
  const BoxValues got =
      read_checkpoint_state(MPI_COMM_WORLD, plain_path, plain_read, {owned}, {0, nv});
  EXPECT_EQ(got[0], floats);
  EXPECT_NO_THROW(verify_checkpoint_state(MPI_COMM_WORLD, plain_path, plain_read, {owned}, {0, nv},
                                          got, false));
  MPI_Barrier(MPI_COMM_WORLD);
  if (comm_rank() == 0) {
    EXPECT_EQ(stored_value_size(plain_path, "f"), 4u);
  }
}

// The run's history and a model's own stored state come back bit for bit, and a changed
// history value is refused like a changed header (docs/output.md, format 3).
TEST_F(IoRoundTrip, CheckpointCarriesHistoryAndStoredState) {
  const PhysicalGrid grid = small_grid();
  const OwnedBox owned = slab(grid);
  constexpr int nv = 4;
  CheckpointInfo info = hs_mc_info(grid, nv, 57, 0.1, "double");
  info.history = {{"residual_baseline", {50.0, 0.1 + 0.2}}, {"case_drag", {}},
                  {"case_time", {1.0 / 3.0, 2.0 / 3.0}}};
  const std::string path = (directory_ / "history.h5").string();
  write_checkpoint(MPI_COMM_WORLD, path, info, {owned}, {0, nv},
                   {box_values<HostValues>(grid, owned, nv, 0.0)},
                   {box_values<HostValues>(grid, owned, nv, 0.25)});

  const CheckpointInfo read = read_checkpoint_info(MPI_COMM_WORLD, path);
  EXPECT_EQ(read.state_variable, "h");
  for (const auto& [name, values] : info.history) {
    const std::vector<double>& got = history_entry(read.history, name, path);
    ASSERT_EQ(got.size(), values.size()) << name;
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(values[i]));
  }
  const BoxValues stored =
      read_checkpoint_state(MPI_COMM_WORLD, path, read, {owned}, {0, nv}, true);
  EXPECT_EQ(stored[0], box_values<HostValues>(grid, owned, nv, 0.25));
  EXPECT_NO_THROW(verify_checkpoint_state(MPI_COMM_WORLD, path, read, {owned}, {0, nv}, stored, true));

  // One history value changed: the header's checksum no longer matches.
  MPI_Barrier(MPI_COMM_WORLD);
  if (comm_rank() == 0) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t set = H5Dopen2(file, "history/case_time", H5P_DEFAULT);
    const double changed[2] = {1.0 / 3.0, 0.7};
    EXPECT_GE(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, changed), 0);
    H5Dclose(set);
    H5Fclose(file);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  try {
    read_checkpoint_info(MPI_COMM_WORLD, path);
    FAIL() << "no error for a changed history";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
  }
}

TEST_F(IoRoundTrip, CheckpointErrorsNameTheFile) {
  const std::string missing = (directory_ / "no_such_checkpoint.h5").string();
  try {
    read_checkpoint_info(MPI_COMM_WORLD, missing);
    FAIL() << "no error for a missing file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }

  // An HDF5 file without the checkpoint attributes.
  const std::string bare = (directory_ / "bare.h5").string();
  if (comm_rank() == 0) {
    fs::create_directories(directory_);
    const hid_t file = H5Fcreate(bare.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(file, 0);  // not ASSERT: returning here would leave the others at the barrier
    H5Fclose(file);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  try {
    read_checkpoint_info(MPI_COMM_WORLD, bare);
    FAIL() << "no error for a file without attributes";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
}

// Reads a whole double dataset with the serial API, returning its shape in `dims`.
std::vector<double> read_dataset(hid_t file, const char* name, std::vector<hsize_t>& dims) {
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  EXPECT_GE(set, 0) << name;
  const hid_t space = H5Dget_space(set);
  dims.assign(H5Sget_simple_extent_ndims(space), 0);
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  std::vector<double> data(H5Sget_simple_extent_npoints(space));
  EXPECT_GE(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), 0);
  H5Sclose(space);
  H5Dclose(set);
  return data;
}

TEST_F(IoRoundTrip, FieldsHaveShapeValuesAndXdmf) {
  const PhysicalGrid grid = small_grid();
  const OwnedBox owned = slab(grid);
  FieldWriter writer(MPI_COMM_WORLD, (directory_ / "out").string(), grid);
  const std::string first = writer.write(0, 0.0, {owned}, {box_values(grid, owned, kFieldCount, 0.0)});
  const std::string second =
      writer.write(10, 0.25, {owned}, {box_values(grid, owned, kFieldCount, 1.0)});
  EXPECT_EQ(fs::path(first).filename(), "fields_000000.h5");
  EXPECT_EQ(fs::path(second).filename(), "fields_000010.h5");

  const OwnedBox everything = whole_grid({grid.cells(0), grid.cells(1), grid.cells(2)});
  const std::vector<double> expected = box_values(grid, everything, kFieldCount, 1.0);
  const hid_t file = H5Fopen(second.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  std::vector<hsize_t> dims;
  // Dataset = scale * per-cell value at index, or n T for p (index -1).
  const struct {
    const char* name;
    int index;
    double scale;
  } checks[] = {{"n", 0, 1.0},   {"uy", 2, 1.0},   {"T", 4, 1.0},  {"p", -1, 1.0},
                {"Pxx", 5, 2.0}, {"Pyz", 10, 2.0}, {"qz", 13, 1.0}};
  for (const auto& check : checks) {
    const std::vector<double> data = read_dataset(file, check.name, dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{1, 2, 3})) << check.name;
    ASSERT_EQ(data.size(), 6u);
    for (std::size_t c = 0; c < data.size(); ++c) {
      const double* cell = expected.data() + c * kFieldCount;
      const double want = check.index < 0 ? cell[0] * cell[4] : check.scale * cell[check.index];
      EXPECT_EQ(data[c], want) << check.name << " cell " << c;
    }
  }
  EXPECT_EQ(read_dataset(file, "x_faces", dims), grid.axes[0].faces);
  EXPECT_EQ(read_dataset(file, "y", dims), grid.axes[1].centres);
  EXPECT_EQ(read_dataset(file, "z_faces", dims).size(), 2u);
  std::int64_t step = 0;
  const hid_t attribute = H5Aopen(file, "step", H5P_DEFAULT);
  ASSERT_GE(attribute, 0);
  H5Aread(attribute, H5T_NATIVE_INT64, &step);
  H5Aclose(attribute);
  EXPECT_EQ(step, 10);
  H5Fclose(file);

  std::ifstream xmf(directory_ / "out" / "fields.xmf");
  ASSERT_TRUE(xmf.good());
  std::stringstream text;
  text << xmf.rdbuf();
  for (const char* needle : {"CollectionType=\"Temporal\"", "fields_000000.h5:/n",
                             "fields_000010.h5:/qz", "fields_000010.h5:/x_faces", "Center=\"Cell\"",
                             "Dimensions=\"1 2 3\"", "Dimensions=\"2 3 4\""})
    EXPECT_NE(text.str().find(needle), std::string::npos) << needle;
}

}  // namespace
}  // namespace bolt
