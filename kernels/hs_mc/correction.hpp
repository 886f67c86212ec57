#pragma once
// The conservation correction of the semi-regular Monte Carlo collision (paper 000, Eqs. 25, 26):
// after the Monte Carlo step h~ -> h', every cell's row becomes
//   h_new = h' + (1 + eps h') (y_0 + y . xi + y_4 |xi|^2)
// with y from the 5 x 5 system
//   sum_v w Phi0 (1 + eps h') psi_k psi_l  y_l = M~_k - M'_k,   psi = (1, xi, |xi|^2),
// so that the conserved moments of h_new equal those of h~, M~. The matrix is the run's constant
// sum_v w Phi0 psi_k psi_l plus eps times the same sum over h'; every product psi_k psi_l is one
// of 14 monomials of xi (or a sum of three), so 14 sums over h' give it. In the paper's notation
// A = eps y_0, B = eps (y_1, y_2, y_3), C = eps y_4: the correction multiplies the full f by
// 1 + A + B . xi + C |xi|^2. Solving for y keeps the system O(1) for any eps (also eps -> 0, the
// linearised equation).
//
// McCollision (collision.hpp) sums the monomials and solves the systems inside the collision
// kernel (-mc_correction batched), or writes them for PETSc on the host (external), whose y
// McApplyCorrection applies.
#include <cstdint>

#include "core/host_device.hpp"
#include "kernels/views.hpp"

namespace bolt {

// none: no correction (h_new = h'); batched: solve the 5 x 5 system in the kernel and apply it;
// external: write the system per cell for a solver outside (PETSc), then McApplyCorrection.
enum class McCorrection { none, batched, external };

// Per cell record: y (5; the correction in units of h, A B C = eps y) and the drift of the
// conserved moments caused by the Monte Carlo step itself, M' - M~ (5).
constexpr int kMcRecord = 10;
// Per cell system for an external solver: the 5 x 5 matrix, row-major, then the right side.
constexpr int kMcSystem = 30;

// The monomials of xi that the products psi_k psi_l of the collision invariants
// psi = (1, xi, |xi|^2) are made of: 1, x, y, z, x^2, y^2, z^2, xy, xz, yz, x |xi|^2, y |xi|^2,
// z |xi|^2, |xi|^4 (McCollision sums them over h' in this order).
constexpr int kMcMonomials = 14;

BOLT_HOST_DEVICE inline void invariant_monomials(double x, double y, double z,
                                                 double m[kMcMonomials]) {
  const double xx = x * x, yy = y * y, zz = z * z, r2 = xx + yy + zz;
  m[0] = 1.0;
  m[1] = x;
  m[2] = y;
  m[3] = z;
  m[4] = xx;
  m[5] = yy;
  m[6] = zz;
  m[7] = x * y;
  m[8] = x * z;
  m[9] = y * z;
  m[10] = x * r2;
  m[11] = y * r2;
  m[12] = z * r2;
  m[13] = r2 * r2;
}

// Entry (i, j) of sum psi_i psi_j over a distribution from its monomial sums, sum(m) =
// s[m] in invariant_monomials' order: one monomial, or for (0, 4) and (4, 0) the three squares.
template <class MonomialSums>
BOLT_HOST_DEVICE double invariant_product(int i, int j, const MonomialSums& sum) {
  // The upper triangle row by row, 4 bits per entry, 15 for the three squares: a constant in
  // registers (a constexpr array indexed at run time goes to local memory on the GPU).
  constexpr unsigned long long kPacked = 0xdc6b95a874f3210ull;
  const int p = i < j ? i : j, q = i < j ? j : i;
  const int m = int(kPacked >> (4 * (p * 5 - p * (p - 1) / 2 + q - p)) & 15u);
  return m == 15 ? sum(4) + sum(5) + sum(6) : sum(m);
}

// The monomial sums of the equilibrium, sum_v w_v Phi0_v m(xi_v): the constant part of every
// cell's correction matrix.
struct McEquilibriumMonomials {
  double sum[kMcMonomials];
};

// Applies corrections solved outside the kernel: h += (1 + eps h) (y_0 + y . xi + y_4 |xi|^2),
// y = correction[item * 5 ...].
template <class Real>
struct McApplyCorrection {
  Real* h;
  Velocities<Real> vel;
  const double* correction;  // [item * 5]
  CellIndexer cells;
  Real epsilon;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const std::int64_t p = cells.padded(cells.coord(item));
    Real* row = h + p * vel.row;
    const double* y = correction + item * 5;
    const Real y0 = Real(y[0]), y1 = Real(y[1]), y2 = Real(y[2]), y3 = Real(y[3]), y4 = Real(y[4]);
    team.for_each(vel.n, [&](int v) {
      const Real x = vel.x[v], yv = vel.y[v], z = vel.z[v];
      const Real c = y0 + y1 * x + y2 * yv + y3 * z + y4 * (x * x + yv * yv + z * z);
      row[v] += (Real(1) + epsilon * row[v]) * c;
    });
  }
};

}  // namespace bolt
