#include "checkpoint.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>

#include "checkpoint_history.hpp"
#include "core/error.hpp"
#include "hdf5_support.hpp"
#include "io/temporary_name.hpp"

namespace bolt {
namespace {

// Bumped when the layout changes so an old file is refused with a message, not misread.
// 2: configuration and checksums; 3: the run's history (/history) and the solver's own state
// (/state), without which a continued run is not the uninterrupted one.
constexpr int kFormatVersion = 3;

// splitmix64's finaliser: every input bit moves every output bit.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// This rank's share of f_checksum: per value, a hash of its position in /f and of its bits,
// summed mod 2^64 (the same total for any decomposition that writes or reads each value once).
std::uint64_t partial_checksum(const std::array<int, 3>& grid, int nv,
                               const std::vector<OwnedBox>& boxes, const VelocityRange& velocities,
                               const BoxValues& f) {
  // A sum modulo 2^64: the same in any order, so the box's cells are summed on the host's threads
  // (a GPU run's checkpoint holds ~1e8 values).
  std::uint64_t sum = 0;
  for (std::size_t b = 0; b < boxes.size(); ++b) {
    const OwnedBox& box = boxes[b];
    const std::int64_t box_cells = box.cells();
#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (std::int64_t local = 0; local < box_cells; ++local) {
      const std::int64_t i = local % box.size[0], j = local / box.size[0] % box.size[1],
                         k = local / box.size[0] / box.size[1];
      const std::int64_t cell =
          box.lo[0] + i + std::int64_t(grid[0]) * (box.lo[1] + j + std::int64_t(grid[1]) * (box.lo[2] + k));
      for (int v = 0; v < velocities.count; ++v) {
        const std::uint64_t position = std::uint64_t(cell) * nv + velocities.lo + v;
        const double value = f[b][local * velocities.count + v];
        sum += mix(mix(position) ^ std::bit_cast<std::uint64_t>(value));
      }
    }
  }
  return sum;
}

std::uint64_t total_checksum(MPI_Comm comm, std::uint64_t partial) {
  MPI_Allreduce(MPI_IN_PLACE, &partial, 1, MPI_UINT64_T, MPI_SUM, comm);
  return partial;
}

// A hash of every attribute but itself.
std::uint64_t header_checksum(const CheckpointInfo& info, std::int64_t cells) {
  std::string bytes;
  const auto add = [&](const auto& value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(value));
  };
  add(kFormatVersion);
  add(info.step);
  add(info.time);
  add(info.dt);
  add(cells);
  add(info.nv);
  add(info.grid);
  add(info.f_checksum);
  add(info.state_checksum);
  bytes += info.model + '\0' + info.precision + '\0' + info.configuration + '\0' +
           info.state_variable + '\0' + history_bytes(info.history);
  std::uint64_t h = mix(bytes.size());
  for (std::size_t at = 0; at < bytes.size(); at += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + at, std::min<std::size_t>(8, bytes.size() - at));
    h = mix(h ^ word);
  }
  return h;
}

using namespace hdf5;  // Handle, check, on_rank0, ...: lib/io/hdf5_support.hpp

void check_box(const OwnedBox& owned, const std::array<int, 3>& grid, const std::string& path) {
  for (int a = 0; a < 3; ++a)
    require(owned.lo[a] >= 0 && owned.size[a] >= 0 && owned.lo[a] + owned.size[a] <= grid[a], path,
            ": owned box on axis ", a, " [", owned.lo[a], ", +", owned.size[a],
            ") is outside the checkpoint grid of ", grid[a], " cells");
}

// Selects the owned box's rows, columns [velocities.lo, + velocities.count), in the [cells][nv]
// dataset. The rows of one z plane are N_x apart, so each plane is one strided hyperslab and the
// box a union of N_z of them; the library walks a selection in file order, which is the box's
// own x-fastest order.
void select_box(hid_t space, const OwnedBox& owned, const std::array<int, 3>& grid,
                const VelocityRange& velocities, const std::string& path) {
  if (owned.cells() == 0 || velocities.count == 0) {
    check(H5Sselect_none(space), path, "select none");
    return;
  }
  for (int k = 0; k < owned.size[2]; ++k) {
    const std::int64_t first =
        owned.lo[0] +
        std::int64_t(grid[0]) * (owned.lo[1] + std::int64_t(grid[1]) * (owned.lo[2] + k));
    const hsize_t start[2] = {hsize_t(first), hsize_t(velocities.lo)};
    const hsize_t stride[2] = {hsize_t(grid[0]), 1};
    const hsize_t count[2] = {hsize_t(owned.size[1]), 1};
    const hsize_t block[2] = {hsize_t(owned.size[0]), hsize_t(velocities.count)};
    check(H5Sselect_hyperslab(space, k == 0 ? H5S_SELECT_SET : H5S_SELECT_OR, start, stride, count,
                              block),
          path, "hyperslab selection");
  }
}

