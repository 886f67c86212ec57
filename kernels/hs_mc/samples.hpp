#pragma once
// Collision samples of the semi-regular Monte Carlo method (paper 000, algorithm 2 and Eq. 23).
// Every step draws N_t collisions shared by all spatial cells: v, v1 from the global equilibrium
// Phi0 (Box-Muller; or from a wider Maxwellian with importance weights, McDraw), k uniform on the
// unit sphere, the post-collision velocities v*, v1*, the four velocity cells they fall in and the
// four increments
//   coef_j = kappa dt W I / (N_t w_j Phi0_j),   W = |k . xi_r| |xi_r|^(1 - 2 omega)
// (kappa = pi d^2 n0 L, lib/physics/collision_kernel.hpp; I the importance weight, 1 for Phi0;
// w_j Phi0_j the equilibrium number of particles in cell j). The collision kernel
// (collision.hpp) then adds g coef_j to h at the gain cells and subtracts it at the loss cells,
// g = h + h1 + eps h h1.
//
// Random numbers: Philox4x32-10 (Random123) keyed by (seed, step), counter (sample, word, 0, 0):
// the random integers of a sample depend on nothing else, so the CPU and the GPU draw the same
// samples and a run is reproducible. The velocities are computed in double on both backends
// (log, sqrt, sin, cos of the two math libraries may differ in the last bit; the cells then agree
// unless a velocity lies within an ulp of a cell face).
//
// A sample with any of its four velocities outside the velocity box is rejected whole (no
// contribution, counted): the integral is then that over the box, and each accepted sample still
// conserves mass exactly (its four increments carry the same number of particles).
#include <Random123/philox.h>
#include <Random123/uniform.hpp>

#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "core/sums.hpp"

namespace bolt {

// One drawn collision: v, v1 and k on the sphere. v and v1 come from the Maxwellian q of
// temperature tau (density exp(-xi^2 / tau) / (pi tau)^(3/2), bolt units); tau = 1 is Phi0, the
// paper's choice. `importance` = Phi0(v) Phi0(v1) / (q(v) q(v1)) turns the sample into one of
// Eq. 22's integral over Phi0 Phi0 (exactly 1 at tau = 1, at most tau^3 for tau >= 1). A tau above
// 1 draws the tails of the velocity box more often, with smaller increments there; below 1 the
// weights would grow in the tails (without bound for tau <= 1/2), so tau >= 1.
struct McDraw {
  double v[3], v1[3], k[3];
  double importance;
};

BOLT_HOST_DEVICE inline McDraw draw_collision(std::uint32_t seed, std::uint32_t step,
                                              std::uint32_t sample, double temperature) {
  r123::Philox4x32 rng;
  const r123::Philox4x32::key_type key = {{seed, step}};
  double u[8];  // uniforms in (0, 1], 53 bits each from two 32-bit words
  for (std::uint32_t call = 0; call < 4; ++call) {
    const r123::Philox4x32::ctr_type counter = {{sample, call, 0u, 0u}};
    const r123::Philox4x32::ctr_type r = rng(counter, key);
    u[2 * call] = r123::u01<double>((std::uint64_t(r[0]) << 32) | r[1]);
    u[2 * call + 1] = r123::u01<double>((std::uint64_t(r[2]) << 32) | r[3]);
  }
  const double two_pi = 6.283185307179586476925;
  double normal[6];  // variance tau/2 each: q ~ exp(-xi^2 / tau)
  for (int p = 0; p < 3; ++p) {
    const double radius = sqrt(-temperature * log(u[2 * p]));
    const double angle = two_pi * u[2 * p + 1];
    normal[2 * p] = radius * cos(angle);
    normal[2 * p + 1] = radius * sin(angle);
  }
  McDraw d;
  for (int a = 0; a < 3; ++a) {
    d.v[a] = normal[a];
    d.v1[a] = normal[3 + a];
  }
  const double kz = 1.0 - 2.0 * u[6];
  const double s = sqrt(fmax(0.0, 1.0 - kz * kz)), phi = two_pi * u[7];
  d.k[0] = s * cos(phi);
  d.k[1] = s * sin(phi);
  d.k[2] = kz;
  double speed2 = 0.0;
  for (int a = 0; a < 6; ++a) speed2 += normal[a] * normal[a];
  d.importance = temperature * temperature * temperature * exp(-speed2 * (1.0 - 1.0 / temperature));
  return d;
}

// Post-collision velocities (paper 000 algorithm 2, lines 4-6; its Eq. 3 has the sign of xi_r
// the other way round): xi_r = v1 - v, v* = v + (xi_r . k) k, v1* = v1 - (xi_r . k) k. Returns the
// collision weight W = |xi_r . k| |xi_r|^(1 - 2 omega) (hard spheres: |xi_r . k|).
BOLT_HOST_DEVICE inline double post_collision(const McDraw& d, double omega, double vs[3],
                                              double v1s[3]) {
  double vr[3], dot = 0.0, vr2 = 0.0;
  for (int a = 0; a < 3; ++a) {
    vr[a] = d.v1[a] - d.v[a];
    dot += vr[a] * d.k[a];
    vr2 += vr[a] * vr[a];
  }
  for (int a = 0; a < 3; ++a) {
    vs[a] = d.v[a] + dot * d.k[a];
    v1s[a] = d.v1[a] - dot * d.k[a];
  }
  if (omega == 0.5) return fabs(dot);
  return vr2 > 0.0 ? fabs(dot) * pow(vr2, 0.5 - omega) : 0.0;
}

// Velocity -> index of the discrete velocity whose cell holds it, on a Cartesian (possibly
// stretched) grid: binary search of the cell faces per axis, then the grid's node order.
struct VelocityLocator {
  const double* faces[3];  // n[a] + 1 increasing faces per axis
  int n[3];
  const int* node_of;  // [i + n0 (j + n1 k)] -> discrete velocity index

