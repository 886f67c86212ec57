#pragma once
// Relaxation evaluators: the collision step of the model equations, solved exactly over a step
// (paper 002 Eq. 14) with the target frozen at the post-streaming moments:
//   f_new = F + (f - F) exp(-nu dt) + dt * body-force term.
// BGK:      F = f_M,                                       nu = delta n T^(1-omega)
// Shakhov:  F = f_M [1 + (1-Pr) 2 (c.q) / (5 n T^2) (2 c^2/T - 5)],   nu = delta n T^(1-omega)
// ES-BGK:   F = Gaussian with lambda = (1/Pr)(T/2) I + (1 - 1/Pr) Theta,  nu = Pr delta n T^(1-omega)
// (units of docs/physics.md: xi in c0, n in n0, T in T0, q = sum w f c |c|^2, Theta = P/n).
// The body force (uniform acceleration g) adds dt * 2 (g . c) / T f_M: it changes momentum by
// n g dt and energy by 2 n (u . g) dt exactly in the continuum.
// On the discrete velocities F is scaled to the row's mass and c is taken from the discrete mean
// velocity of f_M (normalise), so that every step keeps the mass of every cell on any velocity
// grid; -model_conservative matches momentum and energy as well (make_conservative).
#include <cmath>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "gaussian.hpp"
#include "macroscopic.hpp"
#include "views.hpp"

namespace bolt {

enum class RelaxationKind { bgk, shakhov, esbgk };

// Raw-moment order each model needs: BGK 1 (+ energy), ES-BGK 2, Shakhov 3; and the sums per cell
// that gives.
constexpr int relaxation_order(RelaxationKind kind) {
  return kind == RelaxationKind::shakhov ? 3 : (kind == RelaxationKind::esbgk ? 2 : 1);
}
constexpr int relaxation_sums(RelaxationKind kind) {
  return relaxation_order(kind) == 1 ? 5 : (relaxation_order(kind) == 2 ? 10 : kRawMoments);
}

// What the evaluators read: the gas, the relaxation interval and the model's own options
// (assembled by RelaxationOperator, lib/models/relaxation_operator.hpp).
struct RelaxationParams {
  double delta = 1.0;   // rarefaction parameter p0 L / (mu0 c0)
  double omega = 0.5;   // viscosity exponent, mu = mu0 (T/T0)^omega
  double prandtl = 2.0 / 3.0;
  double dt = 0.0;      // relaxation time interval
  double force[3] = {0.0, 0.0, 0.0};
  int conservative_iterations = 0;  // Newton steps for the conservative discrete equilibrium
  // A velocity set that is the full tensor product of its axes (the Cartesian box, uniform or
  // stretched; not the sphere's cut): nodes and widths per axis, so that sums over the set of a
  // Gaussian factorise into sums along each axis.
  bool tensor = false;
  const double* axis_node[3] = {nullptr, nullptr, nullptr};
  const double* axis_width[3] = {nullptr, nullptr, nullptr};
  int axis_count[3] = {0, 0, 0};
};

struct RelaxationTarget {
  Gaussian gauss;
  ShakhovFactor shakhov;  // s = (1-Pr) 2 q / (5 n T^2) for Shakhov; identity otherwise
  double decay;           // exp(-nu dt)
  double n;               // the density of the row: the discrete mass the target must have
  double force_dt[3];     // 2 g dt / T: the force term is force_dt . (xi - force_centre) f_M
  double force_a;         // prefactor of the Maxwellian in the force term
  double force_centre[3]; // the discrete mean velocity of f_M: the force term adds no mass

