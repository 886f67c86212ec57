// The velocity grids (lib/grid/velocity_grid.*): quadrature of a Maxwellian's
// moments on uniform and centre-stretched Cartesian grids, weights, node
// ordering by sign octant, reflection maps; the sphere cut of paper 003.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "core/error.hpp"
#include "grid/velocity_grid.hpp"
#include "grid/velocity_grid_size.hpp"
#include "unit_helpers.hpp"

namespace bolt {
namespace {

using test::kEps;

struct MomentErrors {
  double n, u, T; // |n_h - n| / n, max_a |u_h - u|, |T_h - T| / T
};

MomentErrors maxwellian_errors(const VelocityGrid &vg, double n,
                               const double u[3], double T) {
  const std::vector<double> f = test::maxwellian_row(vg, n, u, T);
  const test::RowMoments m = test::row_moments(vg, f.data());
  MomentErrors e{std::abs(m.n - n) / n, 0.0, std::abs(m.T - T) / T};
  for (int a = 0; a < 3; ++a)
    e.u = std::max(e.u, std::abs(m.u[a] - u[a]));
  return e;
}

const double kN = 1.3, kU[3] = {0.3, -0.2, 0.1}, kT = 0.9, kHalf = 5.0;

// Uniform grid: the midpoint rule on a Gaussian converges spectrally. Error
// sources per axis (Poisson summation, Gaussian variance T/2): aliasing, the k
// = 1 image of the Fourier transform, 2 exp(-pi^2 T / h^2) for the zeroth
// moment, amplified for the second moment by the second derivative of the
// transform at 2 pi / h, relative factor 1 + 2 pi^2 T / h^2 (first moment: pi T
// / h, smaller); and truncation of the tails outside [-a, a], ~ erfc((a - |u|)
// / sqrt(T)), amplified for the second moment by about a^2 / T. Asserted: each
// error below 4x that estimate
// (+ 100 eps for round-off).
TEST(VelocityGrid, UniformMaxwellianMomentsConvergeSpectrally) {
  double previous = 1.0;
  for (int N : {8, 16, 24}) {
    VelocityGridSpec spec;
    spec.nodes = {N, N, N};
    spec.half_width = kHalf;
    const VelocityGrid vg = make_cartesian_velocity_grid(spec);
    const MomentErrors e = maxwellian_errors(vg, kN, kU, kT);
    const double h = 2.0 * kHalf / N;
    const double aliasing = 2.0 * std::exp(-M_PI * M_PI * kT / (h * h)) *
                            (1.0 + 2.0 * M_PI * M_PI * kT / (h * h));
    const double truncation =
        std::erfc((kHalf - 0.3) / std::sqrt(kT)) * kHalf * kHalf / kT;
    const double bound = 4.0 * (aliasing + truncation) + 100.0 * kEps;
    std::printf("  uniform N=%2d h=%.3f: |dn|/n=%.2e |du|=%.2e |dT|/T=%.2e "
                "(estimate %.2e)\n",
                N, h, e.n, e.u, e.T, aliasing + truncation);
    EXPECT_LE(e.n, bound) << "N=" << N;
    EXPECT_LE(e.u, bound) << "N=" << N;
    EXPECT_LE(e.T, bound) << "N=" << N;
    const double worst = std::max({e.n, e.u, e.T});
    EXPECT_LT(worst, previous) << "no convergence at N=" << N;
    previous = worst;
  }
  // At N = 24 the error is at the truncation level, far below the 1e-9 a solver
  // needs.
  EXPECT_LT(previous, 1e-9);
}

// Centre-stretched grid (ratio 0.9, finest cells at the origin): weights are
// cell widths and nodes cell midpoints, so each cell carries the midpoint-rule
// error w^3 f''/24; on a graded mesh these no longer cancel (they do on a
// uniform one), and the total is ~ (1/24) int w(x)^2 f''(x) dx = O(h_max^2),
// not spectral. With the ratio fixed, h_max falls slowly with N (0.88 -> 0.70
// from N = 16 to 24). Asserted: the error falls at least like h_max^2 (25%
// margin for the pre-asymptotic range): err(24)/err(16) <= 1.25
// (h_max(24)/h_max(16))^2.
TEST(VelocityGrid, StretchedMaxwellianMomentsConverge) {
  std::vector<double> worst;
  std::vector<double> hmax;
  for (int N : {8, 16, 24}) {
    VelocityGridSpec spec;
    spec.nodes = {N, N, N};
    spec.half_width = kHalf;
    spec.ratio = 0.9;
    const VelocityGrid vg = make_cartesian_velocity_grid(spec);
    ASSERT_FALSE(vg.axes[0].uniform);
    const MomentErrors e = maxwellian_errors(vg, kN, kU, kT);
    const double widest =
        *std::max_element(vg.axes[0].widths.begin(), vg.axes[0].widths.end());
    std::printf(
        "  stretched(0.9) N=%2d h_max=%.3f h_min=%.3f: |dn|/n=%.2e |du|=%.2e "
        "|dT|/T=%.2e\n",
        N, widest, vg.axes[0].min_width(), e.n, e.u, e.T);
    worst.push_back(std::max({e.n, e.u, e.T}));
    hmax.push_back(widest);
  }
  EXPECT_LT(worst[1], worst[0]);
  EXPECT_LT(worst[2], worst[1]);
  EXPECT_LE(worst[2] / worst[1], 1.25 * std::pow(hmax[2] / hmax[1], 2));
  RecordProperty("stretched_N24_worst_error", std::to_string(worst[2]));
}

// Weights are the velocity-cell volumes: they tile the box [c - a, c + a]^3
// exactly, so their sum is (2a)^3 up to summation round-off (bound: nv * eps *
// volume).
TEST(VelocityGrid, WeightsSumToBoxVolume) {
  for (double ratio : {1.0, 0.85}) {
    for (int N : {7, 8, 12}) {
      VelocityGridSpec spec;
      spec.nodes = {N, N + 1, N - 2};
      spec.half_width = 4.5;
      spec.centre = {0.25, -0.5, 0.0};
      spec.ratio = ratio;
      const VelocityGrid vg = make_cartesian_velocity_grid(spec);
      ASSERT_EQ(vg.size(), N * (N + 1) * (N - 2));
      long double sum = 0;
      for (double w : vg.weight) {
        EXPECT_GT(w, 0.0);
        sum += w;
      }
      const double volume = std::pow(2.0 * spec.half_width, 3);
      EXPECT_NEAR(double(sum), volume, vg.size() * kEps * volume)
          << "ratio " << ratio;
      // Nodes lie inside the box, on the axis centres they were built from.
      for (int a = 0; a < 3; ++a)
        for (int v = 0; v < vg.size(); ++v) {
          EXPECT_EQ(vg.xi[a][v], vg.axes[a].centres[vg.node[a][v]]);
          EXPECT_LT(std::abs(vg.xi[a][v] - spec.centre[a]), spec.half_width);
        }
    }
  }
}

int octant_of(const VelocityGrid &vg, int v) {
  return (vg.xi[0][v] < 0 ? 1 : 0) | (vg.xi[1][v] < 0 ? 2 : 0) |
         (vg.xi[2][v] < 0 ? 4 : 0);
}

// Each sign octant is one contiguous block (odd N puts xi = 0 in the
// non-negative octant), and every (i, j, k) node of the tensor grid appears
// exactly once.
TEST(VelocityGrid, NodesAreOctantOrdered) {
  for (int N : {6, 7}) {
    for (double ratio : {1.0, 0.8}) {
      VelocityGridSpec spec;
      spec.nodes = {N, N, N};
      spec.half_width = 4.0;
      spec.ratio = ratio;
      const VelocityGrid vg = make_cartesian_velocity_grid(spec);
      std::set<int> finished;
      int current = octant_of(vg, 0);
      for (int v = 1; v < vg.size(); ++v) {
        const int o = octant_of(vg, v);
        if (o != current) {
          EXPECT_EQ(finished.count(o), 0u)
              << "octant " << o << " split, v=" << v;
          finished.insert(current);
          current = o;
        }
      }
      std::set<std::tuple<int, int, int>> seen;
      for (int v = 0; v < vg.size(); ++v)
        seen.insert({vg.node[0][v], vg.node[1][v], vg.node[2][v]});
      EXPECT_EQ(int(seen.size()), vg.size());
    }
  }
}

// reflect[a] is an involution that negates xi_a and keeps the other components
// and the weight. Centres come from accumulated faces, so -xi_a is met to a few
// ulps of the half width (bound 8 eps a), not bit-exactly; the weights of
// mirrored cells agree to 8 eps relative.
TEST(VelocityGrid, ReflectMapsAreInvolutions) {
  for (double ratio : {1.0, 0.8}) {
    for (int N : {6, 9}) {
      VelocityGridSpec spec;
      spec.nodes = {N, N, N};
      spec.half_width = 4.0;
      spec.ratio = ratio;
      const VelocityGrid vg = make_cartesian_velocity_grid(spec);
      for (int a = 0; a < 3; ++a) {
        ASSERT_TRUE(vg.symmetric(a));
        for (int v = 0; v < vg.size(); ++v) {
          const int r = vg.reflect[a][v];
          ASSERT_GE(r, 0);
          ASSERT_LT(r, vg.size());
          EXPECT_EQ(vg.reflect[a][r], v);
          EXPECT_NEAR(vg.xi[a][r], -vg.xi[a][v], 8 * kEps * spec.half_width);
          for (int b = 0; b < 3; ++b)
            if (b != a) {
              EXPECT_EQ(vg.xi[b][r], vg.xi[b][v]);
            }
          EXPECT_NEAR(vg.weight[r], vg.weight[v], 8 * kEps * vg.weight[v]);
        }
      }
    }
  }
  // A box not centred on zero has no reflection on that axis (reflect = -1
  // there).
  VelocityGridSpec shifted;
  shifted.nodes = {6, 6, 6};
  shifted.centre = {0.5, 0.0, 0.0};
  const VelocityGrid vg = make_cartesian_velocity_grid(shifted);
  EXPECT_FALSE(vg.symmetric(0));
  EXPECT_TRUE(vg.symmetric(1));
  EXPECT_TRUE(std::all_of(vg.reflect[0].begin(), vg.reflect[0].end(),
                          [](int r) { return r == -1; }));
}

TEST(VelocityGrid, RejectsImpossibleSpecs) {
  VelocityGridSpec spec;
  spec.nodes = {4, 4, 4};
  spec.half_width = 0.0;
  EXPECT_THROW(make_cartesian_velocity_grid(spec), Error);
  spec.half_width = 4.0;
  spec.nodes = {4, 0, 4};
  EXPECT_THROW(make_cartesian_velocity_grid(spec), Error);
  spec.nodes = {4, 4, 4};
  spec.ratio = 1.5;
  EXPECT_THROW(make_cartesian_velocity_grid(spec), Error);
}

// The sphere grid (-vgrid_type sphere) of paper 003: the nodes of the uniform N0^3 box inside
// the ball of radius V_max. The paper's counts, 4224 nodes for N0 = 20 and 3112 for N0 = 18;
// every node kept is inside the ball and every one left out is outside; the weights are h^3; the
// set is octant-ordered and symmetric on every axis. A Maxwellian at rest keeps its mass up to
// the part outside the ball, erfc(R) + 2 R exp(-R^2) / sqrt(pi) for R = V_max / sqrt(T) (bolt
// units: f ~ exp(-|xi|^2 / T)), plus the spectrally small quadrature error.
TEST(VelocityGrid, SphereCutOfTheUniformBox) {
  for (const auto &[n0, count] : {std::pair{20, 4224}, std::pair{18, 3112}}) {
    VelocityGridSpec spec;
    spec.type = "sphere";
    spec.nodes = {n0, n0, n0};
    spec.half_width = 4.8 / std::sqrt(2.0); // 4.8 sqrt(kT0/m), paper 003's cavity
    const VelocityGrid vg = make_velocity_grid(spec);
    EXPECT_EQ(vg.size(), count) << "N0 = " << n0;
    EXPECT_FALSE(vg.full_box);
    const double h = 2.0 * spec.half_width / n0, r2 = spec.half_width * spec.half_width;
    for (int v = 0; v < vg.size(); ++v) {
      EXPECT_NEAR(vg.weight[v], h * h * h, 1e-14);
      const double x = vg.xi[0][v], y = vg.xi[1][v], z = vg.xi[2][v];
      EXPECT_LE(x * x + y * y + z * z, r2 * (1 + 1e-12));
    }
    const VelocityGrid box = make_cartesian_velocity_grid(spec);
    int inside = 0;
    for (int v = 0; v < box.size(); ++v) {
      const double x = box.xi[0][v], y = box.xi[1][v], z = box.xi[2][v];
      inside += x * x + y * y + z * z <= r2 * (1 + 1e-12);
    }
    EXPECT_EQ(inside, count);
    for (int a = 0; a < 3; ++a) {
      EXPECT_TRUE(vg.symmetric(a));
      for (int v = 0; v < vg.size(); ++v) EXPECT_EQ(vg.reflect[a][vg.reflect[a][v]], v);
    }
    for (int v = 1; v < vg.size(); ++v) {
      auto octant = [&](int u) {
        return (vg.xi[0][u] < 0) | (vg.xi[1][u] < 0) << 1 | (vg.xi[2][u] < 0) << 2;
      };
      EXPECT_LE(octant(v - 1), octant(v));
    }
    const double u[3] = {0.0, 0.0, 0.0}, T = 1.0, R = spec.half_width / std::sqrt(T);
    const double outside = std::erfc(R) + 2.0 * R * std::exp(-R * R) / std::sqrt(M_PI);
    const MomentErrors e = maxwellian_errors(vg, 1.0, u, T);
    std::printf("  sphere N0 = %d: %d nodes, mass error %.3e (outside the ball %.3e)\n", n0,
                vg.size(), e.n, outside);
    EXPECT_LE(e.n, 1.5 * outside);
  }
}

// The plan's count (velocity_grid_size) is the size of the grid built, without building it; a
// product of -vgrid_n beyond 64 bits is refused by name.
TEST(VelocityGrid, SizeWithoutBuilding) {
  for (const std::string type : {"cartesian", "sphere"})
    for (int n0 : {1, 2, 7, 18, 20, 33})
      for (const double centre : {0.0, 0.37}) {
        VelocityGridSpec spec;
        spec.type = type;
        spec.nodes = {n0, n0, n0};
        spec.centre = {centre, -centre, 0.5 * centre};
        spec.half_width = 3.3;
        if (type == "cartesian") spec.nodes = {n0, n0 + 1, n0 + 2};
        EXPECT_EQ(velocity_grid_size(spec), make_velocity_grid(spec).size())
            << type << " N0 = " << n0 << ", centre " << centre;
      }
  VelocityGridSpec huge;
  huge.nodes = {2000000000, 2000000000, 2000000000};
  try {
    velocity_grid_size(huge);
    FAIL() << "a product beyond 64 bits was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("-vgrid_n"), std::string::npos) << e.what();
  }
}

TEST(VelocityGrid, SphereNeedsAUniformCube) {
  VelocityGridSpec spec;
  spec.type = "sphere";
  spec.nodes = {20, 20, 18};
  EXPECT_THROW(make_velocity_grid(spec), Error);
  spec.nodes = {20, 20, 20};
  spec.ratio = 0.9;
  EXPECT_THROW(make_velocity_grid(spec), Error);
  spec.type = "octahedron";
  spec.ratio = 1.0;
  EXPECT_THROW(make_velocity_grid(spec), Error);
}

} // namespace
} // namespace bolt
