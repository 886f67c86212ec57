#pragma once
// The collision step of the model equations, solved exactly over a step (paper 002 Eq. 14) with
// the target frozen at the post-streaming moments:
//   f_new = F + (f - F) exp(-nu dt) + dt * body-force term,
// for any relaxation evaluator (common.hpp says what one provides; bgk.hpp, shakhov.hpp,
// esbgk.hpp are the three). What the models share lives here: the moments of the sums, the
// frequency, the conservative Newton step, the normalisation and the force term.
// The body force (uniform acceleration g) adds dt * 2 (g . c) / T f_M: it changes momentum by
// n g dt and energy by 2 n (u . g) dt exactly in the continuum.
// On the discrete velocities F is scaled to the row's mass and c is taken from the discrete mean
// velocity of f_M (normalise), so that every step keeps the mass of every cell on any velocity
// grid; -model_conservative matches momentum and energy as well (make_conservative).
#include <cmath>

#include "common.hpp"
#include "core/host_device.hpp"
#include "core/sums.hpp"

namespace bolt {

// The sums over the discrete velocities that make the target keep the mass of its row
// (Relaxation::normalise): sum w F, and, with a body force, sum w f_M and sum w xi f_M.
constexpr int kNormalisationSums = 5;

// What a caller of Relaxation::relax knows of the force term (-model_force): absent (a loop that
// tested !t.forced() once, not per velocity), present (a loop that tested t.forced() once: the
// CPU's, where a test of the target left in the loop keeps it from vectorizing), or nothing, so
// that each call tests it.
enum class ForceTerm { absent, present, tested };

// Evaluator: the model (common.hpp). Conservative: compile the Newton step of the conservative
// equilibrium in (a separate kernel: its 5 x 5 solve and 30-wide reduction would otherwise cost
// every run registers and occupancy).
template <class Real, class Evaluator, bool Conservative>
struct Relaxation {
  static_assert(!Conservative || Evaluator::kConservative,
                "the evaluator's target does not take the conservative Newton step");
  static constexpr int kOrder = Evaluator::kOrder;
  static constexpr int kSums = Evaluator::kSums;
  // Widest team reduction: the conservative Newton step reduces 30 sums.
  static constexpr int kReduceWidth =
      Conservative ? 30 : (kSums > kNormalisationSums ? kSums : kNormalisationSums);
  // The step is latency-bound, so occupancy decides it: each GPU kernel is compiled for teams
  // of up to kTeamThreads threads, a register bound, where that was measured faster than the
  // spills it forces cost (docs/benchmarks.md, "Register bounds of the fused step"). The targets
  // built from more than BGK's five sums (Shakhov, ES-BGK) take the most registers. A reduced
  // set's one-warp teams are held by the block limit, not the registers: there the float
  // kernels keep the bound of 1024 (kReducedSetTeamThreads).
  static constexpr bool kWideTarget = kSums > 5;
  static constexpr int kTeamThreads =
      sizeof(Real) == 4 ? (Conservative ? 512 : (kWideTarget ? 768 : 1024))
                        : (!Conservative && kWideTarget ? 512 : 0);
  static constexpr int kReducedSetTeamThreads =
      sizeof(Real) == 4 && !Conservative ? 1024 : kTeamThreads;

  RelaxationParams params;

  // VelReal: Real, or double where the CPU's float sums take the tables in double (FusedStep).
  template <class Acc, class VelReal>
  BOLT_HOST_DEVICE void accumulate(Sums<kSums, Acc>& s, const Velocities<VelReal>& vel, int v,
                                   VelReal f) const {
    Evaluator::accumulate(s, vel, v, f);
  }
  // A paired reduced set's g node v and h node v + 1 (kernels/fused_step.hpp, paired).
  template <class Acc>
  BOLT_HOST_DEVICE void accumulate_pair(Sums<kSums, Acc>& s, const Velocities<Real>& vel, int v,
                                        Real g, Real h) const {
    Evaluator::accumulate_pair(s, vel, v, g, h);
  }

