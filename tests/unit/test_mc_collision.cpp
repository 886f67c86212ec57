// The Monte Carlo collision of paper 000 on the CPU backend:
//  * samples: reproducible from (seed, step), v and v1 distributed as Phi0, k uniform on the
//    sphere, collisions conserve momentum and energy, out-of-box samples rejected and counted;
//    the gather plan lists each increment once, in key order;
//  * the fast kernel (kernels/hs_mc/collision.hpp through McCollisionOperator) equals the plain
//    reference (lib/models/hs_mc/reference.cpp) for the same samples, double, 1e-12 relative;
//  * conservation: with the correction every cell keeps its mass, momentum and energy to
//    round-off; without it momentum and energy drift (mass does not: each sample moves the same
//    number of particles out of two cells and into two others);
//  * the host side of the GPU kernel: the order in which a team gathers the velocities and the
//    team layout that fits the shared memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "kernels/hs_mc/samples.hpp"
#include "mc_helpers.hpp"
#include "physics/collision_kernel.hpp"

namespace bolt {
namespace {

using test::kEps;

// The gather plan (McEntryIndex after the stable sort by velocity): every increment of every
// accepted sample is listed once, at the velocity it lands on, each list with its losses (slots
// 0, 1) first, then its gains, each part in increasing key 4 sample + slot (the order a cell sums
// them in; the GPU's gather reuses h~ at the list's velocity from one loss to the next).
TEST(McSamples, GatherListsHoldEveryIncrementLossesFirstInKeyOrder) {
  const VelocityGrid vg = test::mc_grid({10, 10, 10}, 3.0, 0.92);
  auto op = make_mc_collision(test::mc_config(vg, 3000, 0.01));
  op->draw(5);
  const auto samples = op->samples();
  const auto lists = op->gather_lists();
  ASSERT_EQ(lists.size(), std::size_t(vg.size()));
  std::vector<int> listed_at(4 * samples.size(), -1);
  for (std::size_t v = 0; v < lists.size(); ++v)
    for (std::size_t i = 0; i < lists[v].size(); ++i) {
      const int key = lists[v][i];
      ASSERT_TRUE(key >= 0 && key < int(listed_at.size())) << "key " << key;
      EXPECT_EQ(listed_at[key], -1) << "key " << key << " listed twice";
      listed_at[key] = int(v);
      if (i > 0) {
        // Gains after losses: the order of (slot >= 2, key).
        const auto rank = [&](int k) { return (k % 4 >= 2 ? 4 * int(samples.size()) : 0) + k; };
        EXPECT_LT(rank(lists[v][i - 1]), rank(key)) << "velocity " << v;
      }
    }
  for (std::size_t l = 0; l < samples.size(); ++l)
    for (int slot = 0; slot < 4; ++slot)
      EXPECT_EQ(listed_at[4 * l + slot], samples[l].cell[0] >= 0 ? samples[l].cell[slot] : -1)
          << "sample " << l << " slot " << slot;
}

TEST(McSamples, SameSeedAndStepGiveIdenticalSamples) {
  const VelocityGrid vg = test::mc_grid({10, 10, 10}, 3.0, 0.92);
  const McConfig config = test::mc_config(vg, 3000, 0.01);
  auto a = make_mc_collision(config), b = make_mc_collision(config);
  a->draw(7);
  b->draw(7);
  const auto first = a->samples();
  const auto same = b->samples();
  ASSERT_EQ(first.size(), 3000u);
  int accepted = 0;
  for (std::size_t l = 0; l < first.size(); ++l) {
    EXPECT_EQ(first[l].cell, same[l].cell) << "sample " << l;
    EXPECT_EQ(first[l].coef, same[l].coef) << "sample " << l;  // bitwise
    accepted += first[l].cell[0] >= 0;
  }
  EXPECT_GT(accepted, 2900);
  // A counter-based generator has no state: drawing other steps in between changes nothing.
  a->draw(8);
  const auto other_step = a->samples();
  a->draw(7);
  EXPECT_EQ(a->samples()[123].coef, first[123].coef);
  int differ_step = 0;
  for (std::size_t l = 0; l < first.size(); ++l) differ_step += other_step[l].cell != first[l].cell;
  McConfig reseeded = config;
  reseeded.options.seed += 1;
  auto c = make_mc_collision(reseeded);
  c->draw(7);
  const auto other_seed = c->samples();
  int differ_seed = 0;
  for (std::size_t l = 0; l < first.size(); ++l) differ_seed += other_seed[l].cell != first[l].cell;
  // Independent samples on 1000 cells almost never share all four cells.
  EXPECT_GT(differ_step, 2990);
  EXPECT_GT(differ_seed, 2990);
}

// v, v1: components normal with variance 1/2 (Phi0 ~ exp(-xi^2)), independent; k: unit, mean 0,
// <k_z^2> = 1/3. Bounds are 5 standard errors of N draws.
TEST(McSamples, DrawsFollowPhi0AndTheUnitSphere) {
  const int N = 200000;
  double mean[6] = {0}, var[6] = {0}, cross = 0.0, kmean[3] = {0}, kz2 = 0.0;
  double worst_norm = 0.0, worst_momentum = 0.0, worst_energy = 0.0;
  for (int l = 0; l < N; ++l) {
    const McDraw d = draw_collision(99u, 5u, std::uint32_t(l), 1.0);
    for (int a = 0; a < 3; ++a) {
      mean[a] += d.v[a];
      mean[3 + a] += d.v1[a];
      var[a] += d.v[a] * d.v[a];
      var[3 + a] += d.v1[a] * d.v1[a];
      kmean[a] += d.k[a];
    }
    cross += d.v[0] * d.v1[0];
    kz2 += d.k[2] * d.k[2];
    worst_norm =
        std::max(worst_norm, std::abs(d.k[0] * d.k[0] + d.k[1] * d.k[1] + d.k[2] * d.k[2] - 1.0));
    double vs[3], v1s[3];
    post_collision(d, 0.5, vs, v1s);
    double e0 = 0.0, e1 = 0.0;
    for (int a = 0; a < 3; ++a) {
      worst_momentum = std::max(worst_momentum, std::abs(vs[a] + v1s[a] - d.v[a] - d.v1[a]));
      e0 += d.v[a] * d.v[a] + d.v1[a] * d.v1[a];
      e1 += vs[a] * vs[a] + v1s[a] * v1s[a];
    }
    worst_energy = std::max(worst_energy, std::abs(e1 - e0) / e0);
  }
  const double se_mean = std::sqrt(0.5 / N), se_var = std::sqrt(2.0 * 0.25 / N);
  for (int a = 0; a < 6; ++a) {
    EXPECT_LE(std::abs(mean[a] / N), 5 * se_mean) << "component " << a;
    EXPECT_LE(std::abs(var[a] / N - 0.5), 5 * se_var) << "component " << a;
  }
  EXPECT_LE(std::abs(cross / N), 5 * std::sqrt(0.25 / N));
  for (int a = 0; a < 3; ++a) EXPECT_LE(std::abs(kmean[a] / N), 5 * std::sqrt(1.0 / (3.0 * N)));
  EXPECT_LE(std::abs(kz2 / N - 1.0 / 3.0), 5 * std::sqrt((1.0 / 5.0 - 1.0 / 9.0) / N));
  EXPECT_LE(worst_norm, 4 * kEps);
  EXPECT_LE(worst_momentum, 32 * kEps);  // |v| < 7 for 2e5 draws
  EXPECT_LE(worst_energy, 32 * kEps);
}

// Box [-2, 2]^3: each of the four velocities is Phi0-distributed, so the fraction of samples with
// one outside lies between P(v outside) = 1 - (1 - erfc 2)^3 = 0.01397 and four times that
// (union bound). The reference counts the same rejections.
TEST(McSamples, SamplesLeavingTheBoxAreRejectedAndCounted) {
  const VelocityGrid vg = test::mc_grid({8, 8, 8}, 2.0);
  const McConfig config = test::mc_config(vg, 1 << 16, 0.01);
  auto op = make_mc_collision(config);
  op->draw(3);
  const McSampleStats s = op->last_draw();
  const double single = 1.0 - std::pow(1.0 - std::erfc(2.0), 3);
  std::printf("  box [-2,2]^3: rejected %lld of %lld = %.4f (bounds %.4f .. %.4f)\n",
              (long long)s.rejected, (long long)s.drawn, s.fraction(), single, 4 * single);
  EXPECT_GT(s.fraction(), single);
  EXPECT_LT(s.fraction(), 4 * single);
  McReferenceParams p;
  p.kappa = op->kappa();
  p.dt = config.dt;
  p.samples = config.options.samples;
  p.seed = config.options.seed;
  p.step = 3;
  const McReferenceStep ref = reference_mc_collision(vg, p, std::vector<double>(vg.size(), 0.0));
  EXPECT_EQ(ref.rejected, s.rejected);
  int flagged = 0;
  for (const auto& sample : op->samples()) {
    flagged += sample.cell[0] < 0;
    if (sample.cell[0] < 0) {
      EXPECT_EQ(sample.coef, (std::array<double, 4>{0, 0, 0, 0}));
    }
  }
  EXPECT_EQ(flagged, s.rejected);
}

struct KernelCase {
  const char* name;
  double omega, eps;
  std::array<int, 3> nodes;
  double ratio;
  double temperature = 1.0;  // of the sampling Maxwellian
  std::array<double, 3> centre = {0.0, 0.0, 0.0};  // of the velocity box
};

// Same samples, same rows: the kernel's h' equals the reference's to round-off. Relative to the
// largest |h'| and, separately, in particle numbers w Phi0 h (tails, where w Phi0 ~ 1e-9 and h is
// large, would otherwise set the scale). Both add the increments of a velocity in the same order
// (by sample, then slot), so the differences come from the increments only: a few ulp.
TEST(McCollision, KernelMatchesReference) {
  const KernelCase cases[] = {
      {"hard spheres, stretched 10x9x8", 0.5, 0.7, {10, 9, 8}, 0.9},
      {"VHS omega 0.74, uniform 9^3", 0.74, 1.0, {9, 9, 9}, 1.0},
      {"Maxwell omega 1, stretched 8x10x9", 1.0, 0.05, {8, 10, 9}, 0.85},
      {"hard spheres, sampled at T = 1.3", 0.5, 0.7, {10, 9, 8}, 0.9, 1.3},
      {"hard spheres, box off centre", 0.5, 0.7, {10, 9, 8}, 0.9, 1.0, {0.0, 0.1, 0.25}},
  };
  for (const KernelCase& k : cases)
    for (bool expected : {true, false}) {
      const VelocityGrid vg = test::mc_grid(k.nodes, 3.0, k.ratio, k.centre);
      McConfig config = test::mc_config(vg, 4000, 0.03, 2.5, k.omega, k.eps);
      config.options.correction = McCorrection::none;
      config.options.expected_self_loss = expected;
      config.options.sampling_temperature = k.temperature;
      auto op = make_mc_collision(config);
      op->draw(11);
      const std::vector<double> h = test::deviation_rows(vg, 4, k.eps, 0.2);
      const std::vector<double> fast = op->collide(h);
      McReferenceParams p;
      p.kappa = collision_prefactor(config.delta, k.omega);
      p.omega = k.omega;
      p.epsilon = k.eps;
      p.dt = config.dt;
      p.samples = config.options.samples;
      p.seed = config.options.seed;
      p.step = 11;
      p.expected_self_loss = expected;
      p.temperature = k.temperature;
      const McReferenceStep ref = reference_mc_collision(vg, p, h);
      EXPECT_EQ(ref.rejected, op->last_draw().rejected) << k.name;
      const double d_h = test::relative_difference(ref.h, fast);
      const double d_n = test::number_difference(vg, ref.h, fast);
      const double change = test::number_difference(vg, ref.h, h);  // the step did something
      std::printf(
          "  %-36s %s self-loss, kernel vs reference: h %.2e, numbers %.2e (step changed "
          "numbers by %.2e)\n",
          k.name, expected ? "expected" : "sampled ", d_h, d_n, change);
      EXPECT_LE(d_h, 1e-12) << k.name;
      EXPECT_LE(d_n, 1e-12) << k.name;
      EXPECT_GT(change, 1e-4) << k.name;
    }
}

// The expected self-loss L_v is the mean of the sampled one: over many draws, the loss increments
// that land on a velocity (slots v and v1) add up to L_v per draw. Checked per velocity where
// enough samples land (within 5 standard errors) and summed over the box in particle numbers
// (within 5e-4: L_v takes the box's rejection from an acceptance estimated at the cell centre,
// with 256 frozen samples). Also the closed form of m(c) for hard spheres against its quadrature.
// Drawing v, v1 from a wider Maxwellian (temperature 1.3, hard spheres) with importance weights
// keeps the mean: the same check passes.
TEST(McCollision, ExpectedSelfLossIsTheMeanOfTheSampledOne) {
  for (double c : {0.0, 0.3, 1.0, 2.5, 5.0})
    EXPECT_NEAR(mean_relative_speed_power(c, 1.0), mean_relative_speed_power(c, 1.0 - 1e-12), 1e-8)
        << "m(" << c << ")";
  EXPECT_NEAR(mean_relative_speed_power(0.0, 1.0), 2.0 / std::sqrt(3.14159265358979323846), 1e-12);
  const std::pair<double, double> cases[] = {{0.5, 1.0}, {0.74, 1.0}, {1.0, 1.0}, {0.5, 1.3}};
  for (const auto& [omega, temperature] : cases) {
    const VelocityGrid vg = test::mc_grid({10, 10, 10}, 3.0, 0.92);
    const int nv = vg.size(), draws = 400;
    McConfig config = test::mc_config(vg, 8192, 0.02, 1.0, omega, 0.1);
    config.options.sampling_temperature = temperature;
    auto op = make_mc_collision(config);
    const McTables tables = make_mc_tables(vg);
    const std::vector<double> expected =
        mc_expected_self_loss(tables, op->kappa(), config.dt, omega);
    std::vector<double> sum(nv, 0.0), sum2(nv, 0.0);
    for (int d = 0; d < draws; ++d) {
      op->draw(std::uint32_t(d));
      std::vector<double> rate(nv, 0.0);
      for (const McSampleHost& s : op->samples())
        if (s.cell[0] >= 0) {
          rate[s.cell[0]] += s.coef[0];
          rate[s.cell[1]] += s.coef[1];
        }
      for (int v = 0; v < nv; ++v) {
        sum[v] += rate[v];
        sum2[v] += rate[v] * rate[v];
      }
    }
    int checked = 0, outside = 0;
    double total_sampled = 0.0, total_expected = 0.0;
    for (int v = 0; v < nv; ++v) {
      const double mean = sum[v] / draws;
      const double error = std::sqrt(std::max(0.0, sum2[v] / draws - mean * mean) / draws);
      total_sampled += tables.number_weight[v] * mean;
      total_expected += tables.number_weight[v] * expected[v];
      if (config.options.samples * draws * tables.number_weight[v] < 2000) continue;  // rarely hit
      ++checked;
      outside += std::abs(mean - expected[v]) > 5.0 * error;
    }
    const double total = total_sampled / total_expected - 1.0;
    std::printf(
        "  omega %.2f, sampled at T = %.1f: %d velocities checked, %d outside 5 standard errors; "
        "box total sampled / expected - 1 = %.2e\n",
        omega, temperature, checked, outside, total);
    EXPECT_GT(checked, 100);  // the central sixth of the grid and more
    EXPECT_EQ(outside, 0);
    EXPECT_LT(std::abs(total), 5e-4);
  }
}

// The float kernel follows the double one to single-precision round-off (1e-5 relative in
// particle numbers: increments and rows rounded to 24 bits, sums of a few thousand terms).
TEST(McCollision, SinglePrecisionFollowsDouble) {
  const VelocityGrid vg = test::mc_grid({10, 10, 10}, 3.0, 0.93);
  McConfig config = test::mc_config(vg, 4000, 0.02, 1.0, 0.5, 0.3);
  const std::vector<double> h = test::deviation_rows(vg, 3, 0.3);
  auto dbl = make_mc_collision(config);
  config.precision = Precision::single;
  auto flt = make_mc_collision(config);
  dbl->draw(2);
  flt->draw(2);
  const double d = test::number_difference(vg, dbl->collide(h), flt->collide(h));
  std::printf("  float vs double (batched correction): numbers %.2e\n", d);
  EXPECT_LE(d, 1e-5);
}

// The gather plan cut into many strips (one per GPU thread there) gives the step of one strip
// (the CPU's): the same increments, summed in pieces where the strips cut the lists. Strip
// counts that leave lists ending on strip boundaries, strips padded to whole batches (12 000
// entries in 1000 strips of 16), and more strips than entries; both corrections and none.
TEST(McCollision, GatherPlanStripsGiveTheSameStep) {
  const VelocityGrid vg = test::mc_grid({10, 9, 8}, 3.0, 0.93);
  const std::vector<double> h = test::deviation_rows(vg, 3, 0.3);
  for (McCorrection mode : {McCorrection::none, McCorrection::batched}) {
    McConfig config = test::mc_config(vg, 3000, 0.02, 1.0, 0.5, 0.3);
    config.options.correction = mode;
    auto one = make_mc_collision(config);
    one->draw(4);
    const std::vector<double> reference = one->collide(h);
    ASSERT_GT(test::relative_difference(h, reference), 1e-4) << "the step must change h";
    for (int strips : {7, 64, 1000, 20000}) {
      config.gather_strips = strips;
      auto many = make_mc_collision(config);
      many->draw(4);
      const std::vector<double> result = many->collide(h);
      const double d = test::relative_difference(reference, result);
      std::printf("  %s correction, %5d strips against 1: h %.2e\n",
                  mode == McCorrection::none ? "no" : "batched", strips, d);
      EXPECT_LE(d, 1e-13);
      for (std::size_t c = 0; c < one->records().size(); ++c)
        EXPECT_NEAR(many->records()[c], one->records()[c], 1e-12) << "record " << c;
    }
  }
}

// The team layout on a GPU with 227 KiB of shared memory per block and 228 KiB per
// multiprocessor (H100/H200), for the paper's delta = 10 case (18^3 velocities): float fits two
// teams of 2 cells (rows and piece sums of the gather plan) per multiprocessor, with 512 threads
// each; double one team of 2 cells, with 1024; rows outside the scratch only with one cell; a
// forced layout that does not fit, or more cells than a team takes, is an error naming the option;
// the CPU (no shared memory) takes one cell and its output row, and g of every sample.
TEST(McCollision, TeamLayoutFitsTheSharedMemory) {
  const TeamSharedMemory h200{232448, 233472 / 2 - 1024};
  const int nv = 5832;
  const int strips = mc_gather_strips(true);
  const McTeamLayout f = mc_team_layout(h200, nv, 0, sizeof(float), 0, -1, strips, 0);
  EXPECT_EQ(f.cells_per_team, 2);
  EXPECT_TRUE(f.rows_in_scratch);
  EXPECT_EQ(f.team_threads, kMcPairedTeamThreads);
  EXPECT_LE(f.scratch_bytes, h200.paired);
  const McTeamLayout d = mc_team_layout(h200, nv, 0, sizeof(double), 0, -1, strips, 0);
  EXPECT_EQ(d.cells_per_team, 2);
  EXPECT_TRUE(d.rows_in_scratch);
  EXPECT_EQ(d.team_threads, kMcTeamThreads);
  EXPECT_GT(d.scratch_bytes, h200.paired);
  EXPECT_EQ(mc_team_layout(h200, nv, 0, sizeof(double), 0, -1, strips, 256).team_threads, 256);
  const McTeamLayout outside = mc_team_layout(h200, nv, 0, sizeof(double), 0, 0, strips, 0);
  EXPECT_EQ(outside.cells_per_team, 1);
  EXPECT_FALSE(outside.rows_in_scratch);
  EXPECT_LT(outside.scratch_bytes, d.scratch_bytes);
  const auto expect_error = [&](int velocities, std::size_t real, int cells,
                                const std::string& advice) {
    try {
      mc_team_layout(h200, velocities, 0, real, cells, -1, strips, 0);
      ADD_FAILURE() << cells << " cells of " << real << " bytes should not fit";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(advice), std::string::npos) << e.what();
    }
  };
  expect_error(8000, sizeof(double), 2, "-mc_cells_per_team 1");  // paper's 20^3, delta <= 1
  expect_error(nv, sizeof(float), 4, "-mc_cells_per_team 4: must be");
  const int samples = 8192;  // the CPU's entries name samples: g of each in the scratch
  const McTeamLayout cpu =
      mc_team_layout(TeamSharedMemory{}, nv, samples, sizeof(double), 0, -1, 1, 0);
  EXPECT_EQ(cpu.cells_per_team, 1);
  EXPECT_FALSE(cpu.rows_in_scratch);
  EXPECT_GE(cpu.scratch_bytes, samples * sizeof(double));
}

// A wide box has far-corner cells with w Phi0 ~ 1e-52: their increments overflow float. The
// operator refuses such a set-up in float (with a message) and accepts it in double.
TEST(McCollision, RefusesIncrementsThatOverflowTheFloatRange) {
  // Box +-7: Phi0 ~ e^-147 in the corners, increments ~1e63 / dt. A tiny time step keeps the
  // step itself stable (the next test), so only the float range can refuse it.
  const VelocityGrid vg = test::mc_grid({10, 10, 10}, 7.0);
  McConfig config = test::mc_config(vg, 1000, 1e-12);
  EXPECT_NO_THROW(make_mc_collision(config));
  config.precision = Precision::single;
  EXPECT_THROW(make_mc_collision(config), Error);
}

// A time step that would remove more than all of h in a velocity cell per step (here the coarse
// far corners of a +-7 box, where the cell holds e^8 per axis more equilibrium particles than its
// node value says) is refused with a message naming the time-step options.
TEST(McCollision, RefusesATimeStepThatOvershootsTheSelfLoss) {
  const VelocityGrid vg = test::mc_grid({10, 10, 10}, 7.0);
  for (bool expected : {true, false}) {
    McConfig config = test::mc_config(vg, 1000, 0.01);
    config.options.expected_self_loss = expected;
    try {
      make_mc_collision(config);
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("-ts_dt"), std::string::npos) << e.what();
    }
  }
}

