#include "case/initial_fields.hpp"

#include <algorithm>
#include <utility>

#include "core/error.hpp"
#include "io/hdf5_support.hpp"

namespace bolt {

InitialFields::InitialFields(std::array<std::vector<double>, 3> centres,
                             std::array<std::vector<double>, 3> widths,
                             std::vector<unsigned char> fluid, std::vector<FieldsGas> gas)
    : centres_(std::move(centres)),
      widths_(std::move(widths)),
      fluid_(std::move(fluid)),
      gas_(std::move(gas)) {
  std::size_t cells = 1;
  for (int a = 0; a < 3; ++a) {
    require(!centres_[a].empty() && centres_[a].size() == widths_[a].size(),
            "-init_fields: the cell centres and widths of axis ", a, " do not match");
    cells *= centres_[a].size();
    lo_[a] = centres_[a].front() - 0.5 * widths_[a].front();
    hi_[a] = centres_[a].back() + 0.5 * widths_[a].back();
  }
  require(fluid_.size() == cells && gas_.size() == cells, "-init_fields: ", gas_.size(),
          " cells of fields for a grid of ", cells);
}

bool InitialFields::at(const double p[3], FieldsGas& gas) const {
  // Per axis the two centres around p and the weight of the upper one.
  int index[3][2];
  double t[3];
  for (int a = 0; a < 3; ++a) {
    const std::vector<double>& c = centres_[a];
    const int last = int(c.size()) - 1;
    if (p[a] <= c.front() || last == 0) {
      index[a][0] = index[a][1] = 0;
      t[a] = 0.0;
    } else if (p[a] >= c.back()) {
      index[a][0] = index[a][1] = last;
      t[a] = 0.0;
    } else {
      const int upper = int(std::upper_bound(c.begin(), c.end(), p[a]) - c.begin());
      index[a][0] = upper - 1;
      index[a][1] = upper;
      t[a] = (p[a] - c[upper - 1]) / (c[upper] - c[upper - 1]);
    }
  }
  const std::size_t nx = centres_[0].size(), ny = centres_[1].size();
  FieldsGas sum{0.0, {0.0, 0.0, 0.0}, 0.0};
  double total = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    double weight = 1.0;
    std::size_t at[3];
    for (int a = 0; a < 3; ++a) {
      const int upper = (corner >> a) & 1;
      at[a] = std::size_t(index[a][upper]);
      weight *= upper ? t[a] : 1.0 - t[a];
    }
    const std::size_t cell = at[0] + nx * (at[1] + ny * at[2]);
    if (!fluid_[cell] || weight <= 0.0) continue;
    const FieldsGas& g = gas_[cell];
    sum.n += weight * g.n;
    for (int a = 0; a < 3; ++a) sum.u[a] += weight * g.u[a];
    sum.T += weight * g.T;
    for (int k = 0; k < 6; ++k) sum.stress[k] += weight * g.stress[k];
    for (int a = 0; a < 3; ++a) sum.heat[a] += weight * g.heat[a];
    total += weight;
  }
  if (total <= 0.0) return false;
  gas.n = sum.n / total;
  for (int a = 0; a < 3; ++a) gas.u[a] = sum.u[a] / total;
  gas.T = sum.T / total;
  for (int k = 0; k < 6; ++k) gas.stress[k] = sum.stress[k] / total;
  for (int a = 0; a < 3; ++a) gas.heat[a] = sum.heat[a] / total;
  return true;
}

double InitialFields::mass() const {
  const std::size_t nx = centres_[0].size(), ny = centres_[1].size();
  double mass = 0.0;
  for (std::size_t cell = 0; cell < gas_.size(); ++cell)
    if (fluid_[cell])
      mass += gas_[cell].n * widths_[0][cell % nx] * widths_[1][cell / nx % ny] *
              widths_[2][cell / nx / ny];
  return mass;
}

std::vector<FieldsGas> InitialFields::gas_cells() const {
  std::vector<FieldsGas> gas;
  for (std::size_t cell = 0; cell < gas_.size(); ++cell)
    if (fluid_[cell]) gas.push_back(gas_[cell]);
  return gas;
}

bool InitialFields::non_equilibrium() const {
  for (std::size_t cell = 0; cell < gas_.size(); ++cell) {
    if (!fluid_[cell]) continue;
    for (double s : gas_[cell].stress)
      if (s != 0.0) return true;
    for (double q : gas_[cell].heat)
      if (q != 0.0) return true;
  }
  return false;
}

