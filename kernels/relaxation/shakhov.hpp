#pragma once
// The Shakhov (S-model) evaluator: the Maxwellian times a heat-flux correction,
//   F = f_M [1 + (1-Pr) 2 (c.q) / (5 n T^2) (2 c^2/T - 5)],   nu = delta n T^(1-omega),
// which gives the Prandtl number Pr; it needs the raw moments up to the third order (q).
#include "common.hpp"

namespace bolt {

struct Shakhov {
  static constexpr int kOrder = 3;
  static constexpr int kSums = kRawMoments;
  static constexpr bool kIsotropic = true;
  static constexpr bool kShakhovFactor = true;
  static constexpr bool kConservative = true;  // the factor is frozen at the analytic moments
  static constexpr bool kTakesPrandtl = true;
  static constexpr double kLeastPrandtl = 0.0;
  static constexpr const char* kPrandtlReason = "";

  BOLT_HOST_DEVICE static double frequency_scale(double /*prandtl*/) { return 1.0; }

  template <class Acc, class Real>
  BOLT_HOST_DEVICE static void accumulate(Sums<kSums, Acc>& s, const Velocities<Real>& vel, int v,
                                          Real f) {
    accumulate_raw<kOrder>(s, vel, v, f);
  }

  // A reduced set's g node v and h node v + 1 (one velocity) together.
  template <class Acc, class Real>
  BOLT_HOST_DEVICE static void accumulate_pair(Sums<kSums, Acc>& s, const Velocities<Real>& vel,
                                               int v, Real g, Real h) {
    accumulate_raw_pair<kOrder>(s, vel, v, g, h);
  }

  BOLT_HOST_DEVICE static void shape(const Macroscopic& m, const RelaxationParams& params,
                                     RelaxationTarget& t) {
    t.gauss = maxwellian_gaussian(m.n, m.u, m.T);
    const double c = (1.0 - params.prandtl) * 2.0 / (5.0 * m.n * m.T * m.T);
    for (int i = 0; i < 3; ++i) t.shakhov.s[i] = c * m.q[i];
  }

  template <class Real>
  BOLT_HOST_DEVICE static Real equilibrium(const RelaxationTarget& t, const Velocities<Real>& vel,
                                           int v) {
    const Real x = vel.x[v], y = vel.y[v], z = vel.z[v];
    Real F = isotropic_gaussian(t, x, y, z);
    F *= t.shakhov(x, y, z, vel.is_h(v));
    return F;
  }

  template <class Real>
  BOLT_HOST_DEVICE static Real equilibrium(const CompactTarget<Real>& t, Real x, Real y, Real z,
                                           Real shakhov_constant) {
    const Real cx = x - t.u[0], cy = y - t.u[1], cz = z - t.u[2];
    Real F = t.a * target_exp(-t.L[0] * (cx * cx + cy * cy + cz * cz));
    const Real cs = cx * t.s[0] + cy * t.s[1] + cz * t.s[2];
    F *= Real(1) + cs * (Real(2) * (cx * cx + cy * cy + cz * cz) * t.inv_T - shakhov_constant);
    return F;
  }
};

}  // namespace bolt
