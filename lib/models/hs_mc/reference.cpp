#include "models/hs_mc/reference.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/error.hpp"
#include "kernels/hs_mc/samples.hpp"
#include "models/hs_mc/collision.hpp"

namespace bolt {

double reference_phi0(double x, double y, double z) {
  const double pi = 3.14159265358979323846;
  return std::exp(-(x * x + y * y + z * z)) / std::pow(pi, 1.5);
}

namespace {

// The cell along one axis holding x: faces[i] <= x < faces[i + 1], the last cell also takes its
// upper face; -1 outside. A linear scan.
int axis_cell(const std::vector<double>& faces, double x) {
  const int cells = int(faces.size()) - 1;
  for (int i = 0; i < cells; ++i)
    if (faces[i] <= x && (x < faces[i + 1] || (i == cells - 1 && x == faces[i + 1]))) return i;
  return -1;
}

class Lookup {
 public:
  explicit Lookup(const VelocityGrid& vg) : vg_(vg) {
    for (int v = 0; v < vg.size(); ++v) index_[{vg.node[0][v], vg.node[1][v], vg.node[2][v]}] = v;
  }
  int operator()(const double xi[3]) const {
    const int i = axis_cell(vg_.axes[0].faces, xi[0]);
    const int j = axis_cell(vg_.axes[1].faces, xi[1]);
    const int k = axis_cell(vg_.axes[2].faces, xi[2]);
    if (i < 0 || j < 0 || k < 0) return -1;
    return index_.at({i, j, k});
  }

 private:
  const VelocityGrid& vg_;
  std::map<std::tuple<int, int, int>, int> index_;
};

}  // namespace

McReferenceStep reference_mc_collision(const VelocityGrid& vg, const McReferenceParams& p,
                                       const std::vector<double>& h_tilde) {
  const int nv = vg.size();
  require(h_tilde.size() % std::size_t(nv) == 0, "reference: rows of ", nv, " velocities");
  const std::size_t cells = h_tilde.size() / nv;
  const Lookup lookup(vg);
  // The samples: cells of v, v1, v*, v1* and dt kappa |k . v_r| |v_r|^(1 - 2 omega) I / N_t (I the
  // importance weight of McDraw, 1 when v and v1 come from Phi0).
  struct Collision {
    int j[4];
    double rate;
  };
  std::vector<Collision> collisions;
  McReferenceStep result;
  for (int l = 0; l < p.samples; ++l) {
    const McDraw d = draw_collision(p.seed, p.step, std::uint32_t(l), p.temperature);
    double vr[3], kv = 0.0, speed2 = 0.0;  // v_r = v1 - v (algorithm 2, line 4)
    for (int a = 0; a < 3; ++a) {
      vr[a] = d.v1[a] - d.v[a];
      kv += vr[a] * d.k[a];
      speed2 += vr[a] * vr[a];
    }
    double vs[3], v1s[3];
    for (int a = 0; a < 3; ++a) {
      vs[a] = d.v[a] + kv * d.k[a];
      v1s[a] = d.v1[a] - kv * d.k[a];
    }
    const int j[4] = {lookup(d.v), lookup(d.v1), lookup(vs), lookup(v1s)};
    if (j[0] < 0 || j[1] < 0 || j[2] < 0 || j[3] < 0) {
      ++result.rejected;
      continue;
    }
    const double speed = std::sqrt(speed2);
    const double cross = speed > 0.0 ? std::pow(speed, 1.0 - 2.0 * p.omega) : 0.0;
    const double w = (p.omega == 0.5 ? std::abs(kv) : std::abs(kv) * cross) * d.importance;
    collisions.push_back({{j[0], j[1], j[2], j[3]}, p.dt * p.kappa * w / p.samples});
  }
  // Eq. (24): h' = h~ + dt / (w_j Phi0_j) dN_j/dt, every sample with the unchanged h~.
  std::vector<double> number(nv);
  for (int v = 0; v < nv; ++v)
    number[v] = vg.weight[v] * reference_phi0(vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]);
  result.h = h_tilde;
  // Expected self-loss: the sampled self terms coef h_a of the loss increments are added back and
  // L_a h_a taken instead (L from the grid's tables: it is a property of the grid, not the samples).
  std::vector<double> expected(nv, 0.0);
  if (p.expected_self_loss) {
    const McTables tables = make_mc_tables(vg);
    const std::vector<double> by_node = mc_expected_self_loss(tables, p.kappa, p.dt, p.omega);
    for (int v = 0; v < nv; ++v) expected[v] = by_node[v];
  }
  for (std::size_t c = 0; c < cells; ++c) {
    const double* h = h_tilde.data() + c * nv;
    std::vector<double> delta(nv, 0.0), self_rate(nv, 0.0);
    for (const Collision& col : collisions) {
      const int a = col.j[0], b = col.j[1];
      const double g = h[a] + h[b] + p.epsilon * h[a] * h[b];
      const double coef[4] = {col.rate / number[a], col.rate / number[b],
                              col.rate / number[col.j[2]], col.rate / number[col.j[3]]};
      delta[a] -= coef[0] * g;
      delta[b] -= coef[1] * g;
      self_rate[a] += coef[0];
      self_rate[b] += coef[1];
      delta[col.j[2]] += coef[2] * g;
      delta[col.j[3]] += coef[3] * g;
    }
    for (int v = 0; v < nv; ++v) {
      const double self = p.expected_self_loss ? (self_rate[v] - expected[v]) * h[v] : 0.0;
      result.h[c * nv + v] = h[v] + delta[v] + self;
    }
  }
  return result;
}

