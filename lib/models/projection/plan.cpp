#include "models/projection/plan.hpp"

#include <Random123/philox.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace bolt {

namespace {

constexpr double kPi = 3.14159265358979323846;

// The velocity set as a part of a uniform box of n^3 nodes: node index of (i, j, k) or -1.
struct UniformNodes {
  int n = 0;
  double h = 0.0;
  std::array<double, 3> lo{};  // centre of node 0 along each axis
  std::vector<int> node_of;    // [i + n (j + n k)]

  explicit UniformNodes(const VelocityGrid& vg) {
    n = vg.axes[0].cells();
    require(n >= 2 && vg.axes[1].cells() == n && vg.axes[2].cells() == n,
            "-model_type projection: needs the same number of velocity nodes on every axis "
            "(-vgrid_n N0)");
    h = vg.axes[0].widths[0];
    for (int a = 0; a < 3; ++a) {
      lo[a] = vg.axes[a].centres[0];
      for (double w : vg.axes[a].widths)
        require(std::abs(w - h) <= 1e-12 * h, "-model_type projection: needs a uniform velocity "
                "grid with the same spacing on every axis (-vgrid_stretch 1)");
    }
    node_of.assign(std::size_t(n) * n * n, -1);
    for (int v = 0; v < vg.size(); ++v)
      node_of[vg.node[0][v] + n * (vg.node[1][v] + n * vg.node[2][v])] = v;
  }

  int at(const std::array<int, 3>& i) const {
    for (int a = 0; a < 3; ++a)
      if (i[a] < 0 || i[a] >= n) return -1;
    return node_of[i[0] + n * (i[1] + n * i[2])];
  }
  double xi(int axis, int i) const { return lo[axis] + h * i; }
  double energy(const std::array<int, 3>& i) const {
    double e = 0.0;
    for (int a = 0; a < 3; ++a) e += xi(a, i[a]) * xi(a, i[a]);
    return e;
  }
};

// Two unit vectors completing g / |g| to an orthonormal basis.
void perpendicular_basis(const double g[3], double e1[3], double e2[3]) {
  const double norm = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  const double u[3] = {g[0] / norm, g[1] / norm, g[2] / norm};
  // Cross with the axis least aligned with g.
  const int a = std::abs(u[0]) <= std::abs(u[1]) ? (std::abs(u[0]) <= std::abs(u[2]) ? 0 : 2)
                                                 : (std::abs(u[1]) <= std::abs(u[2]) ? 1 : 2);
  double t[3] = {0.0, 0.0, 0.0};
  t[a] = 1.0;
  e1[0] = u[1] * t[2] - u[2] * t[1];
  e1[1] = u[2] * t[0] - u[0] * t[2];
  e1[2] = u[0] * t[1] - u[1] * t[0];
  const double n1 = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
  for (int k = 0; k < 3; ++k) e1[k] /= n1;
  e2[0] = u[1] * e1[2] - u[2] * e1[1];
  e2[1] = u[2] * e1[0] - u[0] * e1[2];
  e2[2] = u[0] * e1[1] - u[1] * e1[0];
}

}  // namespace

std::array<double, kKorobovDimensions> projection_shift(std::uint32_t seed, std::uint32_t set) {
  r123::Philox4x32 rng;
  const r123::Philox4x32::key_type key = {{seed, set}};
  std::array<double, kKorobovDimensions> shift;
  for (std::uint32_t call = 0; call < kKorobovDimensions / 2; ++call) {
    const r123::Philox4x32::ctr_type r = rng({{call, 0u, 0u, 0u}}, key);
    // 53 bits of each pair of words: [0, 1) exactly.
    shift[2 * call] = double(((std::uint64_t(r[0]) << 32) | r[1]) >> 11) * 0x1p-53;
    shift[2 * call + 1] = double(((std::uint64_t(r[2]) << 32) | r[3]) >> 11) * 0x1p-53;
  }
  return shift;
}

int projection_set_of_step(std::uint32_t seed, std::uint32_t step, int sets) {
  r123::Philox4x32 rng;
  const r123::Philox4x32::ctr_type r = rng({{step, 1u, 0u, 0u}}, {{seed, 0x70726f6au}});
  return int(r[0] % std::uint32_t(sets));
}

