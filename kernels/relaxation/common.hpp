#pragma once
// What the relaxation evaluators (bgk.hpp, shakhov.hpp, esbgk.hpp) and the step that runs them
// (relaxation.hpp) share: the parameters every model reads, the target a cell relaxes to, and its
// compact form in f's precision. Units of docs/physics.md: xi in c0, n in n0, T in T0,
// q = sum w f c |c|^2, Theta = P/n.
//
// An evaluator is a struct of static members, no state:
//   kOrder, kSums       raw-moment order the target needs and the sums per cell that gives
//                       (accumulate adds a velocity's share of them, accumulate_pair a reduced
//                       set's g and h nodes' of one velocity);
//   kIsotropic          the target is an isotropic Gaussian (times a factor): a scalar quadratic
//                       form, and normalisation sums that factorise over the axes of a
//                       tensor-product velocity set (Relaxation::factorised_sums);
//   kShakhovFactor      the target carries the Shakhov factor (its sums need M_2, M_3 per axis);
//   kConservative       the conservative Newton step (make_conservative) may adjust its Gaussian;
//   kTakesPrandtl       -model_prandtl sets its Prandtl number (else it is 1);
//   kLeastPrandtl       the smallest Prandtl number it allows, and kPrandtlReason why;
//   frequency_scale(Pr) nu / (delta n T^(1-omega));
//   shape(m, params, t) the target's Gaussian and Shakhov factor from the cell's moments;
//   equilibrium(...)    the target's value at a discrete velocity (full or compact target).
#include <cmath>

#include "core/host_device.hpp"
#include "core/sums.hpp"
#include "kernels/gaussian.hpp"
#include "kernels/macroscopic.hpp"
#include "kernels/views.hpp"

namespace bolt {

// What the evaluators read: the gas, the relaxation interval and the model's own options
// (assembled by RelaxationOperator, lib/models/relaxation_operator.hpp, and the sweep engine).
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
  // Chu reduction (Relaxation::reduce): an h node's target and force term are the g node's
  // times these (sum_r lambda_rr of the Gaussian; n_r T / 2 of the Maxwellian).
  double h_factor;
  double force_h;

  BOLT_HOST_DEVICE bool forced() const {
    return force_dt[0] != 0.0 || force_dt[1] != 0.0 || force_dt[2] != 0.0;
  }
};

// A target in the precision of f, as its equilibrium reads it at a velocity: what a kernel that
// evaluates one cell's target at velocity after velocity loads (the iterative sweep), instead of
// the doubles of RelaxationTarget. Isotropic targets use L[0] only.
template <class Real>
struct CompactTarget {
  Real a;        // prefactor
  Real u[3];     // centre
  Real s[3];     // the Shakhov factor's s
  Real inv_T;    // and its 1 / T (its centre is u: unconservative targets only)
  Real L[6];     // the quadratic form with beta folded in (Gaussian::L)
  Real h;        // Chu reduction: an h node's target over its g node's (RelaxationTarget::h_factor)
};

// A node of the velocity set as the compact target reads it. On a reduced set (Chu,
// Relaxation::reduce) an h node's target is its g node's times CompactTarget::h, and the Shakhov
// factor's 2 c^2 / T - 5 integrates to 2 c_k^2 / T - kappa over the kept components c_k, kappa =
// 5 - ShakhovFactor::shift (5 - n_r at g nodes, 3 - n_r at h nodes); a full set's node is {}.
template <class Real>
struct CompactNode {
  bool h = false;
  Real shakhov_constant = Real(5);
};

template <class Real>
BOLT_HOST_DEVICE CompactNode<Real> compact_node(const Velocities<Real>& vel, int v) {
  if (!vel.h) return {};
  const bool h = vel.is_h(v);
  return {h, Real(5 - vel.reduced_count() - (h ? 2 : 0))};
}

// The target in f's precision, rounded as the evaluators' full-target equilibrium rounds it.
template <class Real, bool Isotropic>
BOLT_HOST_DEVICE CompactTarget<Real> compact_target(const RelaxationTarget& t) {
  CompactTarget<Real> c{};
  c.a = Real(t.gauss.a);
  for (int i = 0; i < 3; ++i) c.u[i] = Real(t.gauss.u[i]);
  if constexpr (Isotropic) {
    c.L[0] = Real(t.gauss.beta * t.gauss.L[0]);
  } else {
    for (int k = 0; k < 6; ++k) c.L[k] = Real(t.gauss.beta * t.gauss.L[k]);
  }
  for (int i = 0; i < 3; ++i) c.s[i] = Real(t.shakhov.s[i]);
  c.inv_T = Real(t.shakhov.inv_T);
  c.h = Real(t.h_factor);
  return c;
}

// An isotropic Gaussian target at velocity (x, y, z): a scalar quadratic form is cheaper than
// Gaussian's general one.
template <class Real>
BOLT_HOST_DEVICE Real isotropic_gaussian(const RelaxationTarget& t, Real x, Real y, Real z) {
  const Real cx = x - Real(t.gauss.u[0]), cy = y - Real(t.gauss.u[1]), cz = z - Real(t.gauss.u[2]);
  return Real(t.gauss.a) *
         target_exp(-Real(t.gauss.beta * t.gauss.L[0]) * (cx * cx + cy * cy + cz * cz));
}

// The sums of the mass, momentum and energy moments (5 per cell), which BGK's target needs, of
// weight times value wf at node (x, y, z), in sums of type Acc (accumulate_raw says which).
template <class Acc>
BOLT_HOST_DEVICE void add_mass_momentum_energy(Sums<5, Acc>& s, Acc wf, Acc x, Acc y, Acc z) {
  s[0] += wf;
  s[1] += wf * x;
  s[2] += wf * y;
  s[3] += wf * z;
  s[4] += wf * (x * x + y * y + z * z);
}

template <class Acc, class Real>
BOLT_HOST_DEVICE void accumulate_mass_momentum_energy(Sums<5, Acc>& s, const Velocities<Real>& vel,
                                                      int v, Real f) {
  add_mass_momentum_energy(s, Acc(vel.w[v]) * Acc(f), Acc(vel.x[v]), Acc(vel.y[v]),
                           Acc(vel.z[v]));
  if (vel.h) s[4] += Acc(vel.h[v]) * Acc(f);  // an h node's |xi_r|^2 moment
}

// The same for a reduced set's g node v (value g) and its h node v + 1 (value h), one velocity
// (accumulate_raw_pair).
template <class Acc, class Real>
BOLT_HOST_DEVICE void accumulate_mass_momentum_energy_pair(Sums<5, Acc>& s,
                                                           const Velocities<Real>& vel, int v,
                                                           Real g, Real h) {
  add_mass_momentum_energy(s, Acc(vel.w[v]) * Acc(g), Acc(vel.x[v]), Acc(vel.y[v]),
                           Acc(vel.z[v]));
  s[4] += Acc(vel.h[v + 1]) * Acc(h);
}

}  // namespace bolt