  BOLT_HOST_DEVICE bool forced() const {
    return force_dt[0] != 0.0 || force_dt[1] != 0.0 || force_dt[2] != 0.0;
  }
};

// A target in the precision of f, as its equilibrium reads it at a velocity: what a kernel that
// evaluates one cell's target at velocity after velocity loads (the iterative sweep), instead of
// the doubles of RelaxationTarget. BGK and Shakhov use L[0] only (isotropic).
template <class Real>
struct CompactTarget {
  Real a;        // prefactor
  Real u[3];     // centre
  Real s[3];     // the Shakhov factor's s
  Real inv_T;    // and its 1 / T (its centre is u: unconservative targets only)
  Real L[6];     // the quadratic form with beta folded in (Gaussian::L)
};

// The sums over the discrete velocities that make the target keep the mass of its row
// (Relaxation::normalise): sum w F, and, with a body force, sum w f_M and sum w xi f_M.
constexpr int kNormalisationSums = 5;

// Conservative: compile the Newton step of the conservative equilibrium in (a separate kernel:
// its 5 x 5 solve and 30-wide reduction would otherwise cost every run registers and occupancy).
template <class Real, RelaxationKind Kind, bool Conservative>
struct Relaxation {
  static constexpr int kOrder = relaxation_order(Kind);
  static constexpr int kSums = relaxation_sums(Kind);
  // Widest team reduction: the conservative Newton step reduces 30 sums.
  static constexpr int kReduceWidth =
      Conservative ? 30 : (kSums > kNormalisationSums ? kSums : kNormalisationSums);
  // The float step is latency-bound, so occupancy decides it: compiled for teams of up to 1024
  // threads (at most 64 registers) it keeps 4 teams of 256 per multiprocessor, where the
  // target's and normalisation's doubles would otherwise leave room for 2. In double the
  // spills such a cap forces cost more than the occupancy gains (docs/benchmarks.md): no cap.
  static constexpr int kTeamThreads = !Conservative && sizeof(Real) == 4 ? 1024 : 0;

  RelaxationParams params;

  BOLT_HOST_DEVICE void accumulate(Sums<kSums>& s, const Velocities<Real>& vel, int v, Real f) const {
    if constexpr (kOrder == 1) {
      const double wf = double(vel.w[v]) * double(f);
      const double x = vel.x[v], y = vel.y[v], z = vel.z[v];
      s[0] += wf;
      s[1] += wf * x;
      s[2] += wf * y;
      s[3] += wf * z;
      s[4] += wf * (x * x + y * y + z * z);
    } else {
      accumulate_raw<kOrder>(s, vel, v, f);
    }
  }

  // The collision frequency of a cell of density n and temperature T.
  BOLT_HOST_DEVICE double frequency(double n, double T) const {
    const double nu_scale = Kind == RelaxationKind::esbgk ? params.prandtl : 1.0;
    return nu_scale * params.delta * n * pow(T, 1.0 - params.omega);
  }