struct Drift {
  double worst[5] = {0, 0, 0, 0, 0};  // |M(h_new) - M(h~)| per invariant, worst cell
  double bound[5] = {0, 0, 0, 0, 0};  // round-off scale, same cell
};

// Moments of h_new against h~, cell by cell, with a round-off bound per cell and invariant:
// 16 eps sum_v w Phi0 |psi| (|h~| + |h_new|) (the terms of both sums; sequential double sums of
// a few hundred terms and the 5 x 5 solve stay far inside it).
Drift conservation_drift(const VelocityGrid& vg, const std::vector<double>& before,
                         const std::vector<double>& after) {
  Drift d;
  const int nv = vg.size();
  const McTables t = make_mc_tables(vg);
  for (std::size_t c = 0; c * nv < before.size(); ++c) {
    double m0[5], m1[5], scale[5] = {0, 0, 0, 0, 0};
    reference_conserved_moments(vg, before.data() + c * nv, m0);
    reference_conserved_moments(vg, after.data() + c * nv, m1);
    for (int v = 0; v < nv; ++v) {
      const double psi[5] = {
          1.0, vg.xi[0][v], vg.xi[1][v], vg.xi[2][v],
          vg.xi[0][v] * vg.xi[0][v] + vg.xi[1][v] * vg.xi[1][v] + vg.xi[2][v] * vg.xi[2][v]};
      for (int k = 0; k < 5; ++k)
        scale[k] += t.number_weight[v] * std::abs(psi[k]) *
                    (std::abs(before[c * nv + v]) + std::abs(after[c * nv + v]));
    }
    for (int k = 0; k < 5; ++k)
      if (std::abs(m1[k] - m0[k]) >= d.worst[k]) {
        d.worst[k] = std::abs(m1[k] - m0[k]);
        d.bound[k] = 16 * kEps * scale[k];
      }
  }
  return d;
}