void check_velocities(const VelocityRange& velocities, int nv, const std::string& path) {
  require(velocities.lo >= 0 && velocities.count >= 0 && velocities.lo + velocities.count <= nv,
          path, ": velocities [", velocities.lo, ", +", velocities.count, ") outside the ", nv,
          " of the checkpoint");
}

// Collective writes and reads go box by box: as many rounds as the most boxes on one rank.
int write_rounds(MPI_Comm comm, const std::vector<OwnedBox>& boxes) {
  int rounds = static_cast<int>(boxes.size());
  MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT, MPI_MAX, comm);
  return rounds;
}

void write_string_attribute(hid_t object, const std::string& path, const char* name,
                            const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, path, "string type");
  check(H5Tset_size(type, value.empty() ? 1 : value.size()), path, "string type");
  check(H5Tset_strpad(type, H5T_STR_NULLPAD), path, "string type");
  const std::string padded = value.empty() ? std::string(1, '\0') : value;
  write_attribute(object, path, name, type, type, padded.data());
}

Handle open_attribute(hid_t object, const std::string& path, const char* name) {
  const htri_t exists = H5Aexists(object, name);
  check(exists, path, "attribute lookup");
  if (exists == 0) fail(path, ": not a bolt checkpoint (attribute '", name, "' is missing)");
  return Handle(H5Aopen(object, name, H5P_DEFAULT), H5Aclose, path, name);
}

template <class T>
void read_attribute(hid_t object, const std::string& path, const char* name, hid_t memory_type,
                    T* values, hssize_t count = 1) {
  Handle attribute = open_attribute(object, path, name);
  Handle space(H5Aget_space(attribute), H5Sclose, path, name);
  const hssize_t stored = H5Sget_simple_extent_npoints(space);
  if (stored != count)
    fail(path, ": attribute '", name, "' has ", stored, " values, expected ", count);
  check(H5Aread(attribute, memory_type, values), path, name);
}

std::string read_string_attribute(hid_t object, const std::string& path, const char* name) {
  Handle attribute = open_attribute(object, path, name);
  Handle type(H5Aget_type(attribute), H5Tclose, path, name);
  if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) != 0)
    fail(path, ": attribute '", name, "' is not a fixed-length string");
  std::string value(H5Tget_size(type), '\0');
  check(H5Aread(attribute, type, value.data()), path, name);
  value.resize(value.find_first_of('\0') == std::string::npos ? value.size()
                                                              : value.find_first_of('\0'));
  return value;
}

// Opens a checkpoint for reading (collective), or fails naming it.
Handle open_checkpoint(MPI_Comm comm, const std::string& path) {
  Handle access = mpio_access(comm, path);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, access);
  if (file < 0) fail(path, ": cannot be opened as HDF5 (truncated or damaged)");
  return Handle(file, H5Fclose, path, "file open");
}

// The kept checkpoints <path>.<12-digit step> beside `path`, by step (oldest first).
std::vector<std::filesystem::path> rotated(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path file(path);
  const fs::path directory = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  const std::string prefix = file.filename().string() + ".";
  std::vector<fs::path> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() == prefix.size() + 12 && name.compare(0, prefix.size(), prefix) == 0 &&
        std::all_of(name.begin() + prefix.size(), name.end(), ::isdigit))
      found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());  // 12 digits: by name is by step
  return found;
}

std::string step_suffix(std::int64_t step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%012lld", static_cast<long long>(step));
  return digits;
}

// Before a new checkpoint replaces `path`: the current one becomes <path>.<its step>, and the
// oldest kept ones beyond keep - 1 go. A current file whose step cannot be read stays where it is
// (and is replaced): a damaged checkpoint is not worth keeping.
void keep_previous(const std::string& path, int keep) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::is_regular_file(path, error) && H5Fis_hdf5(path.c_str()) > 0) {
    std::int64_t step = -1;
    {
      H5E_BEGIN_TRY {
        const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        if (file >= 0) {
          const hid_t attribute = H5Aexists(file, "step") > 0 ? H5Aopen(file, "step", H5P_DEFAULT) : -1;
          if (attribute >= 0) {
            if (H5Aread(attribute, H5T_NATIVE_INT64, &step) < 0) step = -1;
            H5Aclose(attribute);
          }
          H5Fclose(file);
        }
      }
      H5E_END_TRY;
    }
    if (step >= 0) fs::rename(path, path + "." + step_suffix(step), error);
  }
  std::vector<fs::path> kept = rotated(path);
  for (std::size_t i = 0; i + (keep - 1) < kept.size(); ++i) fs::remove(kept[i], error);
}