namespace {

// The post-collision velocity xi' of the pair of nodes (ia, ib): their relative velocity turned
// by chi(|g|, b) about the azimuth eps. Returns |g|.
double post_collision_velocity(const UniformNodes& grid, const std::array<int, 3>& ia,
                               const std::array<int, 3>& ib, double b, double eps,
                               const Deflection& deflection, double post[3]) {
  double g[3], centre[3];
  for (int k = 0; k < 3; ++k) {
    g[k] = grid.xi(k, ia[k]) - grid.xi(k, ib[k]);
    centre[k] = 0.5 * (grid.xi(k, ia[k]) + grid.xi(k, ib[k]));
  }
  const double speed = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  const double chi = deflection(speed, b);
  double e1[3], e2[3];
  perpendicular_basis(g, e1, e2);
  for (int k = 0; k < 3; ++k) {
    const double turned = std::cos(chi) * g[k] +
                          speed * std::sin(chi) * (std::cos(eps) * e1[k] + std::sin(eps) * e2[k]);
    post[k] = centre[k] + 0.5 * turned;
  }
  return speed;
}

// Squared distance of node i from xi'.
double spread(const UniformNodes& grid, const std::array<int, 3>& i, const double post[3]) {
  double d = 0.0;
  for (int k = 0; k < 3; ++k) d += (grid.xi(k, i[k]) - post[k]) * (grid.xi(k, i[k]) - post[k]);
  return d;
}

// The second pair (l + s, m - s) of a term whose first pair (il, im) has pair energy e1_pair off
// the pre-collision energy e0: among the 26 neighbours s, those with the pair energy on the other
// side of e0 and inside the set, the one of least (1 - r) |xi_l - xi'|^2 + r |xi_l+s - xi'|^2.
// Leaves term.r = 0 when there is none; `outside`: some were outside the velocity set.
void choose_second_pair(const UniformNodes& grid, const std::array<int, 3>& il,
                        const std::array<int, 3>& im, const double post[3], double e0,
                        double e1_pair, ProjectionTerm<double>& term, bool& outside) {
  const double spread_l = spread(grid, il, post);
  double best = std::numeric_limits<double>::infinity();
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        const std::array<int, 3> ils = {il[0] + dx, il[1] + dy, il[2] + dz};
        const std::array<int, 3> ims = {im[0] - dx, im[1] - dy, im[2] - dz};
        const double e2_pair = grid.energy(ils) + grid.energy(ims);
        if ((e2_pair - e0) * (e1_pair - e0) >= 0.0) continue;  // same side of E0
        const int ls = grid.at(ils), ms = grid.at(ims);
        if (ls < 0 || ms < 0) {
          outside = true;
          continue;
        }
        const double r = (e0 - e1_pair) / (e2_pair - e1_pair);
        const double cost = (1.0 - r) * spread_l + r * spread(grid, ils, post);
        if (cost < best) {
          best = cost;
          term.node[kLambdaS] = ls;
          term.node[kMuS] = ms;
          term.r = r;
        }
      }
}

// The term of lattice point x, with b g in `bg` (its c once N_nu is known), or false where the
// point is not a term (counted in `counts`).
bool make_term(const UniformNodes& grid, const std::array<double, kKorobovDimensions>& x,
               const Deflection& deflection, ProjectionPlanCounts& counts,
               ProjectionTerm<double>& term, double& bg) {
  const int n = grid.n;
  std::array<int, 3> ia, ib;
  for (int k = 0; k < 3; ++k) {
    ia[k] = std::min(n - 1, int(x[k] * n));
    ib[k] = std::min(n - 1, int(x[3 + k] * n));
  }
  const int alpha = grid.at(ia), beta = grid.at(ib);
  if (alpha < 0 || beta < 0) return false;
  ++counts.inside;
  if (alpha == beta) {
    ++counts.no_change;
    return false;
  }
  const double b = x[6], eps = 2.0 * kPi * x[7];
  double post[3];  // xi'
  const double speed = post_collision_velocity(grid, ia, ib, b, eps, deflection, post);
  // (l, m): l the node nearest xi', m = a + b - l (the momentum of (a, b)).
  std::array<int, 3> il, im;
  for (int k = 0; k < 3; ++k) {
    il[k] = int(std::lround((post[k] - grid.lo[k]) / grid.h));
    im[k] = ia[k] + ib[k] - il[k];
  }
  const int lambda = grid.at(il), mu = grid.at(im);
  if (lambda < 0 || mu < 0) {
    ++counts.left_set;
    return false;
  }
  const double e0 = grid.energy(ia) + grid.energy(ib), e1_pair = grid.energy(il) + grid.energy(im);
  term = ProjectionTerm<double>{{alpha, beta, lambda, mu, lambda, mu}, 0.0, 0.0};
  // Exactly on the pre-collision energy (to round-off of E0): one pair.
  if (std::abs(e1_pair - e0) > 1e-12 * e0) {
    bool outside = false;
    choose_second_pair(grid, il, im, post, e0, e1_pair, term, outside);
    if (term.r == 0.0) {
      ++(outside ? counts.left_set : counts.no_pair);
      return false;
    }
  }
  const bool same_pair = (lambda == alpha && mu == beta) || (lambda == beta && mu == alpha);
  if (same_pair && term.r == 0.0) {
    ++counts.no_change;
    return false;
  }
  bg = b * speed;
  return true;
}

