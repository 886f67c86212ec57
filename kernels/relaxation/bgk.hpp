#pragma once
// The BGK (Bhatnagar-Gross-Krook-Welander) evaluator: the target is the local Maxwellian,
//   F = f_M(n, u, T),   nu = delta n T^(1-omega)   (Pr = 1),
// built from the mass, momentum and energy sums alone.
#include "common.hpp"

namespace bolt {

struct Bgk {
  static constexpr int kOrder = 1;  // m0, m1 and the energy sum (not the whole m2)
  static constexpr int kSums = 5;
  static constexpr bool kIsotropic = true;
  static constexpr bool kShakhovFactor = false;
  static constexpr bool kConservative = true;
  static constexpr bool kTakesPrandtl = false;
  static constexpr double kLeastPrandtl = 0.0;
  static constexpr const char* kPrandtlReason = "";

  BOLT_HOST_DEVICE static double frequency_scale(double /*prandtl*/) { return 1.0; }

  template <class Acc, class Real>
  BOLT_HOST_DEVICE static void accumulate(Sums<kSums, Acc>& s, const Velocities<Real>& vel, int v,
                                          Real f) {
    accumulate_mass_momentum_energy(s, vel, v, f);
  }

  // A reduced set's g node v and h node v + 1 (one velocity) together.
  template <class Acc, class Real>
  BOLT_HOST_DEVICE static void accumulate_pair(Sums<kSums, Acc>& s, const Velocities<Real>& vel,
                                               int v, Real g, Real h) {
    accumulate_mass_momentum_energy_pair(s, vel, v, g, h);
  }

  BOLT_HOST_DEVICE static void shape(const Macroscopic& m, const RelaxationParams& /*params*/,
                                     RelaxationTarget& t) {
    t.gauss = maxwellian_gaussian(m.n, m.u, m.T);
  }

  template <class Real>
  BOLT_HOST_DEVICE static Real equilibrium(const RelaxationTarget& t, const Velocities<Real>& vel,
                                           int v) {
    return isotropic_gaussian(t, Real(vel.x[v]), Real(vel.y[v]), Real(vel.z[v]));
  }

  template <class Real>
  BOLT_HOST_DEVICE static Real equilibrium(const CompactTarget<Real>& t, Real x, Real y, Real z,
                                           Real /*shakhov_constant*/) {
    const Real cx = x - t.u[0], cy = y - t.u[1], cz = z - t.u[2];
    return t.a * target_exp(-t.L[0] * (cx * cx + cy * cy + cz * cz));
  }
};

}  // namespace bolt
