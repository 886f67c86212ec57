#pragma once
// The relaxation targets of the BGK and ES-BGK models are Gaussians
//   G(xi) = a exp(-beta c^T L c),  c = xi - u,
// with L = I / T for the Maxwellian and L = lambda^-1 / 2 for ES-BGK (beta = 1).
// The conservative option replaces (a, u, beta) by effective values found per cell by Newton's
// method so that the *discrete* moments (sum w G {1, xi, |xi|^2}) equal those of f exactly
// (paper 002 cites this; Frezzotti 1991).
#include <cmath>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "small_solve.hpp"
#include "views.hpp"

namespace bolt {

// exp(x) of a Gaussian target's exponent x <= 0 at a velocity, which the relaxation evaluates for
// every value of a step or sweep. On the GPU in float it is the hardware's approximate base-2
// exponential of x log2(e) (ex2.approx.ftz.f32, within 2 ulp; results below 1.2e-38 flushed to
// 0, where a float run's value is 0 to every use of it): two instructions, where expf's exact
// range reduction takes about ten. Its relative error grows as |x| times the rounding of
// x log2(e), as the rounding of the float exponent itself already makes exp's. Double and the
// CPU, whose loops call the C library's vector exp, keep exp.
BOLT_HOST_DEVICE inline float target_exp(float x) {
#if defined(__CUDA_ARCH__)
  float value;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(value) : "f"(x * 1.44269504088896341f));
  return value;
#else
  return exp(x);
#endif
}
BOLT_HOST_DEVICE inline double target_exp(double x) { return exp(x); }

struct Gaussian {
  double a;     // prefactor
  double u[3];  // centre
  double L[6];  // xx, yy, zz, xy, xz, yz (off-diagonals counted twice in the quadratic form)
  double beta;

  template <class Real>
  BOLT_HOST_DEVICE Real quadratic(Real x, Real y, Real z) const {
    const Real cx = x - Real(u[0]), cy = y - Real(u[1]), cz = z - Real(u[2]);
    return Real(L[0]) * cx * cx + Real(L[1]) * cy * cy + Real(L[2]) * cz * cz +
           Real(2) * (Real(L[3]) * cx * cy + Real(L[4]) * cx * cz + Real(L[5]) * cy * cz);
  }
  template <class Real>
  BOLT_HOST_DEVICE Real operator()(Real x, Real y, Real z) const {
    return Real(a) * target_exp(-Real(beta) * quadratic(x, y, z));
  }
};

// The Shakhov correction 1 + (c . s)(2 |c|^2 / T - 5), c = xi - u0, with u0 and T the analytic
// moments (fixed while the conservative Newton step adjusts the Gaussian). s = 0: identity.
// On a reduced set (Chu) |c_r|^2 is integrated out: 2 |c_r|^2 / T adds shift[0] = n_r on g
// nodes and shift[1] = n_r + 2 on h nodes (docs/physics.md); 0 on a full set.
struct ShakhovFactor {
  double u0[3];
  double s[3];
  double inv_T;
  double shift[2];

  BOLT_HOST_DEVICE bool identity() const { return s[0] == 0.0 && s[1] == 0.0 && s[2] == 0.0; }
  template <class Real>
  BOLT_HOST_DEVICE Real operator()(Real x, Real y, Real z, bool h_node = false) const {
    const Real cx = x - Real(u0[0]), cy = y - Real(u0[1]), cz = z - Real(u0[2]);
    const Real cs = cx * Real(s[0]) + cy * Real(s[1]) + cz * Real(s[2]);
    return Real(1) + cs * (Real(2) * (cx * cx + cy * cy + cz * cz) * Real(inv_T) -
                           Real(5 - shift[h_node ? 1 : 0]));
  }
};

BOLT_HOST_DEVICE inline Gaussian maxwellian_gaussian(double n, const double u[3], double T) {
  const double pi = 3.14159265358979323846;
  Gaussian g{};
  g.a = n / (pi * T * sqrt(pi * T));
  for (int i = 0; i < 3; ++i) g.u[i] = u[i];
  g.L[0] = g.L[1] = g.L[2] = 1.0 / T;
  g.beta = 1.0;
  return g;
}