// The terms of a batch in groups of kBankGroup whose nodes, at each of the six places, fall in
// different banks of GPU shared memory as far as possible: a team's threads take consecutive
// terms, and a 16-byte access to node v of the interleaved rows (kernels/projection/
// collision.hpp) is served for kBankGroup threads at a time, in one pass where their v differ
// mod kBankGroup, in as many passes as the most frequent remainder otherwise. Greedy: each place
// of a group takes, among the next kBankWindow terms, the one whose remainders are the least
// taken so far. Any order within a batch gives the same result (no two terms share a node).
constexpr int kBankGroup = 8, kBankWindow = 64;
void order_for_banks(std::vector<ProjectionTerm<double>>::iterator first,
                     std::vector<ProjectionTerm<double>>::iterator last) {
  for (auto group = first; group != last;) {
    int taken[kProjectionNodes][kBankGroup] = {};
    for (int place = 0; place < kBankGroup && group != last; ++place, ++group) {
      auto best = group;
      int best_cost = std::numeric_limits<int>::max();
      for (auto t = group; t != last && t - group < kBankWindow && best_cost > 0; ++t) {
        int cost = 0;
        for (int k = 0; k < kProjectionNodes; ++k) cost += taken[k][t->node[k] % kBankGroup];
        if (cost < best_cost) best_cost = cost, best = t;
      }
      std::rotate(group, best, best + 1);  // the others keep their order
      for (int k = 0; k < kProjectionNodes; ++k) ++taken[k][group->node[k] % kBankGroup];
    }
  }
}

// Batches: each term in the first batch where none of its velocities is taken yet (first fit;
// a batch of the order-keeping rule, one after the last batch that touched any of the term's
// velocities, holds far fewer terms, and a team idles on most of them).
void batch_terms(const std::vector<ProjectionTerm<double>>& terms, int nv, ProjectionPlan& plan) {
  std::vector<std::vector<char>> taken;  // [batch][velocity]
  std::vector<int> batch_of(terms.size());
  for (std::size_t t = 0; t < terms.size(); ++t) {
    int b = 0;
    for (;; ++b) {
      if (b == int(taken.size())) taken.emplace_back(nv, 0);
      bool free = true;
      for (int node : terms[t].node) free = free && !taken[b][node];
      if (free) break;
    }
    for (int node : terms[t].node) taken[b][node] = 1;
    batch_of[t] = b;
  }
  const int batches = int(taken.size());
  plan.batch_start.assign(batches + 1, 0);
  for (int b : batch_of) ++plan.batch_start[b + 1];
  for (int b = 0; b < batches; ++b) plan.batch_start[b + 1] += plan.batch_start[b];
  plan.terms.resize(terms.size());
  std::vector<int> fill(plan.batch_start.begin(), plan.batch_start.end() - 1);
  for (std::size_t t = 0; t < terms.size(); ++t) plan.terms[fill[batch_of[t]]++] = terms[t];
  for (int b = 0; b < batches; ++b)
    order_for_banks(plan.terms.begin() + plan.batch_start[b],
                    plan.terms.begin() + plan.batch_start[b + 1]);
}

}  // namespace

ProjectionPlan make_projection_plan(const VelocityGrid& velocities, const KorobovRule& rule,
                                    const std::array<double, kKorobovDimensions>& shift,
                                    double tau, double kappa, const Deflection& deflection) {
  const UniformNodes grid(velocities);
  ProjectionPlan plan;
  ProjectionPlanCounts& counts = plan.counts;
  counts.lattice = rule.p;
  std::vector<ProjectionTerm<double>> terms;  // lattice order
  std::vector<double> bg;                     // b g of each term (c once N_nu is known)
  for (std::int64_t s = 0; s < rule.p; ++s) {
    ProjectionTerm<double> term;
    double term_bg = 0.0;
    if (!make_term(grid, korobov_point(rule, s, shift), deflection, counts, term, term_bg))
      continue;
    terms.push_back(term);
    bg.push_back(term_bg);
  }
  counts.terms = std::int64_t(terms.size());
  // c = tau (kappa / pi) (1/4) (N h^3)^2 (2 pi / N_nu) b g / h^3: the symmetrised integral's
  // four delta terms (1/4), the pair (xi, xi1) over the set by N_nu equally weighted points,
  // b in [0, 1] and eps in [0, 2 pi), and a node's delta function 1 / h^3.
  const double nodes = double(velocities.size()), h3 = grid.h * grid.h * grid.h;
  const double scale =
      counts.inside > 0 ? tau * kappa * nodes * nodes * h3 / (2.0 * counts.inside) : 0.0;
  for (std::size_t t = 0; t < terms.size(); ++t) terms[t].c = scale * bg[t];
  batch_terms(terms, velocities.size(), plan);
  return plan;
}

}  // namespace bolt
