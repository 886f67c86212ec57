#pragma once
// Builders shared by the Monte Carlo collision tests: velocity grids, rows of the deviational
// distribution h (f = Phi0 (1 + eps h)) of anisotropic drifting Gaussians, and comparisons.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "grid/velocity_grid.hpp"
#include "models/hs_mc/collision.hpp"
#include "models/hs_mc/reference.hpp"
#include "unit_helpers.hpp"

namespace bolt::test {

// A centre off zero takes away the grid's mirror symmetry (the collision then pairs every
// velocity with itself, McMirrorPair).
inline VelocityGrid mc_grid(std::array<int, 3> nodes, double half_width, double ratio = 1.0,
                            std::array<double, 3> centre = {0.0, 0.0, 0.0}) {
  VelocityGridSpec spec;
  spec.nodes = nodes;
  spec.half_width = half_width;
  spec.ratio = ratio;
  spec.centre = centre;
  return make_cartesian_velocity_grid(spec);
}

// A Gaussian gas state: density, drift, temperature tensor (xx, yy, zz, xy) in T0 units.
struct GasState {
  double n = 1.0, u[3] = {0.0, 0.0, 0.0};
  double T[3] = {1.0, 1.0, 1.0}, Txy = 0.0;
};

// f of the state on the nodes: n (pi^3 det T)^(-1/2) exp(-c^T T^-1 c), T the temperature tensor
// (bolt units: the Maxwellian is n (pi T)^(-3/2) exp(-c^2 / T)).
inline double gaussian(const GasState& s, double x, double y, double z) {
  const double cx = x - s.u[0], cy = y - s.u[1], cz = z - s.u[2];
  const double det2 = s.T[0] * s.T[1] - s.Txy * s.Txy;  // of the xy block
  const double q = (s.T[1] * cx * cx - 2.0 * s.Txy * cx * cy + s.T[0] * cy * cy) / det2 +
                   cz * cz / s.T[2];
  const double pi = 3.14159265358979323846;
  return s.n / std::sqrt(pi * pi * pi * det2 * s.T[2]) * std::exp(-q);
}

// h = (f / Phi0 - 1) / eps of a state, plus `noise` times a hash in [-1, 1) (rows that are not
// smooth exercise every velocity independently).
inline std::vector<double> deviation_row(const VelocityGrid& vg, const GasState& s, double eps,
                                         double noise = 0.0, std::uint64_t salt = 0) {
  std::vector<double> h(vg.size());
  for (int v = 0; v < vg.size(); ++v) {
    const double x = vg.xi[0][v], y = vg.xi[1][v], z = vg.xi[2][v];
    h[v] = (gaussian(s, x, y, z) / reference_phi0(x, y, z) - 1.0) / eps +
           noise * (2.0 * hash01(salt * 1000003ULL + v) - 1.0);
  }
  return h;
}

// `cells` rows of different drifting, anisotropic states.
inline std::vector<double> deviation_rows(const VelocityGrid& vg, int cells, double eps,
                                          double noise = 0.0) {
  std::vector<double> rows;
  for (int c = 0; c < cells; ++c) {
    GasState s;
    s.n = 1.0 + 0.04 * std::sin(1.0 + c);
    s.u[0] = 0.05 * std::cos(0.7 * c);
    s.u[1] = -0.03 + 0.01 * c;
    s.u[2] = 0.02 * std::sin(2.0 * c);
    s.T[0] = 1.06 - 0.01 * c;
    s.T[1] = 0.95;
    s.T[2] = 1.0 + 0.02 * std::cos(c);
    s.Txy = 0.03;
    const std::vector<double> h = deviation_row(vg, s, eps, noise, std::uint64_t(c + 1));
    rows.insert(rows.end(), h.begin(), h.end());
  }
  return rows;
}

// The same in particle numbers w Phi0 h per velocity (what the moments weigh): the tails, where
// w Phi0 is tiny and h large, do not dominate the scale.
inline double number_difference(const VelocityGrid& vg, const std::vector<double>& a,
                                const std::vector<double>& b) {
  const McTables t = make_mc_tables(vg);
  std::vector<double> na(a.size()), nb(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) na[i] = t.number_weight[i % vg.size()] * a[i];
  for (std::size_t i = 0; i < b.size(); ++i) nb[i] = t.number_weight[i % vg.size()] * b[i];
  return relative_difference(na, nb);
}

inline McConfig mc_config(const VelocityGrid& vg, int samples, double dt, double delta = 1.0,
                          double omega = 0.5, double eps = 1.0) {
  McConfig c;
  c.backend = Backend::cpu;
  c.precision = Precision::double_;
  c.velocities = vg;
  c.delta = delta;
  c.omega = omega;
  c.options.epsilon = eps;
  c.dt = dt;
  c.options.samples = samples;
  c.options.seed = 20250611u;
  return c;
}

}  // namespace bolt::test
