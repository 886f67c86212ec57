#pragma once
// Raw velocity moments of one cell and the macroscopic state derived from them.
// Raw sums (weights w, values f): m0 = sum w f, m1_i = sum w f xi_i, m2_ij = sum w f xi_i xi_j,
// m3_i = sum w f xi_i |xi|^2 (on a reduced set with the h nodes' shares, accumulate_reduced).
// In bolt's units n = m0, u = m1/n, T = (2/3)(tr m2/n - |u|^2),
// p = n T (in p0), P_ij = 2 (m2_ij - n u_i u_j) (in p0), q_i = sum w f c_i |c|^2 (in p0 c0).
#include <cmath>
#include <type_traits>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "views.hpp"

namespace bolt {

// Indices into the 14 raw moments.
enum RawMoment { kM0 = 0, kM1 = 1, kM2 = 4, kM3 = 10, kRawMoments = 13 };
// m2 packing: xx, yy, zz, xy, xz, yz
BOLT_HOST_DEVICE constexpr int m2_index(int i, int j) {
  return i == j ? i : (i + j == 1 ? 3 : (i + j == 2 ? 4 : 5));
}

// An h node's share of the raw moments (a g node adds nothing): its value h = int |xi_r|^2 f over
// the reduced axes r is their xi_r^2 moment, split equally between them (the flows reduced over
// two axes are symmetric about the kept one), and adds h xi_i to m3_i.
// wh: the h node's weight times its value; xi: the node (its kept components). Acc: the type
// of the sums (accumulate_raw).
template <int Order, int K, class Acc>
BOLT_HOST_DEVICE inline void add_reduced_moments(Sums<K, Acc>& s, unsigned reduced,
                                                 int reduced_count, std::type_identity_t<Acc> wh,
                                                 std::type_identity_t<Acc> x,
                                                 std::type_identity_t<Acc> y,
                                                 std::type_identity_t<Acc> z) {
  const Acc share = wh / Acc(reduced_count);
  for (int a = 0; a < 3; ++a)
    if ((reduced >> a) & 1u) s[kM2 + a] += share;
  if constexpr (Order >= 3) {
    s[kM3 + 0] += wh * x;
    s[kM3 + 1] += wh * y;
    s[kM3 + 2] += wh * z;
  }
}

template <int Order, int K, class Acc, class Real>
BOLT_HOST_DEVICE inline void accumulate_reduced(Sums<K, Acc>& s, const Velocities<Real>& vel, int v,
                                                Real f) {
  add_reduced_moments<Order>(s, vel.reduced, vel.reduced_count(), Acc(vel.h[v]) * Acc(f),
                             Acc(vel.x[v]), Acc(vel.y[v]), Acc(vel.z[v]));
}

// Adds the raw moments up to order `Order` (1: m0, m1; 2: + m2; 3: + m3) of weight times value
// wf at node (x, y, z), into sums of type Acc: double (a float product w f is exact in it), or the
// run's precision where a GPU thread's partial sums are promoted to double in the team reduction.
template <int Order, int K, class Acc>
BOLT_HOST_DEVICE inline void add_raw_moments(Sums<K, Acc>& s, std::type_identity_t<Acc> wf,
                                             std::type_identity_t<Acc> x,
                                             std::type_identity_t<Acc> y,
                                             std::type_identity_t<Acc> z) {
  s[kM0] += wf;
  s[kM1 + 0] += wf * x;
  s[kM1 + 1] += wf * y;
  s[kM1 + 2] += wf * z;
  if constexpr (Order >= 2) {
    s[kM2 + 0] += wf * x * x;
    s[kM2 + 1] += wf * y * y;
    s[kM2 + 2] += wf * z * z;
    s[kM2 + 3] += wf * x * y;
    s[kM2 + 4] += wf * x * z;
    s[kM2 + 5] += wf * y * z;
  }
  if constexpr (Order >= 3) {
    const Acc xi2 = x * x + y * y + z * z;
    s[kM3 + 0] += wf * x * xi2;
    s[kM3 + 1] += wf * y * xi2;
    s[kM3 + 2] += wf * z * xi2;
  }
}

// Accumulates the raw moments up to order `Order` of value f at v (add_raw_moments).
template <int Order, int K, class Acc, class Real>
BOLT_HOST_DEVICE inline void accumulate_raw(Sums<K, Acc>& s, const Velocities<Real>& vel, int v,
                                            Real f) {
  add_raw_moments<Order>(s, Acc(vel.w[v]) * Acc(f), Acc(vel.x[v]), Acc(vel.y[v]), Acc(vel.z[v]));
  if constexpr (Order >= 2)
    if (vel.h) accumulate_reduced<Order>(s, vel, v, f);
}

// The same for a reduced set's g node v (value g) and its h node v + 1 (value h), one velocity:
// its tables read once, the h node adding only its reduced moments (the h node's w and the g
// node's h weight are 0).
template <int Order, int K, class Acc, class Real>
BOLT_HOST_DEVICE inline void accumulate_raw_pair(Sums<K, Acc>& s, const Velocities<Real>& vel,
                                                 int v, Real g, Real h) {
  static_assert(Order >= 2, "a reduced set's h node adds to the second moments");
  const Acc x = vel.x[v], y = vel.y[v], z = vel.z[v];
  add_raw_moments<Order>(s, Acc(vel.w[v]) * Acc(g), x, y, z);
  add_reduced_moments<Order>(s, vel.reduced, vel.reduced_count(), Acc(vel.h[v + 1]) * Acc(h), x,
                             y, z);
}

struct Macroscopic {
  double n, u[3], T;
  double P[6];  // m2 - n u u (central second moment, packed like m2); pressure tensor = 2 P
  double q[3];  // sum w f c |c|^2
};

// Whether m is the state of a gas: a positive, finite density and temperature, a finite velocity
// (an accelerator's iterate can lead a cell of the iterative solver out of one). Host code.
inline bool is_gas(const Macroscopic& m) {
  return m.n > 0.0 && m.T > 0.0 && std::isfinite(m.n) && std::isfinite(m.T) &&
         std::isfinite(m.u[0]) && std::isfinite(m.u[1]) && std::isfinite(m.u[2]);
}

// Density, velocity, temperature from m0, m1 and the energy sum e = sum w f |xi|^2.
BOLT_HOST_DEVICE inline void density_velocity_temperature(double m0, const double m1[3], double e,
                                                          Macroscopic& m) {
  m.n = m0;
  for (int i = 0; i < 3; ++i) m.u[i] = m1[i] / m0;
  const double u2 = m.u[0] * m.u[0] + m.u[1] * m.u[1] + m.u[2] * m.u[2];
  m.T = (2.0 / 3.0) * (e / m0 - u2);
}

// Full macroscopic state from raw sums of order `Order` (2: no heat flux; 3: all).
template <int Order, int K>
BOLT_HOST_DEVICE inline Macroscopic macroscopic_from_raw(const Sums<K>& s) {
  Macroscopic m{};
  const double m1[3] = {s[kM1], s[kM1 + 1], s[kM1 + 2]};
  double e = s[kM2] + s[kM2 + 1] + s[kM2 + 2];
  density_velocity_temperature(s[kM0], m1, e, m);
  if constexpr (Order >= 2) {
    const int pairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 6; ++k)
      m.P[k] = s[kM2 + k] - m.n * m.u[pairs[k][0]] * m.u[pairs[k][1]];
  }
  if constexpr (Order >= 3) {
    // sum w f c_i c^2 expanded in raw moments, c = xi - u.
    const double* u = m.u;
    const double u2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    for (int i = 0; i < 3; ++i) {
      double m2u = 0.0;  // sum_j m2_ij u_j
      for (int j = 0; j < 3; ++j) m2u += s[kM2 + m2_index(i, j)] * u[j];
      double um1 = 0.0;  // u . m1
      for (int j = 0; j < 3; ++j) um1 += u[j] * s[kM1 + j];
      m.q[i] = s[kM3 + i] - 2.0 * m2u + u2 * s[kM1 + i] - u[i] * e + 2.0 * u[i] * um1 -
               u[i] * u2 * s[kM0];
    }
  }
  return m;
}

}  // namespace bolt