namespace {

void invariants(const VelocityGrid& vg, int v, double psi[5]) {
  psi[0] = 1.0;
  psi[4] = 0.0;
  for (int a = 0; a < 3; ++a) {
    psi[1 + a] = vg.xi[a][v];
    psi[4] += vg.xi[a][v] * vg.xi[a][v];
  }
}

}  // namespace

void reference_conserved_moments(const VelocityGrid& vg, const double* h, double moments[5]) {
  long double sum[5] = {0, 0, 0, 0, 0};
  for (int v = 0; v < vg.size(); ++v) {
    double psi[5];
    invariants(vg, v, psi);
    const long double n = (long double)vg.weight[v] *
                          reference_phi0(vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]) * h[v];
    for (int k = 0; k < 5; ++k) sum[k] += n * psi[k];
  }
  for (int k = 0; k < 5; ++k) moments[k] = double(sum[k]);
}

void reference_correction_system(const VelocityGrid& vg, double epsilon, const double* h_tilde,
                                 const double* h_prime, double matrix[25], double rhs[5]) {
  for (int k = 0; k < 25; ++k) matrix[k] = 0.0;
  for (int k = 0; k < 5; ++k) rhs[k] = 0.0;
  for (int v = 0; v < vg.size(); ++v) {
    double psi[5];
    invariants(vg, v, psi);
    const double n = vg.weight[v] * reference_phi0(vg.xi[0][v], vg.xi[1][v], vg.xi[2][v]);
    for (int k = 0; k < 5; ++k) {
      rhs[k] += n * psi[k] * (h_tilde[v] - h_prime[v]);
      for (int l = 0; l < 5; ++l) matrix[5 * k + l] += n * (1.0 + epsilon * h_prime[v]) * psi[k] * psi[l];
    }
  }
}

std::vector<double> reference_apply_correction(const VelocityGrid& vg, double epsilon,
                                               const double* h_prime, const double y[5]) {
  std::vector<double> h(vg.size());
  for (int v = 0; v < vg.size(); ++v) {
    double psi[5], c = 0.0;
    invariants(vg, v, psi);
    for (int k = 0; k < 5; ++k) c += y[k] * psi[k];
    h[v] = h_prime[v] + (1.0 + epsilon * h_prime[v]) * c;
  }
  return h;
}

}  // namespace bolt