  // The collision frequency of a cell of density n and temperature T.
  BOLT_HOST_DEVICE double frequency(double n, double T) const {
    return Evaluator::frequency_scale(params.prandtl) * params.delta * n * pow(T, 1.0 - params.omega);
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
    Evaluator::shape(m, params, t);
    if (vel.h) reduce(t, vel.reduced);
    if constexpr (Conservative) {
      const double h_scale = t.h_factor * t.gauss.beta;
      make_conservative(team, vel, t.gauss, t.shakhov, s[0], m1, e, params.conservative_iterations,
                        h_scale);
      if (vel.h) t.h_factor = h_scale / t.gauss.beta;
    }
    const Gaussian fm = maxwellian_gaussian(m.n, m.u, m.T);
    t.n = s[0];
    t.force_a = fm.a;
    for (int i = 0; i < 3; ++i) {
      t.force_dt[i] = 2.0 * params.force[i] * params.dt / m.T;
      t.force_centre[i] = m.u[i];
    }
    // The force term's Maxwellian reduced (its marginal, and n_r T / 2 at h nodes): read only when
    // forced, and its power is a long double-precision call on every thread of a team.
    if (vel.h && t.forced()) {
      const int count = vel.reduced_count();
      t.force_a *= pow(3.14159265358979323846 * m.T, 0.5 * count);
      t.force_h = 0.5 * count * m.T;
    }
    return t;
  }

  // The Chu reduction of the target over the reduced axes r (the cell's moments have u_r = 0 and
  // no correlation between kept and reduced components, so the Gaussian's L is block diagonal):
  // the g node takes int G dxi_r = G(xi_r = 0) prod_r sqrt(pi / (beta L_rr)), the h node that
  // times sum_r 1 / (2 beta L_rr) (= sum_r lambda_rr; n_r T / 2 for a Maxwellian); the Shakhov
  // factor its shifts (gaussian.hpp).
  BOLT_HOST_DEVICE static void reduce(RelaxationTarget& t, unsigned reduced) {
    const double pi = 3.14159265358979323846;
    double marginal = 1.0, h = 0.0;
    int count = 0;
    for (int a = 0; a < 3; ++a)
      if ((reduced >> a) & 1u) {
        const double L = t.gauss.beta * t.gauss.L[a];
        marginal *= sqrt(pi / L);
        h += 0.5 / L;
        ++count;
      }
    t.gauss.a *= marginal;
    t.h_factor = h;
    t.shakhov.shift[0] = count;
    t.shakhov.shift[1] = count + 2;
  }

  // Whether `normalise` changes the target (uniform over a cell's team).
  BOLT_HOST_DEVICE bool normalised(const RelaxationTarget& t) const {
    return !Conservative || t.forced();
  }