// Newton iterations on (a, u, beta) so that the discrete moments of the target g * factor match
// m0, m1 and e (e = sum w f |xi|^2). The factor does not depend on (a, u, beta), so the Jacobian
// is exact. `iterations` is fixed, so every backend does the same work.
// On a reduced set (Chu) g is the g nodes' Gaussian (its marginal in a) and an h node's value is
// g's times h_scale / beta (sum_r 1 / (2 beta L_rr)), which adds only to the energy; u_r stays 0.
template <class Team, class Real>
BOLT_HOST_DEVICE inline void make_conservative(const Team& team, const Velocities<Real>& vel,
                                               Gaussian& g, const ShakhovFactor& factor,
                                               double m0, const double m1[3], double e,
                                               int iterations, double h_scale = 0.0) {
  for (int it = 0; it < iterations; ++it) {
    // Sums: 0..4 the moments of g, 5 + 5 a + b the Jacobian d(moment a)/d(parameter b).
    const Sums<30> s = team.template reduce<30>(vel.n, [&](int v, Sums<30>& acc) {
      const bool h = vel.is_h(v);
      const double x = vel.x[v], y = vel.y[v], z = vel.z[v];
      const double w = h ? double(vel.h[v]) : double(vel.w[v]);
      const double cx = x - g.u[0], cy = y - g.u[1], cz = z - g.u[2];
      const double Q = g.L[0] * cx * cx + g.L[1] * cy * cy + g.L[2] * cz * cz +
                       2.0 * (g.L[3] * cx * cy + g.L[4] * cx * cz + g.L[5] * cy * cz);
      const double P = factor.identity() ? 1.0 : factor(x, y, z, h);
      const double G = w * g.a * exp(-g.beta * Q) * P * (h ? h_scale / g.beta : 1.0);
      const double phi[5] = {h ? 0.0 : 1.0, h ? 0.0 : x, h ? 0.0 : y, h ? 0.0 : z,
                             h ? 1.0 : x * x + y * y + z * z};
      // dG/da = G/a, dG/du_i = G beta 2 (L c)_i, dG/dbeta = -G Q
      const double Lc[3] = {g.L[0] * cx + g.L[3] * cy + g.L[4] * cz,
                            g.L[3] * cx + g.L[1] * cy + g.L[5] * cz,
                            g.L[4] * cx + g.L[5] * cy + g.L[2] * cz};
      const double dG[5] = {G / g.a, 2.0 * g.beta * G * Lc[0], 2.0 * g.beta * G * Lc[1],
                            2.0 * g.beta * G * Lc[2], -G * Q - (h ? G / g.beta : 0.0)};
      for (int i = 0; i < 5; ++i) {
        acc[i] += phi[i] * G;
        for (int j = 0; j < 5; ++j) acc[5 + 5 * i + j] += phi[i] * dG[j];
      }
    });
    double J[5][5], r[5];
    const double target[5] = {m0, m1[0], m1[1], m1[2], e};
    for (int i = 0; i < 5; ++i) {
      r[i] = target[i] - s[i];
      for (int j = 0; j < 5; ++j) J[i][j] = s[5 + 5 * i + j];
    }
    for (int a = 0; a < 3; ++a)  // a reduced axis: u_a = 0, its equation 0 = 0
      if ((vel.reduced >> a) & 1u) {
        for (int j = 0; j < 5; ++j) J[1 + a][j] = J[j][1 + a] = 0.0;
        J[1 + a][1 + a] = 1.0;
        r[1 + a] = 0.0;
      }
    if (!solve_dense<5>(J, r)) return;  // degenerate cell: keep the parameters reached so far
    g.a += r[0];
    for (int i = 0; i < 3; ++i) g.u[i] += r[1 + i];
    g.beta += r[4];
  }
}

}  // namespace bolt