  template <class Team>
  BOLT_HOST_DEVICE RelaxationTarget target(const Team& team, const Sums<kSums>& s,
                                           const Velocities<Real>& vel) const {
    Macroscopic m{};
    double e;
    const double m1[3] = {s[1], s[2], s[3]};
    if constexpr (kOrder == 1) {
      e = s[4];
      density_velocity_temperature(s[0], m1, e, m);
    } else {
      e = s[kM2] + s[kM2 + 1] + s[kM2 + 2];
      m = macroscopic_from_raw<kOrder>(s);
    }
    RelaxationTarget t{};
    t.decay = exp(-frequency(m.n, m.T) * params.dt);
    for (int i = 0; i < 3; ++i) t.shakhov.u0[i] = m.u[i];
    t.shakhov.inv_T = 1.0 / m.T;
    if constexpr (Kind == RelaxationKind::esbgk) {
      // lambda = (1/Pr)(T/2) I + (1 - 1/Pr) P/n; L = lambda^-1 / 2.
      const double ip = 1.0 / params.prandtl;
      double lam[6];
      for (int k = 0; k < 6; ++k) lam[k] = (1.0 - ip) * m.P[k] / m.n + (k < 3 ? ip * 0.5 * m.T : 0.0);
      const double det = lam[0] * (lam[1] * lam[2] - lam[5] * lam[5]) -
                         lam[3] * (lam[3] * lam[2] - lam[5] * lam[4]) +
                         lam[4] * (lam[3] * lam[5] - lam[1] * lam[4]);
      const double inv_half = 0.5 / det;
      t.gauss.L[0] = inv_half * (lam[1] * lam[2] - lam[5] * lam[5]);
      t.gauss.L[1] = inv_half * (lam[0] * lam[2] - lam[4] * lam[4]);
      t.gauss.L[2] = inv_half * (lam[0] * lam[1] - lam[3] * lam[3]);
      t.gauss.L[3] = inv_half * (lam[4] * lam[5] - lam[3] * lam[2]);
      t.gauss.L[4] = inv_half * (lam[3] * lam[5] - lam[4] * lam[1]);
      t.gauss.L[5] = inv_half * (lam[3] * lam[4] - lam[0] * lam[5]);
      const double two_pi = 2.0 * 3.14159265358979323846;
      t.gauss.a = m.n / sqrt(two_pi * two_pi * two_pi * det);
      for (int i = 0; i < 3; ++i) t.gauss.u[i] = m.u[i];
      t.gauss.beta = 1.0;
    } else {
      t.gauss = maxwellian_gaussian(m.n, m.u, m.T);
    }
    if constexpr (Kind == RelaxationKind::shakhov) {
      const double c = (1.0 - params.prandtl) * 2.0 / (5.0 * m.n * m.T * m.T);
      for (int i = 0; i < 3; ++i) t.shakhov.s[i] = c * m.q[i];
    }
    if constexpr (Conservative)
      make_conservative(team, vel, t.gauss, t.shakhov, s[0], m1, e, params.conservative_iterations);
    const Gaussian fm = maxwellian_gaussian(m.n, m.u, m.T);
    t.n = s[0];
    t.force_a = fm.a;
    for (int i = 0; i < 3; ++i) {
      t.force_dt[i] = 2.0 * params.force[i] * params.dt / m.T;
      t.force_centre[i] = m.u[i];
    }
    return t;
  }

  // Whether `normalise` changes the target (uniform over a cell's team).
  BOLT_HOST_DEVICE bool normalised(const RelaxationTarget& t) const {
    return !Conservative || t.forced();
  }

  // Whether the normalisation sums come from sums along the axes (factorised_sums) rather than a
  // sweep over the row: on tensor-product grids, for the isotropic targets (BGK, Shakhov) that
  // share the force term's Maxwellian.
  BOLT_HOST_DEVICE bool factorised() const {
    return params.tensor && Kind != RelaxationKind::esbgk && !Conservative;
  }

  // The normalisation sums of the whole velocity set: by the axes where factorised(), else a
  // team sweep over this team's velocities (the caller sums those over the ranks of a split).
  template <class Team>
  BOLT_HOST_DEVICE Sums<kNormalisationSums> normalisation_sums(const Team& team,
                                                              const RelaxationTarget& t,
                                                              const Velocities<Real>& vel) const {
    if (factorised()) return factorised_sums(team, t);
    return team.template reduce<kNormalisationSums>(
        vel.n, [&](int v, Sums<kNormalisationSums>& s) { accumulate_normalisation(s, t, vel, v); });
  }

