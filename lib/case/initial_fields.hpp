#pragma once
// A previous run's fields (a fields_*.h5 of bolt's output) as the initial state of a run on
// another grid (-init_type fields -init_fields FILE): n, u and T at the file's cell centres,
// interpolated linearly between the centres of its gas cells. A coarse solution so started
// leaves the fine run only the difference of the two grids to iterate away.
#include <mpi.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace bolt {

// The gas of a cell: n, u, T and, where known, its non-equilibrium as Grad's 13 moments: the
// stress P_ij - n T delta_ij (xx, yy, zz, xy, xz, yz) and the heat flux q (0: a Maxwellian).
struct FieldsGas {
  double n, u[3], T;
  double stress[6] = {0, 0, 0, 0, 0, 0};
  double heat[3] = {0, 0, 0};
};

class InitialFields {
 public:
  // centres: the cell centres along each axis (one on an inactive axis); per cell, x fastest:
  // the gas (fluid 1, solid 0), n, u, T; widths: the cells' widths along each axis.
  InitialFields(std::array<std::vector<double>, 3> centres,
                std::array<std::vector<double>, 3> widths, std::vector<unsigned char> fluid,
                std::vector<FieldsGas> gas);

  // The gas at point p (with its stress and heat flux): trilinear between the 8 centres around
  // it, over those of gas cells only (weights renormalised); beyond the outer centres, the outer values. False where no centre
  // around p is a gas cell's.
  bool at(const double p[3], FieldsGas& gas) const;
  // The mass of the file's gas cells, sum n dx dy dz.
  double mass() const;
  // The gas of the file's gas cells (the states the run starts from: time step, velocity range).
  std::vector<FieldsGas> gas_cells() const;
  // Whether any gas cell carries stress or heat flux (Grad's terms; a fields file has none).
  bool non_equilibrium() const;
  // [lo, hi] of the cells along axis a.
  double lo(int a) const { return lo_[a]; }
  double hi(int a) const { return hi_[a]; }

 private:
  std::array<std::vector<double>, 3> centres_, widths_;
  std::array<double, 3> lo_{}, hi_{};
  std::vector<unsigned char> fluid_;
  std::vector<FieldsGas> gas_;
};

// Rank 0 reads `path` (n, ux, uy, uz, T, fluid and the cell faces x_faces, y_faces, z_faces) and
// every rank gets the same copy; an unreadable file or a missing dataset is an error naming
// -init_fields and the file.
std::shared_ptr<const InitialFields> read_initial_fields(MPI_Comm comm, const std::string& path);

}  // namespace bolt