void check_values(const std::string& path, const char* what, const std::vector<OwnedBox>& boxes,
                  const VelocityRange& velocities, const BoxValues& values) {
  require(boxes.size() == values.size(), path, ": ", values.size(), " ", what, " for ",
          boxes.size(), " boxes");
  for (std::size_t b = 0; b < boxes.size(); ++b)
    require(values[b].size() == std::size_t(boxes[b].cells()) * velocities.count, path, ": ",
            values[b].size(), " values given for ", boxes[b].cells(), " owned cells, expected ",
            velocities.count, " per cell");
}

// Whether the ranks' boxes and velocity ranges write every value of a [cells][nv] dataset: each
// value is written once (the checksums rely on it), so the counts add up to the dataset's size
// exactly when they cover it.
bool boxes_cover(MPI_Comm comm, std::int64_t cells, int nv, const std::vector<OwnedBox>& boxes,
                 const VelocityRange& velocities) {
  std::int64_t written = 0;
  for (const OwnedBox& box : boxes) written += box.cells() * velocities.count;
  MPI_Allreduce(MPI_IN_PLACE, &written, 1, MPI_INT64_T, MPI_SUM, comm);
  return written == cells * nv;
}

// Zeros at allocation where some values are not written (cells outside every box); where the
// boxes cover the dataset, the fill would write every byte a second time.
Handle dataset_creation(const std::string& path, bool covered) {
  if (!covered) return zero_filled(path);
  Handle create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, path, "dataset creation list");
  check(H5Pset_fill_time(create, H5D_FILL_TIME_NEVER), path, "fill time");
  return create;
}

// The file type of a dataset of `values` (every rank's): single precision where each of them is
// a float exactly (the state of a float run), so that the file holds them in half the bytes and
// reads back the same doubles; else double.
hid_t exact_file_type(MPI_Comm comm, const BoxValues& values) {
  const auto is_float = [](double value) {  // (a conversion out of float's range is undefined)
    return std::abs(value) <= std::numeric_limits<float>::max() && double(float(value)) == value;
  };
  // On the host's threads: a GPU run's checkpoint holds ~1e8 values.
  int floats = 1;
  for (const HostValues& box : values) {
    const std::int64_t count = std::int64_t(box.size());
#pragma omp parallel for reduction(&& : floats) schedule(static)
    for (std::int64_t i = 0; i < count; ++i) floats = floats && is_float(box[i]);
  }
  MPI_Allreduce(MPI_IN_PLACE, &floats, 1, MPI_INT, MPI_LAND, comm);
  return floats ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
}

// The [cells][nv] dataset `name`, of `file_type`, of the owned boxes' values: one collective
// write per box; a rank with fewer boxes joins with an empty selection. `covered`: boxes_cover.
void write_boxes(hid_t file, const std::string& path, const char* name, hid_t file_type,
                 const std::array<int, 3>& grid, int nv, int rounds, bool covered,
                 const std::vector<OwnedBox>& boxes, const VelocityRange& velocities,
                 const BoxValues& values) {
  Handle xfer = collective_transfer(path);
  const hsize_t dims[2] = {hsize_t(std::int64_t(grid[0]) * grid[1] * grid[2]), hsize_t(nv)};
  Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose, path, "dataspace");
  Handle create = dataset_creation(path, covered);
  Handle set(H5Dcreate2(file, name, file_type, space, H5P_DEFAULT, create, H5P_DEFAULT),
             H5Dclose, path, name);
  for (int round = 0; round < rounds; ++round) {
    const bool mine = round < int(boxes.size());
    const OwnedBox none_box{{0, 0, 0}, {0, 0, 0}};
    const OwnedBox& owned = mine ? boxes[round] : none_box;
    const std::int64_t count = owned.cells() * velocities.count;
    select_box(space, owned, grid, velocities, path);
    const hsize_t memory_size = count > 0 ? hsize_t(count) : 1;
    Handle memory(H5Screate_simple(1, &memory_size, nullptr), H5Sclose, path, "dataspace");
    if (count == 0) check(H5Sselect_none(memory), path, "select none");
    // In the file's precision in memory too: HDF5 writes independently, not collectively, where
    // it converts.
    const bool single = H5Tget_size(file_type) == sizeof(float);
    // Converted on the host's threads, into memory they touch first (not zeroed before).
    std::unique_ptr<float[]> floats(single ? new float[std::max<std::int64_t>(count, 1)] : nullptr);
    if (single) {
      const double* from = count > 0 ? values[round].data() : nullptr;
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < count; ++i) floats[i] = float(from[i]);
    }
    const double none = 0.0;
    const void* data = single ? static_cast<const void*>(floats.get())
                              : static_cast<const void*>(count > 0 ? values[round].data() : &none);
    check(H5Dwrite(set, single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE, memory, space, xfer, data),
          path, name);
  }
}

}  // namespace