  // With e = w exp(-(x - u)^2 / T) along axis a, M_k(a) = sum e (x - u)^k (k up to 1 for BGK, 3
  // for Shakhov), each group of the team forms the 1-D sums itself (tens of terms, not the
  // row), and
  //   sum w f_M = A prod_a M_0(a),  sum w xi_a f_M = A (M_1(a) + u_a M_0(a)) prod_b!=a M_0(b),
  //   sum w f_M (c.s)(2|c|^2/T - 5) = A sum_a s_a [(2/T)(M_3(a) P_a + M_1(a) sum_b!=a M_2(b)
  //                                   P_ab) - 5 M_1(a) P_a],
  // P_a, P_ab the products of M_0 over the other axes. Exact up to rounding, no sweep.
  template <class Team>
  BOLT_HOST_DEVICE Sums<kNormalisationSums> factorised_sums(const Team& team,
                                                           const RelaxationTarget& t) const {
    const double* u = t.shakhov.u0;
    const double inv_T = t.shakhov.inv_T;
    const int n0 = params.axis_count[0], n01 = n0 + params.axis_count[1];
    // M_0 and M_1 for BGK, up to M_3 for Shakhov; summed in the run's precision (a few dozen
    // terms: its rounding is the run's), which keeps the registers of the float kernel down.
    constexpr int K = Kind == RelaxationKind::shakhov ? 4 : 2;
    const auto m = team.template group_sums<3 * K, Real>(
        n01 + params.axis_count[2], [&](int i, Sums<3 * K, Real>& acc) {
          const int a = i < n0 ? 0 : (i < n01 ? 1 : 2);
          const int j = i - (a == 0 ? 0 : (a == 1 ? n0 : n01));
          const Real c = Real(params.axis_node[a][j] - u[a]);
          const Real e = Real(params.axis_width[a][j]) * exp(-c * c * Real(inv_T));
          acc[K * a] += e;
          acc[K * a + 1] += e * c;
          if constexpr (K == 4) {
            acc[K * a + 2] += e * c * c;
            acc[K * a + 3] += e * c * c * c;
          }
        });
    const double M0[3] = {m[0], m[K], m[2 * K]};
    double others[3];  // the product of M_0 over the other two axes
    for (int a = 0; a < 3; ++a) others[a] = M0[(a + 1) % 3] * M0[(a + 2) % 3];
    const double P = M0[0] * M0[1] * M0[2];
    double shakhov = 0.0;
    if constexpr (K == 4)
      for (int a = 0; a < 3; ++a) {
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        const double c2 = m[K * a + 3] * others[a] +
                          m[K * a + 1] * (double(m[K * b + 2]) * M0[c] + m[K * c + 2] * M0[b]);
        shakhov += t.shakhov.s[a] * (2.0 * inv_T * c2 - 5.0 * m[K * a + 1] * others[a]);
      }
    Sums<kNormalisationSums> s = Sums<kNormalisationSums>::zero();
    s[0] = t.gauss.a * (P + shakhov);
    if (t.forced()) {
      s[1] = t.force_a * P;
      for (int a = 0; a < 3; ++a) s[2 + a] = t.force_a * (m[K * a + 1] + u[a] * M0[a]) * others[a];
    }
    return s;
  }

  // The normalisation sums of velocity v (kNormalisationSums).
  BOLT_HOST_DEVICE void accumulate_normalisation(Sums<kNormalisationSums>& s,
                                                 const RelaxationTarget& t,
                                                 const Velocities<Real>& vel, int v) const {
    const double x = vel.x[v], y = vel.y[v], z = vel.z[v], w = vel.w[v];
    if constexpr (!Conservative) s[0] += w * double(equilibrium(t, vel, v));
    if (t.forced()) {
      const double* u0 = t.shakhov.u0;
      const double cx = x - u0[0], cy = y - u0[1], cz = z - u0[2];
      const double wm = w * t.force_a * exp(-(cx * cx + cy * cy + cz * cz) * t.shakhov.inv_T);
      s[1] += wm;
      s[2] += wm * x;
      s[3] += wm * y;
      s[4] += wm * z;
    }
  }

  // Scales the target to the row's discrete mass (the conservative target has it already) and
  // centres the force term on the discrete mean velocity of its Maxwellian: the step then keeps
  // the mass of every cell on any velocity grid (docs/physics.md).
  BOLT_HOST_DEVICE void normalise(RelaxationTarget& t, const Sums<kNormalisationSums>& s) const {
    if constexpr (!Conservative)
      if (s[0] > 0.0) t.gauss.a *= t.n / s[0];
    if (t.forced() && s[1] > 0.0)
      for (int i = 0; i < 3; ++i) t.force_centre[i] = s[2 + i] / s[1];
  }