  // Cell i with faces[i] <= x < faces[i + 1] (the last cell also takes x == faces[n]); -1 outside.
  BOLT_HOST_DEVICE static int find(const double* f, int cells, double x) {
    if (!(x >= f[0] && x <= f[cells])) return -1;  // also rejects NaN
    int lo = 0, hi = cells;
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (x >= f[mid])
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }

  BOLT_HOST_DEVICE int locate(const double v[3]) const {
    const int i = find(faces[0], n[0], v[0]);
    const int j = find(faces[1], n[1], v[1]);
    const int k = find(faces[2], n[2], v[2]);
    if (i < 0 || j < 0 || k < 0) return -1;
    return node_of[i + n[0] * (j + n[1] * k)];
  }
};

// Cells and increments of one sample, in the order loss (v), loss (v1), gain (v*), gain (v1*).
// Rejected samples have cell[0] = -1 and zero increments.
template <class Real>
struct alignas(16) McSample {
  int cell[4];
  Real coef[4];
};

struct McSampleParams {
  std::uint32_t seed = 0;
  std::uint32_t step = 0;
  int samples = 0;      // N_t
  double omega = 0.5;   // viscosity exponent: 1/2 hard spheres, 1 Maxwell
  double scale = 0.0;   // kappa dt / N_t
  double temperature = 1.0;  // of the Maxwellian v and v1 are drawn from (McDraw)
};

// Builds sample `l`; returns false (and a rejected record) when a velocity leaves the box.
template <class Real>
BOLT_HOST_DEVICE inline bool make_sample(const McSampleParams& p, const VelocityLocator& locator,
                                         const double* inv_number_weight, int l,
                                         McSample<Real>& out) {
  const McDraw d = draw_collision(p.seed, p.step, std::uint32_t(l), p.temperature);
  double vs[3], v1s[3];
  const double weight = post_collision(d, p.omega, vs, v1s) * d.importance;
  const int cells[4] = {locator.locate(d.v), locator.locate(d.v1), locator.locate(vs),
                        locator.locate(v1s)};
  const bool inside = cells[0] >= 0 && cells[1] >= 0 && cells[2] >= 0 && cells[3] >= 0;
  for (int r = 0; r < 4; ++r) {
    out.cell[r] = inside ? cells[r] : -1;
    out.coef[r] = inside ? Real(p.scale * weight * inv_number_weight[cells[r]]) : Real(0);
  }
  return inside;
}

// Team functor over chunks of `chunk` samples: writes samples[l] and, per chunk, the number of
// rejected samples of this draw and the running total over all draws (read by the host only when
// it reports, so drawing needs no host synchronisation).
template <class Real>
struct McSampler {
  McSampleParams params;
  VelocityLocator locator;
  const double* inv_number_weight;  // [v] 1 / (w_v Phi0(xi_v))
  McSample<Real>* samples;
  int* rejected;                  // [chunk index]
  std::int64_t* rejected_total;   // [chunk index]
  int chunk;

  template <class Team>
  BOLT_HOST_DEVICE void operator()(const Team& team, std::int64_t item) const {
    const int first = int(item) * chunk;
    const int count = params.samples - first < chunk ? params.samples - first : chunk;
    const auto s = team.template reduce<1>(count, [&](int i, Sums<1>& acc) {
      McSample<Real> record;
      if (!make_sample(params, locator, inv_number_weight, first + i, record)) acc[0] += 1.0;
      samples[first + i] = record;
    });
    if (team.leader()) {
      rejected[item] = int(s[0]);
      rejected_total[item] += std::int64_t(s[0]);
    }
  }
};

}  // namespace bolt
