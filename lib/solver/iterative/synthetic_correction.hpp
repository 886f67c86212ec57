#pragma once
// A synthetic correction of the iterative solver's moments between sweeps, in the spirit of
// GSIS (Su, Zhu, Wu et al.): plain source iteration moves the conserved moments by about one
// collision time per sweep, so the slow modes -- shear diffusing across the domain, sound
// sloshing between the walls -- take thousands of sweeps as Kn falls. Macroscopic equations
// carry them across the domain in one solve.
//
// Summing a sweep's discrete equation (1/tau + sum_d |xi_d|/dx_d) f = F(W_k)/tau + upwind terms
// over the velocities with the weights (1, xi, |xi|^2 / 2) gives, per cell and exactly,
//   div_h Phi_kin(f_half) = nu_k (m(F(W_k)) - W_half),
// with Phi_kin the sweep's upwind face fluxes and W_half the moments of the sweep. GSIS writes
// the kinetic fluxes as macroscopic fluxes Phi(W) (Euler by kinetic flux-vector splitting plus
// Navier-Stokes viscous and heat fluxes) and a frozen remainder Phi_kin - Phi(W_half), and
// solves for the conserved moments W:
//   div_h Phi(W) - div_h Phi(W_half) = nu_k (W_half - W_k).
// (The discrete equilibrium's moments m(F(W_k)) cancel against the fixed point's collision
// term.) At the kinetic fixed point W_half = W_k the right side vanishes and W = W_half solves
// it: the correction never moves the converged state, whatever Phi's approximations (walls
// without slip, no cross derivatives); those only decide how fast the iteration converges.
//
// One Newton step of that system per sweep, W = W_half + J^-1 nu_k (W_half - W_k), with the
// Jacobian J of div_h Phi from differences of the face fluxes (synthetic_operator.hpp), kept for
// several sweeps, solved by multigrid (synthetic_multigrid.hpp: one V-cycle on boxes, FGMRES
// around it on planes), by LU on lines and on planes multigrid cannot coarsen, and by GMRES with
// ILU(0) on such boxes, and a term eps nu I that keeps J regular (a closed domain's uniform
// density shift is otherwise in its null space; the mass rescaling fixes that shift). The
// non-conserved parts of the moments (the deviatoric pressure tensor, the heat flux) are kept
// from the sweep.
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "grid/physical_grid.hpp"
#include "kernels/boundary_fill.hpp"

namespace bolt {

struct SyntheticGas {
  double delta = 1.0;  // rarefaction parameter: mu = T^omega / (2 delta)
  double omega = 0.5;
  double prandtl = 1.0;  // kappa = (5/4) mu / Pr
  // The model's collision frequency of a cell of density n and temperature T (the nu_k the
  // sweep froze).
  std::function<double(double n, double T)> frequency;
};

struct SyntheticConfig {
  PhysicalGrid grid;
  std::array<std::array<FaceSpec, 2>, 3> faces;  // [axis][side]: wall, specular, inflow, outflow
  std::vector<unsigned char> solid;              // [cell], empty: no solids
  double solid_temperature = 1.0;
  SyntheticGas gas;
};

// Host bytes of the correction on `grid`: its Jacobian and the multigrid's levels, or its factors
// (a line's or plane's LU, whose fill grows as the log of the cells; a box's ILU(0), and GMRES's
// vectors).
double synthetic_correction_bytes(const PhysicalGrid& grid);

class SyntheticCorrection {
 public:
  // Corrections between two Jacobians; the factorisation is kept meanwhile. The state changes
  // little from one sweep to the next: in the cavities and a small cube a Jacobian of the
  // initial state alone converged in as many sweeps as one formed every 10 or 30; refreshing it
  // is for flows that move far from their start.
  static constexpr int kJacobianLag = 20;

  explicit SyntheticCorrection(const SyntheticConfig& config);
  ~SyntheticCorrection();
  SyntheticCorrection(const SyntheticCorrection&) = delete;
  SyntheticCorrection& operator=(const SyntheticCorrection&) = delete;

  // Corrects the sweep's raw moments `swept` ([cell][kRawMoments], W_half) given the moments the
  // sweep started from (`previous`, W_k). Solid cells are left as they are.
  void correct(const std::vector<double>& previous, std::vector<double>& swept);

  // Linear iterations of the last correction's solve.
  int last_linear_iterations() const;

  // div_h Phi(U) + eps nu U for the conserved unknowns U ([cell][5]: n, n u, E); public for the
  // tests (the Jacobian's function).
  void macroscopic_operator(const double* conserved, double* out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bolt