  // The target in f's precision (CompactTarget), rounded as equilibrium() rounds it.
  BOLT_HOST_DEVICE CompactTarget<Real> compact(const RelaxationTarget& t) const {
    static_assert(!Conservative, "CompactTarget centres the Shakhov factor on the Gaussian's u");
    CompactTarget<Real> c{};
    c.a = Real(t.gauss.a);
    for (int i = 0; i < 3; ++i) c.u[i] = Real(t.gauss.u[i]);
    if constexpr (Kind == RelaxationKind::esbgk) {
      for (int k = 0; k < 6; ++k) c.L[k] = Real(t.gauss.beta * t.gauss.L[k]);
    } else {
      c.L[0] = Real(t.gauss.beta * t.gauss.L[0]);
    }
    for (int i = 0; i < 3; ++i) c.s[i] = Real(t.shakhov.s[i]);
    c.inv_T = Real(t.shakhov.inv_T);
    return c;
  }

  // The compact target at velocity (x, y, z).
  BOLT_HOST_DEVICE Real equilibrium(const CompactTarget<Real>& t, Real x, Real y, Real z) const {
    const Real cx = x - t.u[0], cy = y - t.u[1], cz = z - t.u[2];
    Real F;
    if constexpr (Kind == RelaxationKind::esbgk) {
      F = t.a * exp(-(t.L[0] * cx * cx + t.L[1] * cy * cy + t.L[2] * cz * cz +
                      Real(2) * (t.L[3] * cx * cy + t.L[4] * cx * cz + t.L[5] * cy * cz)));
    } else {
      F = t.a * exp(-t.L[0] * (cx * cx + cy * cy + cz * cz));
    }
    if constexpr (Kind == RelaxationKind::shakhov) {
      const Real cs = cx * t.s[0] + cy * t.s[1] + cz * t.s[2];
      F *= Real(1) + cs * (Real(2) * (cx * cx + cy * cy + cz * cz) * t.inv_T - Real(5));
    }
    return F;
  }

  // The target of the discrete velocity v.
  BOLT_HOST_DEVICE Real equilibrium(const RelaxationTarget& t, const Velocities<Real>& vel,
                                    int v) const {
    const Real x = vel.x[v], y = vel.y[v], z = vel.z[v];
    // BGK and Shakhov targets are isotropic Gaussians: a scalar quadratic form is cheaper.
    Real F;
    if constexpr (Kind == RelaxationKind::esbgk) {
      F = t.gauss(x, y, z);
    } else {
      const Real cx = x - Real(t.gauss.u[0]), cy = y - Real(t.gauss.u[1]), cz = z - Real(t.gauss.u[2]);
      F = Real(t.gauss.a) * exp(-Real(t.gauss.beta * t.gauss.L[0]) * (cx * cx + cy * cy + cz * cz));
    }
    if constexpr (Kind == RelaxationKind::shakhov) F *= t.shakhov(x, y, z);
    return F;
  }

  BOLT_HOST_DEVICE Real relax(const RelaxationTarget& t, const Velocities<Real>& vel, int v,
                              Real f) const {
    const Real F = equilibrium(t, vel, v);
    Real result = F + (f - F) * Real(t.decay);
    if (t.forced()) {
      const double* u0 = t.shakhov.u0;
      const Real x = vel.x[v], y = vel.y[v], z = vel.z[v];
      const Real cx = x - Real(u0[0]), cy = y - Real(u0[1]), cz = z - Real(u0[2]);
      const Real fm = Real(t.force_a) * exp(-(cx * cx + cy * cy + cz * cz) * Real(t.shakhov.inv_T));
      const double* c = t.force_centre;
      result += (Real(t.force_dt[0]) * (x - Real(c[0])) + Real(t.force_dt[1]) * (y - Real(c[1])) +
                 Real(t.force_dt[2]) * (z - Real(c[2]))) * fm;
    }
    return result;
  }
};

}  // namespace bolt
