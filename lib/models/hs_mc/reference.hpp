#pragma once
// A plain, obviously correct implementation of the Monte Carlo collision step of paper 000
// (Eqs. 23-26): sequential, double, host only, written from the paper without the kernels'
// tables or tricks, to test the fast kernels against (STYLE.md, GROMACS's kernels_reference).
// It shares only draw_collision() with them -- the same (seed, step, sample) gives the same
// random v, v1, k (which is the point of a counter-based generator) -- and, for the expected
// self-loss, the definition of L_v (mc_expected_self_loss).
#include <cstdint>
#include <vector>

#include "grid/velocity_grid.hpp"

namespace bolt {

struct McReferenceParams {
  double kappa = 0.0;    // pi d^2 n0 L
  double omega = 0.5;
  double epsilon = 1.0;
  double dt = 0.0;
  int samples = 0;       // N_t
  std::uint32_t seed = 0, step = 0;
  bool expected_self_loss = true;  // -mc_self_loss expected (kernels/hs_mc/collision.hpp)
  double temperature = 1.0;  // v, v1 drawn from the Maxwellian of this temperature (McDraw)
};

struct McReferenceStep {
  std::vector<double> h;     // h' = h~ + dt / (w Phi0) dN/dt, no correction
  std::int64_t rejected = 0; // samples with a velocity outside the box
};

// Eqs. (23), (24) for every row of h~ (cell-major, velocity fastest); with expected_self_loss the
// self term coef_a h_a of each loss increment is replaced by L_a h_a after the samples.
McReferenceStep reference_mc_collision(const VelocityGrid& vg, const McReferenceParams& p,
                                       const std::vector<double>& h_tilde);

// The 5 x 5 system of Eq. (26) for one cell (matrix row-major, then right side), in the form
// solved for y: sum_v w Phi0 (1 + eps h') psi_k psi_l y_l = sum_v w Phi0 psi_k (h~ - h').
void reference_correction_system(const VelocityGrid& vg, double epsilon, const double* h_tilde,
                                 const double* h_prime, double matrix[25], double rhs[5]);

// Eq. (25) for one row: h' + (1 + eps h') (y_0 + y_1 xi_x + y_2 xi_y + y_3 xi_z + y_4 |xi|^2).
std::vector<double> reference_apply_correction(const VelocityGrid& vg, double epsilon,
                                               const double* h_prime, const double y[5]);

// Conserved moments sum_v w Phi0 psi_k h of one row, psi = (1, xi, |xi|^2), summed in long double.
void reference_conserved_moments(const VelocityGrid& vg, const double* h, double moments[5]);

// Phi0 = exp(-|xi|^2) / pi^(3/2) (bolt units).
double reference_phi0(double x, double y, double z);

}  // namespace bolt