  // Whether the normalisation sums come from sums along the axes (factorised_sums) rather than a
  // sweep over the row: on tensor-product grids, for the isotropic targets that share the force
  // term's Maxwellian.
  BOLT_HOST_DEVICE bool factorised() const {
    return params.tensor && Evaluator::kIsotropic && !Conservative;
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

  // With e = w exp(-(x - u)^2 / T) along axis a, M_k(a) = sum e (x - u)^k (k up to 1, up to 3
  // with the Shakhov factor), each group of the team forms the 1-D sums itself (tens of terms,
  // not the row), and
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
    // M_0 and M_1, up to M_3 with the Shakhov factor; summed in the run's precision (a few dozen
    // terms: its rounding is the run's), which keeps the registers of the float kernel down.
    constexpr int K = Evaluator::kShakhovFactor ? 4 : 2;
    const auto m = team.template group_sums<3 * K, Real>(
        n01 + params.axis_count[2], [&](int i, Sums<3 * K, Real>& acc) {
          const int a = i < n0 ? 0 : (i < n01 ? 1 : 2);
          const int j = i - (a == 0 ? 0 : (a == 1 ? n0 : n01));
          // Selected, not indexed by a: an index into the parameters or the target would place
          // them in local memory on the GPU.
          const double* node = a == 0   ? params.axis_node[0]
                               : a == 1 ? params.axis_node[1]
                                        : params.axis_node[2];
          const double* width = a == 0   ? params.axis_width[0]
                                : a == 1 ? params.axis_width[1]
                                         : params.axis_width[2];
          const double centre = a == 0 ? u[0] : (a == 1 ? u[1] : u[2]);
          const Real c = Real(node[j] - centre);
          const Real e = Real(width[j]) * target_exp(-c * c * Real(inv_T));
          // Every axis's sums take a term, 0 but on axis a: indexed by a, the sums would live
          // in local memory on the GPU.
          for (int b = 0; b < 3; ++b) {
            const Real eb = a == b ? e : Real(0);
            acc[K * b] += eb;
            acc[K * b + 1] += eb * c;
            if constexpr (K == 4) {
              acc[K * b + 2] += eb * c * c;
              acc[K * b + 3] += eb * c * c * c;
            }
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
        shakhov += t.shakhov.s[a] *
                   (2.0 * inv_T * c2 - (5.0 - t.shakhov.shift[0]) * m[K * a + 1] * others[a]);
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
    return compact_target<Real, Evaluator::kIsotropic>(t);
  }

  // The compact target at velocity (x, y, z), of a reduced set's g or h node (compact_node).
  BOLT_HOST_DEVICE Real equilibrium(const CompactTarget<Real>& t, Real x, Real y, Real z,
                                    const CompactNode<Real>& node = {}) const {
    const Real F = Evaluator::equilibrium(t, x, y, z, node.shakhov_constant);
    return node.h ? F * t.h : F;
  }

  // The target of the discrete velocity v.
  BOLT_HOST_DEVICE Real equilibrium(const RelaxationTarget& t, const Velocities<Real>& vel,
                                    int v) const {
    // The factor converted outside the test: a conversion that may trap is not executed where
    // the source does not, so under the test it keeps the CPU's float loops from vectorizing.
    const Real F = Evaluator::equilibrium(t, vel, v), h_factor = Real(t.h_factor);
    return vel.is_h(v) ? F * h_factor : F;
  }

  // relax of a reduced set's g node v and h node v + 1 (one velocity; kernels/fused_step.hpp,
  // paired), in place: their equilibria are one Gaussian, evaluated once, and that times
  // t.h_factor, unless the Shakhov factor or the force term tells the nodes apart.
  template <ForceTerm Force>
  BOLT_HOST_DEVICE void relax_pair(const RelaxationTarget& t, const Velocities<Real>& vel, int v,
                                   Real& g, Real& h) const {
    if (Evaluator::kShakhovFactor ||
        (Force != ForceTerm::absent && (Force == ForceTerm::present || t.forced()))) {
      g = relax<Force>(t, vel, v, g);
      h = relax<Force>(t, vel, v + 1, h);
      return;
    }
    const Real F = Evaluator::equilibrium(t, vel, v), Fh = F * Real(t.h_factor);
    g = F + (g - F) * Real(t.decay);
    h = Fh + (h - Fh) * Real(t.decay);
  }

  // f of the discrete velocity v after the step; Force: what the caller knows of the force term.
  template <ForceTerm Force>
  BOLT_HOST_DEVICE Real relax(const RelaxationTarget& t, const Velocities<Real>& vel, int v,
                              Real f) const {
    const Real F = equilibrium(t, vel, v);
    Real result = F + (f - F) * Real(t.decay);
    if (Force != ForceTerm::absent && (Force == ForceTerm::present || t.forced())) {
      const double* u0 = t.shakhov.u0;
      const Real x = vel.x[v], y = vel.y[v], z = vel.z[v];
      const Real cx = x - Real(u0[0]), cy = y - Real(u0[1]), cz = z - Real(u0[2]);
      const Real g = Real(t.force_a) * exp(-(cx * cx + cy * cy + cz * cz) * Real(t.shakhov.inv_T));
      const Real force_h = Real(t.force_h);  // converted outside the test, as in equilibrium
      const Real fm = vel.is_h(v) ? g * force_h : g;
      const double* c = t.force_centre;
      result += (Real(t.force_dt[0]) * (x - Real(c[0])) + Real(t.force_dt[1]) * (y - Real(c[1])) +
                 Real(t.force_dt[2]) * (z - Real(c[2]))) * fm;
    }
    return result;
  }
};

}  // namespace bolt
