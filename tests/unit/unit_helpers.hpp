#pragma once
// Small builders shared by the unit tests: a CPU double-precision engine
// configuration on a given grid, discrete moments of a row of f computed
// independently of the kernels, and a deterministic "random-ish" positive
// perturbation.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "case/run_options.hpp"
#include "grid/physical_grid.hpp"
#include "grid/velocity_grid.hpp"
#include "kernels/maxwellian.hpp"
#include "models/model_registry.hpp"
#include "solver/explicit/engine.hpp"

namespace bolt::test {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// max |a - b| / max |a|; infinite when the sizes differ or a value is not finite.
inline double relative_difference(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() != b.size()) return INFINITY;
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) return INFINITY;
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(a[i]));
  }
  return scale > 0.0 ? diff / scale : diff;
}

// A homogeneous gas: one cell on every axis, no boundaries.
inline PhysicalGrid homogeneous_grid() {
  std::array<AxisSpec, 3> specs;
  for (auto &s : specs)
    s = AxisSpec{1, 0.0, 1.0};
  return make_physical_grid(specs, 1);
}

// The tests' handle on the three relaxation models, which their references branch on (the
// library has none: each model is an evaluator type, kernels/relaxation/).
enum class RelaxationKind { bgk, shakhov, esbgk };

template <RelaxationKind Kind>
using RelaxationEvaluator =
    std::conditional_t<Kind == RelaxationKind::bgk, Bgk,
                       std::conditional_t<Kind == RelaxationKind::shakhov, Shakhov, EsBgk>>;

// The registered name of a relaxation evaluator, for messages.
inline const char *name(RelaxationKind kind) {
  return kind == RelaxationKind::bgk ? "bgk" : (kind == RelaxationKind::shakhov ? "shakhov" : "esbgk");
}

inline std::shared_ptr<const CollisionModel> relaxation_model(RelaxationKind kind,
                                                              const RelaxationOptions &options = {}) {
  return static_cast<const RelaxationModel &>(*default_model(name(kind))).with_options(options);
}

inline EngineConfig cpu_config(const PhysicalGrid &grid, const VelocityGrid &velocities,
                               std::shared_ptr<const CollisionModel> model, double dt) {
  EngineConfig c;
  c.backend = Backend::cpu;
  c.precision = Precision::double_;
  c.grid = grid;
  c.velocities = velocities;
  c.model = std::move(model);
  c.dt = dt;
  return c;
}

inline EngineConfig cpu_config(const PhysicalGrid &grid, const VelocityGrid &velocities,
                               RelaxationKind kind, double dt) {
  return cpu_config(grid, velocities, relaxation_model(kind), dt);
}

// Discrete moments of one row, summed here in long double so they serve as a
// reference for the kernels' double sums: n, u, T (bolt units: T = (2/3)(sum w
// f |c|^2)/n).
struct RowMoments {
  double n = 0, u[3] = {0, 0, 0}, T = 0;
  double mass = 0, momentum[3] = {0, 0, 0},
         energy = 0; // raw sums: w f {1, xi, |xi|^2}
};

inline RowMoments row_moments(const VelocityGrid &vg, const double *f) {
  long double m0 = 0, m1[3] = {0, 0, 0}, e = 0;
  for (int v = 0; v < vg.size(); ++v) {
    const long double wf = (long double)vg.weight[v] * f[v];
    m0 += wf;
    long double xi2 = 0;
    for (int a = 0; a < 3; ++a) {
      m1[a] += wf * vg.xi[a][v];
      xi2 += (long double)vg.xi[a][v] * vg.xi[a][v];
    }
    e += wf * xi2;
  }
  RowMoments m;
  m.mass = double(m0);
  m.n = double(m0);
  long double u2 = 0;
  for (int a = 0; a < 3; ++a) {
    m.momentum[a] = double(m1[a]);
    m.u[a] = double(m1[a] / m0);
    u2 += (m1[a] / m0) * (m1[a] / m0);
  }
  m.energy = double(e);
  m.T = double((2.0L / 3.0L) * (e / m0 - u2));
  return m;
}

// f_M(n, u, T) sampled on the velocity nodes.
inline std::vector<double> maxwellian_row(const VelocityGrid &vg, double n,
                                          const double u[3], double T) {
  std::vector<double> f(vg.size());
  const double a = maxwellian_prefactor(n, T);
  for (int v = 0; v < vg.size(); ++v)
    f[v] = maxwellian<double>(a, 1.0 / T, u, vg.xi[0][v], vg.xi[1][v],
                              vg.xi[2][v]);
  return f;
}

// Deterministic value in [0, 1) from an integer (a hash, so neighbouring cells
// differ a lot).
inline double hash01(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return double(k >> 11) * (1.0 / 9007199254740992.0);
}

// A drifting anisotropic bi-Maxwellian (InitKind::bimaxwellian): shear stress, normal-stress
// difference and heat flux all nonzero; mixture n = 1, u = (0.2, -0.06, 0). Without
// `transverse_drift` its second Maxwellian has no y velocity, so that y may be reduced.
inline RunOptions bimaxwellian_options(bool transverse_drift = true) {
  RunOptions run;
  run.initial.kind = InitKind::bimaxwellian;
  run.initial.density = 0.8;
  run.initial.velocity[0] = 0.1;
  run.initial.temperature_axes[0] = 1.2;
  run.initial.temperature_axes[1] = 0.9;
  run.initial.temperature_axes[2] = 0.8;
  run.initial.second_density = 0.2;
  run.initial.second_velocity[0] = 0.6;
  run.initial.second_velocity[1] = transverse_drift ? -0.3 : 0.0;
  run.initial.second_temperature = 0.7;
  return run;
}

} // namespace bolt::test
