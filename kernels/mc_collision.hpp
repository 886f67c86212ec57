#pragma once
// The collision step of the semi-regular Monte Carlo method (paper 000, Eqs. 23-26, algorithm 3)
// for the deviational distribution h, f = Phi0 (1 + eps h), as a team functor over spatial cells.
//
// Per cell, with h~ the post-streaming row:
//  1. (copy h~ to the scratch row when it has room, clear the accumulator);
//  2. every sample l of the step (mc_samples.hpp) adds, with g = h~(v) + h~(v1) + eps h~(v) h~(v1)
//     taken from the *unchanged* row h~ (Eq. 24: samples are independent, so the team's threads
//     process them in parallel and add with atomics into an accumulator row):
//       h'(v) -= coef_0 g, h'(v1) -= coef_1 g, h'(v*) += coef_2 g, h'(v1*) += coef_3 g;
//  3. conservation correction (Eqs. 25, 26): h_new = h' + (1 + eps h') (y_0 + y . xi + y_4 |xi|^2)
//     with y from the 5 x 5 system
//       sum_v w Phi0 (1 + eps h') psi_k psi_l  y_l = M~_k - M'_k,
//     M_k = sum_v w_v Phi0_v psi_k(xi_v) h_v, psi = (1, xi_x, xi_y, xi_z, |xi|^2),
//     so that the moments of h_new equal M~ exactly. In the paper's notation A = eps y_0,
//     B = eps (y_1, y_2, y_3), C = eps y_4: the correction multiplies the full f by
//     1 + A + B . xi + C |xi|^2. Solving for y keeps the system O(1) for any eps (also eps -> 0,
//     the linearised equation).
//
// Implicit self-loss (ImplicitLoss = true, -mc_loss implicit; not in the paper). In Eq. 24 the
// loss of a sample at its cell a is -coef_a (h_a + h_b + eps h_a h_b): for a far-tail cell, rarely
// hit (N_t w_a Phi0_a << 1), coef_a >> 1 and the update multiplies h_a by 1 - coef_a (1 + eps h_b)
// -- an unstable random multiplication whose variance grows from step to step
// (docs/physics.md). The implicit variant keeps the explicit partner term -coef_a h_b and the
// gains, and treats the self term backward in time:
//   h'_a = (h~_a + sum of explicit increments) / (1 + L_a),  L_a = sum coef_a max(0, 1 + eps h_b)
// (max: f_b >= 0). Every factor 1 / (1 + L) is in (0, 1]; where coef_a << 1 it is Eq. 24, where
// it is not (the cells it is meant for) it relaxes too slowly: E[L / (1 + L)] < E[L]. So it trades
// the variance for a bias (experimental, docs/physics.md). It no longer conserves mass sample by
// sample: the correction (Eqs. 25, 26) restores the moments.
//
// Where the rows live: `scratch_rows` = 2 keeps a copy of h~ and the accumulator in the team's
// scratch (GPU shared memory), 3 also the loss row; 1 keeps only the accumulator there (h~
// gathered from global memory); 0 accumulates in the output row itself (the CPU team, or a row too
// long for shared memory). A loss row outside the scratch is `loss_rows` (global memory). The CPU
// team runs the samples in order, one thread, so the sums are deterministic there;
// on the GPU the order of the atomic additions varies from run to run (last-bit differences).
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "mc_samples.hpp"
#include "small_solve.hpp"
#include "views.hpp"

namespace bolt {

// none: no correction (h_new = h'); batched: solve the 5 x 5 system in the kernel and apply it;
// external: write the system per cell for a solver outside (PETSc), then McApplyCorrection.
enum class McCorrection { none, batched, external };

// Per cell record: y (5; the correction in units of h, A B C = eps y) and the drift of the
// conserved moments caused by the Monte Carlo step itself, M' - M~ (5).
constexpr int kMcRecord = 10;
// Per cell system for an external solver: the 5 x 5 matrix, row-major, then the right side.
constexpr int kMcSystem = 30;

// psi = (1, xi_x, xi_y, xi_z, |xi|^2) at velocity v.
template <class Real>
BOLT_HOST_DEVICE inline void collision_invariants(const Velocities<Real>& vel, int v, double psi[5]) {
  const double x = vel.x[v], y = vel.y[v], z = vel.z[v];
  psi[0] = 1.0;
  psi[1] = x;
  psi[2] = y;
  psi[3] = z;
  psi[4] = x * x + y * y + z * z;
}

template <class Real, McCorrection Mode, bool ImplicitLoss = false>
struct McCollision {
  // Reduction width: 5 moments, plus the 15 distinct entries of the symmetric 5 x 5 matrix.
  static constexpr int kSums = Mode == McCorrection::none ? 5 : 20;