// With the correction every cell keeps its moments to round-off, with either self-loss. Without
// it: the sampled self-loss (paper 000) still conserves mass sample by sample, momentum and energy
// drift; the expected self-loss drifts in mass too (its mean is right, not each step's sum).
TEST(McCollision, CorrectionConservesEveryCellAndWithoutItMomentumAndEnergyDrift) {
  const char* names[5] = {"mass", "x-momentum", "y-momentum", "z-momentum", "energy"};
  struct Variant {
    McCorrection mode;
    bool expected_self_loss;
    const char* name;
  };
  const Variant variants[] = {{McCorrection::batched, true, "corrected"},
                              {McCorrection::batched, false, "corrected, sampled"},
                              {McCorrection::none, false, "none, sampled"},
                              {McCorrection::none, true, "none, expected"}};
  // Uniform, stretched, and stretched off centre (no mirror pairs).
  const std::array<double, 3> centres[3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.1, 0.0, 0.2}};
  for (int g = 0; g < 3; ++g) {
    const double ratio = g == 0 ? 1.0 : 0.9;
    const VelocityGrid vg = test::mc_grid({12, 12, 12}, 3.0, ratio, centres[g]);
    const double eps = 0.1;
    const std::vector<double> h = test::deviation_rows(vg, 6, eps, 0.05);
    for (const Variant& variant : variants) {
      McConfig config = test::mc_config(vg, 8192, 0.05, 1.0, 0.5, eps);
      config.options.correction = variant.mode;
      config.options.expected_self_loss = variant.expected_self_loss;
      auto op = make_mc_collision(config);
      op->draw(1);
      const std::vector<double> out = op->collide(h);
      const Drift d = conservation_drift(vg, h, out);
      const McCorrectionSummary s = summarize_records(op->records(), eps);
      const char* grids[3] = {"uniform   ", "stretched ", "off centre"};
      std::printf("  %s grid, %-18s:", grids[g], variant.name);
      for (int k = 0; k < 5; ++k) std::printf(" %s %.1e (%.0e)", names[k], d.worst[k], d.bound[k]);
      std::printf("  |y| %.2e |(A,B,C)| %.2e\n", s.max_y, s.max_abc);
      if (variant.mode == McCorrection::batched) {
        for (int k = 0; k < 5; ++k) EXPECT_LE(d.worst[k], d.bound[k]) << names[k];
        EXPECT_GT(s.max_y, 0.0);
        continue;
      }
      if (variant.expected_self_loss)
        EXPECT_GT(d.worst[0], 1e3 * d.bound[0]) << "mass, expected self-loss";
      else  // each sample moves equal numbers of particles; only round-off is left
        EXPECT_LE(d.worst[0], d.bound[0]) << "mass, sampled self-loss";
      // Momentum and energy: velocity nodes are not the sampled velocities.
      for (int k : {1, 2, 3, 4}) EXPECT_GT(d.worst[k], 1e3 * d.bound[k]) << names[k];
      // The drift the records report is the one measured here.
      EXPECT_NEAR(s.max_drift[2], d.worst[4], 1e-6 * d.worst[4] + d.bound[4]);
    }
  }
}

}  // namespace
}  // namespace bolt
