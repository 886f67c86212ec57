#include "hdf5_fields.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "core/error.hpp"
#include "hdf5_support.hpp"
#include "io/temporary_name.hpp"
#include "kernels/cell_moments.hpp"

namespace bolt {
namespace {

// Field datasets in file order, each made from the kFieldCount values per cell that
// Engine::fields() returns (n, u, T, P, q). The kernel stores the central second moment P; in
// p0 units the pressure tensor is 2 P (kernels/macroscopic.hpp), so the P_ij datasets hold 2 P
// and p = n T is added because it is the quantity plots and papers quote.
struct FieldSpec {
  const char* name;
  int index;     // into the per-cell values; -1 for p = n T, -2 for the fluid mask (1)
  double scale;  // 2 for the pressure tensor
};
constexpr FieldSpec kFields[] = {
    {"n", 0, 1.0},   {"ux", 1, 1.0},   {"uy", 2, 1.0},  {"uz", 3, 1.0},  {"T", 4, 1.0},
    {"p", -1, 1.0},  {"Pxx", 5, 2.0},  {"Pyy", 6, 2.0}, {"Pzz", 7, 2.0}, {"Pxy", 8, 2.0},
    {"Pxz", 9, 2.0}, {"Pyz", 10, 2.0}, {"qx", 11, 1.0}, {"qy", 12, 1.0}, {"qz", 13, 1.0},
    {"fluid", -2, 1.0}};

using namespace hdf5;  // Handle, check, on_rank0, ...: lib/io/hdf5_support.hpp

void write_coordinates(hid_t file, const std::string& path, const char* name,
                       const std::vector<double>& values, bool writer, hid_t xfer) {
  const hsize_t n = values.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, path, "dataspace");
  Handle set(H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Dclose, path, name);
  // Collective write with rank 0 as the only writer: other ranks select nothing.
  Handle memory(H5Screate_simple(1, &n, nullptr), H5Sclose, path, "dataspace");
  if (!writer) {
    check(H5Sselect_none(memory), path, "select none");
    check(H5Sselect_none(space), path, "select none");
  }
  check(H5Dwrite(set, H5T_NATIVE_DOUBLE, memory, space, xfer, values.data()), path, name);
}

}  // namespace

FieldWriter::FieldWriter(MPI_Comm comm, std::string directory, const PhysicalGrid& grid,
                         std::int64_t continue_from_step)
    : comm_(comm), directory_(std::move(directory)), grid_(grid) {
  on_rank0(comm_, [&] {
    std::error_code error;
    std::filesystem::create_directories(directory_, error);
    if (error) fail("field output directory ", directory_, ": ", error.message());
    if (continue_from_step >= 0) adopt_earlier_files(continue_from_step);
  });
}

// Rank 0 only (it writes the XDMF): the fields_*.h5 up to the restart step.
void FieldWriter::adopt_earlier_files(std::int64_t before_step) {
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("fields_", 0) != 0 || entry.path().extension() != ".h5") continue;
    const hid_t file = H5Fopen(entry.path().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) continue;  // not ours or unreadable: leave it out of the series
    std::int64_t step = -1;
    double time = 0.0;
    const bool ok = H5Aexists(file, "step") > 0 && H5Aexists(file, "time") > 0;
    if (ok) {
      const hid_t step_attr = H5Aopen(file, "step", H5P_DEFAULT);
      const hid_t time_attr = H5Aopen(file, "time", H5P_DEFAULT);
      H5Aread(step_attr, H5T_NATIVE_INT64, &step);
      H5Aread(time_attr, H5T_NATIVE_DOUBLE, &time);
      H5Aclose(step_attr);
      H5Aclose(time_attr);
    }
    H5Fclose(file);
    if (ok && step >= 0 && step <= before_step) written_.emplace_back(time, name);
  }
  std::sort(written_.begin(), written_.end());
}

