#pragma once
// The ellipsoidal-statistical BGK (Holway) evaluator: the target is a Gaussian of tensor
//   lambda = (1/Pr)(T/2) I + (1 - 1/Pr) Theta,   nu = Pr delta n T^(1-omega),
// which gives the Prandtl number Pr; it needs the raw moments up to the second order (Theta).
#include "common.hpp"

namespace bolt {

struct EsBgk {
  static constexpr int kOrder = 2;
  static constexpr int kSums = 10;
  static constexpr bool kIsotropic = false;
  static constexpr bool kShakhovFactor = false;
  static constexpr bool kConservative = true;
  static constexpr bool kTakesPrandtl = true;
  static constexpr double kLeastPrandtl = 2.0 / 3.0;
  static constexpr const char* kPrandtlReason =
      "ES-BGK needs Pr >= 2/3 for a positive-definite Gaussian";

  BOLT_HOST_DEVICE static double frequency_scale(double prandtl) { return prandtl; }

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
  }

  template <class Real>
  BOLT_HOST_DEVICE static Real equilibrium(const RelaxationTarget& t, const Velocities<Real>& vel,
                                           int v) {
    const Real x = vel.x[v], y = vel.y[v], z = vel.z[v];
    return t.gauss(x, y, z);
  }

  template <class Real>
  BOLT_HOST_DEVICE static Real equilibrium(const CompactTarget<Real>& t, Real x, Real y, Real z,
                                           Real /*shakhov_constant*/) {
    const Real cx = x - t.u[0], cy = y - t.u[1], cz = z - t.u[2];
    return t.a * target_exp(-(t.L[0] * cx * cx + t.L[1] * cy * cy + t.L[2] * cz * cz +
                              Real(2) * (t.L[3] * cx * cy + t.L[4] * cx * cz + t.L[5] * cy * cz)));
  }
};

}  // namespace bolt
