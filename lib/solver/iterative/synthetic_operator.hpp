#pragma once
// The macroscopic operator of the synthetic correction (synthetic_correction.hpp),
//   A(U) = div_h Phi(U) + eps nu U,
// on the conserved unknowns U = (n, n u, E) of every cell: Euler fluxes by kinetic flux-vector
// splitting plus Navier-Stokes viscous and heat fluxes across each face, walls with slip and a
// temperature jump. It also forms A's Jacobian, whose 5 x 5 blocks couple a cell to itself and to
// its fluid face neighbours: each face's flux depends on the two cells beside it only, so the
// blocks come from differences of the face fluxes alone, a few per face, instead of the dozens of
// whole-grid evaluations a coloured difference of A takes.
#include <cstdint>
#include <vector>

#include "solver/iterative/synthetic_correction.hpp"

namespace bolt {

inline constexpr int kSyntheticConserved = 5;  // n, n u_x, n u_y, n u_z, E = (1/2) sum f |xi|^2

// Block compressed rows of the Jacobian: the blocks of cell c are columns[row_start[c] ..
// row_start[c + 1]), sorted by cell.
struct BlockPattern {
  std::vector<std::int64_t> row_start;
  std::vector<std::int64_t> columns;
};

class SyntheticOperator {
 public:
  explicit SyntheticOperator(const SyntheticConfig& config);

  std::int64_t cells() const { return cells_; }
  int cells_along(int axis) const { return n_[axis]; }
  bool solid(std::int64_t c) const { return !config_.solid.empty() && config_.solid[c]; }

  // The collision frequencies nu of the cells, which the regularisation eps nu U scales.
  std::vector<double>& frequencies() { return nu_; }

  // out = A(U), both [cell][5]. Solid cells map to themselves.
  void apply(const double* U, double* out) const;

  // A cell couples to itself and its fluid face neighbours; a solid cell to itself only.
  const BlockPattern& pattern() const { return pattern_; }

  // A's Jacobian at U, by one-sided differences of the face fluxes: the blocks in the order of
  // pattern(), each 5 x 5 column by column (the layout of PETSc's block matrices).
  void jacobian(const double* U, double* blocks) const;

  // Density, velocity and temperature of a cell's conserved unknowns.
  struct State {
    double n, u[3], T;
  };
  static State state_of(const double* U);

 private:
  static void add_half_flux(const State& s, int axis, double sign, double* flux);

  double viscosity(double T) const;
  void add_viscous_flux(int axis, const double* ua, double Ta, const double* ub, double Tb,
                        double distance_u, double distance_T, const double* uf,
                        double* flux) const;
  // The flux across a face of a cell with the domain's boundary or a solid.
  void boundary_flux(const State& s, int axis, int side, const FaceSpec& face, double half_width,
                     double* flux) const;
  // The flux along `axis` across the face between the fluid cells below and above it, whose
  // centres lie `distance` apart.
  void interior_flux(int axis, const State& below, const State& above, double distance,
                     double* flux) const;

  // How the face of cell c on (axis, side) is closed: by the neighbour cell, or by a face spec.
  struct Face {
    bool interior;
    std::int64_t neighbour;  // interior faces
    const FaceSpec* closure;  // the others
    double half_width, distance;
  };
  Face face_of(std::int64_t c, const int at[3], int axis, int side) const;
  // The flux across `face` with the cell's state `own` and its neighbour's `other`.
  void face_flux(const Face& face, int axis, int side, const State& own, const State& other,
                 double* flux) const;

  SyntheticConfig config_;
  FaceSpec solid_wall_;
  std::int64_t cells_ = 0;
  int n_[3] = {1, 1, 1};
  std::int64_t stride_[3] = {1, 1, 1};
  std::vector<double> nu_;
  BlockPattern pattern_;
};

}  // namespace bolt