std::string FieldWriter::write(std::int64_t step, double time, const std::vector<OwnedBox>& boxes,
                               const std::vector<std::vector<double>>& fields) {
  require(step >= 0, "field output step ", step, ": must be non-negative");
  require(boxes.size() == fields.size(), "field output: ", fields.size(), " field arrays for ",
          boxes.size(), " boxes");
  for (std::size_t b = 0; b < boxes.size(); ++b) {
    const OwnedBox& owned = boxes[b];
    for (int a = 0; a < 3; ++a)
      require(owned.lo[a] >= 0 && owned.size[a] >= 0 && owned.lo[a] + owned.size[a] <= grid_.cells(a),
              "field output: owned box on axis ", a, " [", owned.lo[a], ", +", owned.size[a],
              ") is outside the grid of ", grid_.cells(a), " cells");
    require(fields[b].size() == std::size_t(owned.cells()) * kFieldCount, "field output: ",
            fields[b].size(), " values given for ", owned.cells(), " owned cells, expected ",
            kFieldCount, " per cell");
  }
  // One collective write per box; ranks with fewer boxes join with empty selections.
  int rounds = static_cast<int>(boxes.size());
  MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT, MPI_MAX, comm_);

  char name[32];
  std::snprintf(name, sizeof name, "fields_%06lld.h5", static_cast<long long>(step));
  const std::string path = (std::filesystem::path(directory_) / name).string();
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);

  // A failed write (disk full) removes its own file and touches no earlier one.
  const QuietHdf5 quiet;
  on_rank0(comm_, [&] {
    double values = double(grid_.cells(0)) * grid_.cells(1) * grid_.cells(2) *
                    double(std::size(kFields));
    for (int a = 0; a < 3; ++a) values += 2.0 * grid_.cells(a) + 1.0;  // centres and faces
    require_free_space(path, 8.0 * values);
  });
  on_every_rank(comm_, [&] {
    Handle access = mpio_access(comm_, path);
    Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), H5Fclose, path,
                "file create");
    Handle xfer = collective_transfer(path);

    const char* centres[3] = {"x", "y", "z"};
    const char* faces[3] = {"x_faces", "y_faces", "z_faces"};
    for (int a = 0; a < 3; ++a) {
      write_coordinates(file, path, centres[a], grid_.axes[a].centres, rank == 0, xfer);
      write_coordinates(file, path, faces[a], grid_.axes[a].faces, rank == 0, xfer);
    }
    // Attributes are metadata: every rank passes the same value, the library writes it once.
    write_attribute(file, path, "step", H5T_STD_I64LE, H5T_NATIVE_INT64, &step);
    write_attribute(file, path, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &time);

    // Global [N_z][N_y][N_x] arrays; each owned box is one hyperslab. Cells outside every box
    // keep the fill value 0 (fluid = 0 there).
    const hsize_t global[3] = {hsize_t(grid_.cells(2)), hsize_t(grid_.cells(1)),
                               hsize_t(grid_.cells(0))};
    Handle create = zero_filled(path);
    for (const FieldSpec& spec : kFields) {
      Handle space(H5Screate_simple(3, global, nullptr), H5Sclose, path, "dataspace");
      Handle set(
          H5Dcreate2(file, spec.name, H5T_IEEE_F64LE, space, H5P_DEFAULT, create, H5P_DEFAULT),
          H5Dclose, path, spec.name);
      for (int round = 0; round < rounds; ++round) {
        const bool mine = round < int(boxes.size()) && boxes[round].cells() > 0;
        const std::int64_t cells = mine ? boxes[round].cells() : 0;
        const hsize_t memory_size = cells > 0 ? hsize_t(cells) : 1;
        std::vector<double> component(memory_size, 0.0);
        Handle memory(H5Screate_simple(1, &memory_size, nullptr), H5Sclose, path, "dataspace");
        if (mine) {
          const OwnedBox& owned = boxes[round];
          const hsize_t start[3] = {hsize_t(owned.lo[2]), hsize_t(owned.lo[1]), hsize_t(owned.lo[0])};
          const hsize_t count[3] = {hsize_t(owned.size[2]), hsize_t(owned.size[1]),
                                    hsize_t(owned.size[0])};
          check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), path,
                "hyperslab selection");
          for (std::int64_t c = 0; c < cells; ++c) {
            const double* cell = fields[round].data() + c * kFieldCount;
            component[c] = spec.index == -2   ? 1.0
                           : spec.index == -1 ? cell[0] * cell[4]
                                              : spec.scale * cell[spec.index];
          }
        } else {  // nothing to write this round, but the write is collective
          check(H5Sselect_none(space), path, "select none");
          check(H5Sselect_none(memory), path, "select none");
        }
        check(H5Dwrite(set, H5T_NATIVE_DOUBLE, memory, space, xfer, component.data()), path,
              spec.name);
      }
    }
    // Buffered data reaches the disk here, where a full disk is reported, not in the close.
    check(H5Fflush(file, H5F_SCOPE_GLOBAL), path, "flush");
  }, [&] { std::filesystem::remove(path); });

  // Every rank keeps the same list; rank 0 writes it out.
  bool replaced = false;
  for (auto& entry : written_) {
    if (entry.second != name) continue;
    entry.first = time;  // the same step written again, e.g. after a restart
    replaced = true;
  }
  if (!replaced) written_.emplace_back(time, name);
  on_rank0(comm_, [&] { write_xdmf(); });
  return path;
}