  const Real* h_in;  // post-streaming h~ (padded cell numbering, velocity fastest)
  Real* h_out;       // h_new; must not alias h_in
  Velocities<Real> vel;
  const double* number_weight;  // [v] w_v Phi0(xi_v)
  const McSample<Real>* samples;
  int n_samples;
  CellIndexer cells;
  Real epsilon;
  int scratch_rows;  // 0, 1 or 2 (see above); the launch gives scratch_rows * nv Reals
  double* record;    // [item * kMcRecord] or nullptr
  double* system;    // [item * kMcSystem], external mode only
  Real* loss_rows = nullptr;  // ImplicitLoss with scratch_rows < 3: [padded cell][v]

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const std::int64_t p = cells.padded(cells.coord(item));
    const int nv = vel.n;
    const Real* BOLT_RESTRICT row_in = h_in + p * nv;
    Real* row_out = h_out + p * nv;  // not restrict: the accumulator may be this row
    Real* scratch = team.row_scratch(static_cast<Real*>(nullptr));
    Real* copy = (scratch && scratch_rows == 2) ? scratch : nullptr;
    const Real* hs = copy ? copy : row_in;
    Real* acc = scratch ? scratch + (copy ? nv : 0) : row_out;
    Real* loss = nullptr;
    if constexpr (ImplicitLoss)
      loss = (scratch && scratch_rows == 3) ? scratch + 2 * nv : loss_rows + p * nv;

    // 1. clear the accumulators, copy h~ to the scratch row.
    team.for_each(nv, [&](int v) {
      if (copy) copy[v] = row_in[v];
      acc[v] = Real(0);
      if constexpr (ImplicitLoss) loss[v] = Real(0);
    });
    team.sync();

    // 2. the collisions (Eqs. 23, 24).
    team.for_each_scatter(n_samples, [&](int l) {
      const McSample<Real> s = samples[l];
      if (s.cell[0] < 0) return;  // rejected: a velocity outside the box
      const Real h = hs[s.cell[0]], h1 = hs[s.cell[1]];
      const Real g = h + h1 + epsilon * h * h1;
      if constexpr (ImplicitLoss) {
        const Real f1 = Real(1) + epsilon * h1, f = Real(1) + epsilon * h;
        team.atomic_add(acc + s.cell[0], -s.coef[0] * h1);
        team.atomic_add(acc + s.cell[1], -s.coef[1] * h);
        team.atomic_add(loss + s.cell[0], s.coef[0] * (f1 > Real(0) ? f1 : Real(0)));
        team.atomic_add(loss + s.cell[1], s.coef[1] * (f > Real(0) ? f : Real(0)));
      } else {
        team.atomic_add(acc + s.cell[0], -s.coef[0] * g);
        team.atomic_add(acc + s.cell[1], -s.coef[1] * g);
      }
      team.atomic_add(acc + s.cell[2], s.coef[2] * g);
      team.atomic_add(acc + s.cell[3], s.coef[3] * g);
    });
    team.sync();
    // h' of velocity v as it is stored.
    auto updated = [&](int v) {
      if constexpr (ImplicitLoss)
        return Real((hs[v] + acc[v]) / (Real(1) + loss[v]));
      else
        return Real(hs[v] + acc[v]);
    };

    // 3. the change of the conserved moments, M~ - M' (from the difference h~ - h' per velocity,
    //    not as a difference of two sums: no cancellation), and the correction matrix.
    const double eps = double(epsilon);
    const Sums<kSums> sums = team.template reduce<kSums>(nv, [&](int v, Sums<kSums>& s) {
      const Real stored = updated(v);
      const double h = double(stored);
      double psi[5];
      collision_invariants(vel, v, psi);
      const double wn = number_weight[v];
      const double change = wn * (double(hs[v]) - h);
      for (int k = 0; k < 5; ++k) s[k] += change * psi[k];
      if constexpr (kSums == 20) {
        const double wf = wn * (1.0 + eps * h);
        int m = 5;
        for (int k = 0; k < 5; ++k)
          for (int j = k; j < 5; ++j) s[m++] += wf * psi[k] * psi[j];
      }
    });
    double y[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    if constexpr (Mode != McCorrection::none) {
      double A[5][5];
      int m = 5;
      for (int k = 0; k < 5; ++k)
        for (int j = k; j < 5; ++j) A[k][j] = A[j][k] = sums[m++];
      for (int k = 0; k < 5; ++k) y[k] = sums[k];
      if (Mode == McCorrection::external && team.leader()) {
        double* out = system + item * kMcSystem;
        for (int k = 0; k < 5; ++k) {
          for (int j = 0; j < 5; ++j) out[5 * k + j] = A[k][j];
          out[25 + k] = y[k];
        }
      }
      // Every thread solves the same system with the same operations: the same y everywhere.
      if (Mode == McCorrection::external || !solve_dense<5>(A, y))
        for (int k = 0; k < 5; ++k) y[k] = 0.0;  // external: applied later; singular: none
    }
    if (record && team.leader()) {
      double* out = record + item * kMcRecord;
      for (int k = 0; k < 5; ++k) {
        out[k] = y[k];
        out[5 + k] = -sums[k];
      }
    }
    const Real y0 = Real(y[0]), y1 = Real(y[1]), y2 = Real(y[2]), y3 = Real(y[3]), y4 = Real(y[4]);
    team.for_each(nv, [&](int v) {
      const Real h = updated(v);
      if constexpr (Mode == McCorrection::batched) {
        const Real x = vel.x[v], yv = vel.y[v], z = vel.z[v];
        const Real c = y0 + y1 * x + y2 * yv + y3 * z + y4 * (x * x + yv * yv + z * z);
        row_out[v] = h + (Real(1) + epsilon * h) * c;
      } else {
        row_out[v] = h;
      }
    });
  }
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
    Real* row = h + p * vel.n;
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