std::string configuration_difference(const std::string& checkpoint, const std::string& run) {
  const auto lines = [](const std::string& text) {
    std::map<std::string, std::string> entries;
    std::size_t at = 0;
    while (at < text.size()) {
      const std::size_t end = std::min(text.find('\n', at), text.size());
      const std::string line = text.substr(at, end - at);
      const std::size_t equals = line.find('=');
      if (equals != std::string::npos) entries[line.substr(0, equals)] = line.substr(equals + 1);
      at = end + 1;
    }
    return entries;
  };
  const auto a = lines(checkpoint), b = lines(run);
  std::string difference;
  const auto note = [&](const std::string& key, const std::string& x, const std::string& y) {
    if (!difference.empty()) difference += "; ";
    difference += key + ": " + (x.empty() ? "(none)" : x) + " in the checkpoint, " +
                  (y.empty() ? "(none)" : y) + " in this run";
  };
  for (const auto& [key, value] : a) {
    const auto other = b.find(key);
    if (other == b.end()) note(key, value, "");
    else if (other->second != value) note(key, value, other->second);
  }
  for (const auto& [key, value] : b)
    if (!a.count(key)) note(key, "", value);
  return difference;
}

std::vector<std::string> kept_checkpoints(MPI_Comm comm, const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::int64_t, std::string>> found;
  // The file at `path` first: it wins over a kept copy of the same step.
  std::vector<std::string> candidates;
  if (fs::is_regular_file(path)) candidates.push_back(path);
  for (const fs::path& p : rotated(path)) candidates.push_back(p.string());
  for (const std::string& candidate : candidates) {
    try {
      found.emplace_back(read_checkpoint_info(comm, candidate).step, candidate);
    } catch (const Error& error) {
      int rank = 0;
      MPI_Comm_rank(comm, &rank);
      if (rank == 0) std::fprintf(stderr, "bolt: note: %s\n", error.what());
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> newest_first;
  for (const auto& entry : found) newest_first.push_back(entry.second);
  return newest_first;
}

void verify_checkpoint_state(MPI_Comm comm, const std::string& path, const CheckpointInfo& info,
                             const std::vector<OwnedBox>& boxes, const VelocityRange& velocities,
                             const BoxValues& values, bool stored) {
  const std::uint64_t sum =
      total_checksum(comm, partial_checksum(info.grid, info.nv, boxes, velocities, values));
  if (sum != (stored ? info.state_checksum : info.f_checksum))
    fail(path, ": the values of ", stored ? "/state" : "/f",
         " do not match the file's checksum (the file is corrupted)");
}

void write_checkpoint(MPI_Comm comm, const std::string& path, const CheckpointInfo& given,
                      const std::vector<OwnedBox>& boxes, const VelocityRange& velocities,
                      const BoxValues& f, const BoxValues& state, int keep) {
  CheckpointInfo info = given;
  require(info.nv > 0, path, ": checkpoint with nv = ", info.nv, ", must be positive");
  check_velocities(velocities, info.nv, path);
  const bool stored = !info.state_variable.empty();
  check_values(path, "state arrays", boxes, velocities, f);
  if (stored) check_values(path, "arrays of the stored state", boxes, velocities, state);
  for (const OwnedBox& box : boxes) check_box(box, info.grid, path);
  const int rounds = write_rounds(comm, boxes);
  const std::int64_t cells = std::int64_t(info.grid[0]) * info.grid[1] * info.grid[2];
  const bool covered = boxes_cover(comm, cells, info.nv, boxes, velocities);
  const std::string temporary = temporary_name(comm, path);
  info.f_checksum =
      total_checksum(comm, partial_checksum(info.grid, info.nv, boxes, velocities, f));
  info.state_checksum =
      stored ? total_checksum(comm, partial_checksum(info.grid, info.nv, boxes, velocities, state))
             : 0;
  const std::uint64_t header = header_checksum(info, cells);
  const hid_t f_type = exact_file_type(comm, f);
  const hid_t state_type = stored ? exact_file_type(comm, state) : f_type;
  const double bytes = double(cells) * info.nv *
                       double(H5Tget_size(f_type) + (stored ? H5Tget_size(state_type) : 0));

  on_rank0(comm, [&] {
    const auto parent = std::filesystem::path(path).parent_path();
    std::error_code error;
    if (!parent.empty()) std::filesystem::create_directories(parent, error);
    if (error) fail(path, ": cannot create the checkpoint directory: ", error.message());
    remove_stale_temporaries(path);
    require_free_space(temporary, bytes);
  });
  // A failed write (disk full) leaves the previous checkpoint as it was; its temporary goes.
  const QuietHdf5 quiet;
  on_every_rank(comm, [&] {
    Handle access = mpio_access(comm, temporary);
    Handle file(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), H5Fclose,
                temporary, "file create");
    write_boxes(file, temporary, "f", f_type, info.grid, info.nv, rounds, covered, boxes,
                velocities, f);
    if (stored)
      write_boxes(file, temporary, "state", state_type, info.grid, info.nv, rounds, covered, boxes,
                  velocities, state);
    write_checkpoint_history(comm, file, temporary, info.history);

    // Attributes are metadata: every rank passes the same values, the library writes them once.
    write_attribute(file, temporary, "step", H5T_STD_I64LE, H5T_NATIVE_INT64, &info.step);
    write_attribute(file, temporary, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &info.time);
    write_attribute(file, temporary, "dt", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &info.dt);
    write_attribute(file, temporary, "cells", H5T_STD_I64LE, H5T_NATIVE_INT64, &cells);
    write_attribute(file, temporary, "nv", H5T_STD_I32LE, H5T_NATIVE_INT, &info.nv);
    write_attribute(file, temporary, "grid", H5T_STD_I32LE, H5T_NATIVE_INT, info.grid.data(), 3);
    write_attribute(file, temporary, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT,
                    &kFormatVersion);
    write_string_attribute(file, temporary, "model", info.model);
    write_string_attribute(file, temporary, "precision", info.precision);
    write_string_attribute(file, temporary, "configuration", info.configuration);
    write_string_attribute(file, temporary, "state_variable", info.state_variable);
    write_attribute(file, temporary, "f_checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                    &info.f_checksum);
    write_attribute(file, temporary, "state_checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                    &info.state_checksum);
    write_attribute(file, temporary, "header_checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                    &header);
    // Buffered data reaches the disk here, where a full disk is reported, not in the close.
    check(H5Fflush(file, H5F_SCOPE_GLOBAL), temporary, "flush");
  }, [&] { std::filesystem::remove(temporary); });
  // The file is closed (flushed) on every rank; only then may the old checkpoint be replaced.
  MPI_Barrier(comm);
  on_rank0(comm, [&] {
    if (keep > 1) keep_previous(path, keep);
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) fail(path, ": cannot rename ", temporary, " into place: ", error.message());
  });
}

CheckpointInfo read_checkpoint_info(MPI_Comm comm, const std::string& path) {
  // Checked before HDF5 sees the file, so a wrong path gives one line instead of an error stack.
  if (!std::filesystem::is_regular_file(path)) fail(path, ": checkpoint file not found");
  const QuietHdf5 quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0) fail(path, ": not an HDF5 file");
  Handle file = open_checkpoint(comm, path);

  int version = 0;
  read_attribute(file, path, "format_version", H5T_NATIVE_INT, &version);
  if (version != kFormatVersion)
    fail(path, ": checkpoint format version ", version, ", this build reads ", kFormatVersion);
  CheckpointInfo info;
  read_attribute(file, path, "step", H5T_NATIVE_INT64, &info.step);
  read_attribute(file, path, "time", H5T_NATIVE_DOUBLE, &info.time);
  read_attribute(file, path, "dt", H5T_NATIVE_DOUBLE, &info.dt);
  read_attribute(file, path, "nv", H5T_NATIVE_INT, &info.nv);
  read_attribute(file, path, "grid", H5T_NATIVE_INT, info.grid.data(), 3);
  std::int64_t cells = 0;
  read_attribute(file, path, "cells", H5T_NATIVE_INT64, &cells);
  if (cells != std::int64_t(info.grid[0]) * info.grid[1] * info.grid[2])
    fail(path, ": attribute 'cells' = ", cells, " does not match the grid ", info.grid[0], " x ",
         info.grid[1], " x ", info.grid[2]);
  info.model = read_string_attribute(file, path, "model");
  info.precision = read_string_attribute(file, path, "precision");
  info.configuration = read_string_attribute(file, path, "configuration");
  info.state_variable = read_string_attribute(file, path, "state_variable");
  info.history = read_checkpoint_history(file, path);
  read_attribute(file, path, "f_checksum", H5T_NATIVE_UINT64, &info.f_checksum);
  read_attribute(file, path, "state_checksum", H5T_NATIVE_UINT64, &info.state_checksum);
  std::uint64_t header = 0;
  read_attribute(file, path, "header_checksum", H5T_NATIVE_UINT64, &header);
  if (header != header_checksum(info, cells))
    fail(path, ": the header does not match its checksum (the file is corrupted)");
  return info;
}

BoxValues read_checkpoint_state(MPI_Comm comm, const std::string& path, const CheckpointInfo& info,
                                const std::vector<OwnedBox>& boxes,
                                const VelocityRange& velocities, bool stored) {
  for (const OwnedBox& owned : boxes) check_box(owned, info.grid, path);
  check_velocities(velocities, info.nv, path);
  const int rounds = write_rounds(comm, boxes);
  if (!std::filesystem::is_regular_file(path)) fail(path, ": checkpoint file not found");
  const QuietHdf5 quiet;
  Handle file = open_checkpoint(comm, path);
  Handle xfer = collective_transfer(path);

  const char* name = stored ? "state" : "f";
  const htri_t exists = H5Lexists(file, name, H5P_DEFAULT);
  check(exists, path, "dataset lookup");
  if (exists == 0) fail(path, ": not a bolt checkpoint (dataset /", name, " is missing)");
  Handle set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose, path, name);
  Handle space(H5Dget_space(set), H5Sclose, path, name);
  hsize_t dims[2] = {0, 0};
  if (H5Sget_simple_extent_ndims(space) != 2 || H5Sget_simple_extent_dims(space, dims, nullptr) < 0)
    fail(path, ": dataset /", name, " is not two-dimensional");
  const std::int64_t cells = std::int64_t(info.grid[0]) * info.grid[1] * info.grid[2];
  if (dims[0] != hsize_t(cells) || dims[1] != hsize_t(info.nv))
    fail(path, ": dataset /", name, " is ", dims[0], " x ", dims[1], ", expected ", cells, " x ",
         info.nv);

  // A dataset stored in single precision is read as such (HDF5 reads independently where it
  // converts) and widened here.
  Handle type(H5Dget_type(set), H5Tclose, path, name);
  const bool single = H5Tget_class(type) == H5T_FLOAT && H5Tget_size(type) == sizeof(float);
  BoxValues values(boxes.size());
  for (int round = 0; round < rounds; ++round) {
    const bool mine = round < int(boxes.size());
    const OwnedBox none_box{{0, 0, 0}, {0, 0, 0}};
    const OwnedBox& owned = mine ? boxes[round] : none_box;
    const std::int64_t count = owned.cells() * velocities.count;
    select_box(space, owned, info.grid, velocities, path);
    if (mine) values[round].resize(count);
    const hsize_t memory_size = count > 0 ? hsize_t(count) : 1;
    Handle memory(H5Screate_simple(1, &memory_size, nullptr), H5Sclose, path, "dataspace");
    if (count == 0) check(H5Sselect_none(memory), path, "select none");
    double none = 0.0;  // a rank with fewer boxes still joins the collective read
    // Read into memory not zeroed first, widened on the host's threads (as written).
    std::unique_ptr<float[]> floats(single ? new float[std::max<std::int64_t>(count, 1)] : nullptr);
    void* data = single ? static_cast<void*>(floats.get())
                        : static_cast<void*>(count > 0 ? values[round].data() : &none);
    check(H5Dread(set, single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE, memory, space, xfer, data),
          path, name);
    if (single) {
      double* to = count > 0 ? values[round].data() : nullptr;
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < count; ++i) to[i] = floats[i];
    }
  }
  return values;
}

}  // namespace bolt