// One uniform rectilinear grid per written file; the geometry points at the face coordinates
// in each .h5 so cell widths of stretched grids are shown exactly. Paths are relative to the
// .xmf, which lies in the same directory. Written to a temporary name and renamed so a viewer
// reloading during a run never sees half a file.
void FieldWriter::write_xdmf() const {
  const int nx = grid_.cells(0), ny = grid_.cells(1), nz = grid_.cells(2);
  std::ostringstream xml;
  xml.precision(17);
  xml << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      << "<Xdmf Version=\"3.0\">\n <Domain>\n"
      << "  <Grid Name=\"fields\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  const auto item = [&](const std::string& dims, const std::string& file, const char* set) {
    xml << "     <DataItem Dimensions=\"" << dims
        << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << file << ":/" << set
        << "</DataItem>\n";
  };
  const std::string cell_dims =
      std::to_string(nz) + " " + std::to_string(ny) + " " + std::to_string(nx);
  for (const auto& [time, file] : written_) {
    xml << "   <Grid Name=\"" << file << "\" GridType=\"Uniform\">\n"
        << "    <Time Value=\"" << time << "\"/>\n"
        << "    <Topology TopologyType=\"3DRectMesh\" Dimensions=\"" << nz + 1 << " " << ny + 1
        << " " << nx + 1 << "\"/>\n"
        << "    <Geometry GeometryType=\"VXVYVZ\">\n";
    item(std::to_string(nx + 1), file, "x_faces");
    item(std::to_string(ny + 1), file, "y_faces");
    item(std::to_string(nz + 1), file, "z_faces");
    xml << "    </Geometry>\n";
    for (const FieldSpec& spec : kFields) {
      xml << "    <Attribute Name=\"" << spec.name
          << "\" AttributeType=\"Scalar\" Center=\"Cell\">\n";
      item(cell_dims, file, spec.name);
      xml << "    </Attribute>\n";
    }
    xml << "   </Grid>\n";
  }
  xml << "  </Grid>\n </Domain>\n</Xdmf>\n";

  const std::filesystem::path target = std::filesystem::path(directory_) / "fields.xmf";
  remove_stale_temporaries(target.string());
  const std::filesystem::path temporary = temporary_name(target.string());
  {
    std::ofstream out(temporary);
    out << xml.str();
    if (!out.flush()) {
      const int error = errno;
      out.close();
      std::filesystem::remove(temporary);
      fail(temporary.string(), ": cannot write the XDMF file (", std::strerror(error), ")");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) fail(target.string(), ": cannot rename the XDMF file: ", error.message());
}

}  // namespace bolt