namespace {

using namespace hdf5;  // Handle, check, on_rank0: lib/io/hdf5_support.hpp

std::vector<double> read_dataset(hid_t file, const std::string& path, const char* name) {
  require(H5Lexists(file, name, H5P_DEFAULT) > 0, "-init_fields ", path, ": no dataset '", name,
          "' (a fields_*.h5 of bolt's output has n, ux, uy, uz, T, fluid and x/y/z_faces)");
  Handle set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose, path, name);
  Handle space(H5Dget_space(set), H5Sclose, path, name);
  const hssize_t count = H5Sget_simple_extent_npoints(space);
  require(count > 0, "-init_fields ", path, ": dataset '", name, "' is empty");
  std::vector<double> values(static_cast<std::size_t>(count));
  check(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), path, name);
  return values;
}

}  // namespace

std::shared_ptr<const InitialFields> read_initial_fields(MPI_Comm comm, const std::string& path) {
  // Rank 0 reads; every rank gets: the faces of the three axes, then n, ux, uy, uz, T and fluid
  // of every cell.
  constexpr const char* kFaces[3] = {"x_faces", "y_faces", "z_faces"};
  constexpr const char* kCellFields[6] = {"n", "ux", "uy", "uz", "T", "fluid"};
  std::vector<double> packed;
  long long sizes[3] = {0, 0, 0};
  on_rank0(comm, [&] {
    QuietHdf5 quiet;
    const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    require(id >= 0, "-init_fields ", path, ": cannot open it as an HDF5 file");
    Handle file(id, H5Fclose, path, "file");
    for (int a = 0; a < 3; ++a) {
      const std::vector<double> faces = read_dataset(file, path, kFaces[a]);
      require(faces.size() >= 2, "-init_fields ", path, ": ", kFaces[a],
              " needs two faces or more");
      sizes[a] = static_cast<long long>(faces.size()) - 1;
      packed.insert(packed.end(), faces.begin(), faces.end());
    }
    const std::size_t cells = std::size_t(sizes[0] * sizes[1] * sizes[2]);
    for (const char* name : kCellFields) {
      const std::vector<double> values = read_dataset(file, path, name);
      require(values.size() == cells, "-init_fields ", path, ": '", name, "' has ", values.size(),
              " values for ", sizes[0], " x ", sizes[1], " x ", sizes[2], " cells");
      packed.insert(packed.end(), values.begin(), values.end());
    }
  });
  MPI_Bcast(sizes, 3, MPI_LONG_LONG, 0, comm);
  long long total = static_cast<long long>(packed.size());
  MPI_Bcast(&total, 1, MPI_LONG_LONG, 0, comm);
  packed.resize(static_cast<std::size_t>(total));
  MPI_Bcast(packed.data(), static_cast<int>(total), MPI_DOUBLE, 0, comm);

  std::array<std::vector<double>, 3> centres, widths;
  const double* at = packed.data();
  for (int a = 0; a < 3; ++a) {
    for (long long i = 0; i < sizes[a]; ++i) {
      centres[a].push_back(0.5 * (at[i] + at[i + 1]));
      widths[a].push_back(at[i + 1] - at[i]);
    }
    at += sizes[a] + 1;
  }
  const std::size_t cells = std::size_t(sizes[0] * sizes[1] * sizes[2]);
  const double* field[6];
  for (int k = 0; k < 6; ++k) field[k] = at + k * cells;
  std::vector<unsigned char> fluid(cells);
  std::vector<FieldsGas> gas(cells);
  for (std::size_t c = 0; c < cells; ++c) {
    fluid[c] = field[5][c] > 0.5 ? 1 : 0;
    gas[c] = {field[0][c], {field[1][c], field[2][c], field[3][c]}, field[4][c]};
    require(!fluid[c] || (gas[c].n > 0.0 && gas[c].T > 0.0), "-init_fields ", path, ": cell ", c,
            " has n = ", gas[c].n, " and T = ", gas[c].T, "; both must be positive");
  }
  return std::make_shared<const InitialFields>(std::move(centres), std::move(widths),
                                               std::move(fluid), std::move(gas));
}

}  // namespace bolt
