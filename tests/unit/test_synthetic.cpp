// The iterative solver's synthetic correction (lib/solver/iterative/synthetic_correction.hpp): it
// must leave a converged state where it is (a sweep that changed nothing is corrected by
// nothing), and its step must solve the linearised macroscopic equations it is built from, on a
// plane whose odd cell count leaves LU, on a box whose odd cell counts leave GMRES with ILU(0),
// and on a plane and a box that multigrid coarsens. Its Jacobian, formed from differences of the
// face fluxes, must be the operator's derivative, and the multigrid's coarse operators the
// Galerkin products P^T A P.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/macroscopic.hpp"
#include "solver/iterative/synthetic_correction.hpp"
#include "solver/iterative/synthetic_multigrid.hpp"
#include "solver/iterative/synthetic_operator.hpp"

// PETSc is initialised for the whole binary by the environment test_mc_petsc.cpp registers.

namespace bolt {
namespace {

constexpr int kConserved = kSyntheticConserved;
constexpr int kBlock = kConserved * kConserved;

struct Box {
  std::array<int, 3> cells;
  const char* name;
  double left;  // the part of the linear system's right side its solve may leave (see the step)
};
constexpr Box kBoxes[] = {{{5, 4, 1}, "2-D, LU", 1e-5},
                          {{8, 8, 1}, "2-D, FGMRES around the V-cycle", 1e-2},
                          {{5, 4, 3}, "3-D, ILU(0)", 0.3},
                          {{8, 8, 8}, "3-D, multigrid", 0.3}};

// A box with every kind of face the correction knows, a stretched axis and one solid cell.
SyntheticConfig make_config(std::array<int, 3> cells) {
  SyntheticConfig c;
  std::array<AxisSpec, 3> axes{AxisSpec{cells[0], 0.0, 1.0, 0.8, FineAt::both},
                               AxisSpec{cells[1], 0.0, 1.2}, AxisSpec{cells[2], 0.0, 0.9}};
  c.grid = make_physical_grid(axes, 1);
  c.faces[0][0].kind = FaceKind::inflow;
  c.faces[0][0].velocity[0] = 0.3;
  c.faces[0][0].density = 1.1;
  c.faces[0][1].kind = FaceKind::outflow;
  c.faces[1][0].kind = FaceKind::specular;
  c.faces[1][1].velocity[0] = 0.2;  // a moving wall
  c.faces[1][1].temperature = 1.1;
  c.faces[2][0].temperature = 0.9;
  c.solid.assign(std::size_t(c.grid.interior_cells()), 0);
  c.solid[2 + cells[0] * 2] = 1;
  c.solid_temperature = 1.2;
  c.gas.delta = 3.0;
  c.gas.omega = 0.81;
  c.gas.prandtl = 2.0 / 3.0;
  c.gas.frequency = [](double n, double T) { return 3.0 * n * std::pow(T, 1.0 - 0.81); };
  return c;
}

// Raw moments of a smooth non-equilibrium state: density, velocity and temperature varying over
// the cells, a deviatoric pressure tensor and a heat flux.
std::vector<double> smooth_moments(const SyntheticConfig& c, double amplitude) {
  const std::int64_t cells = c.grid.interior_cells();
  std::vector<double> raw(std::size_t(cells) * kRawMoments, 0.0);
  for (std::int64_t i = 0; i < cells; ++i) {
    if (c.solid[i]) continue;
    const double x = 0.37 * double(i);
    const double n = 1.0 + amplitude * std::sin(x), T = 1.0 + amplitude * std::cos(1.3 * x);
    const double u[3] = {0.2 + amplitude * std::sin(0.7 * x), amplitude * std::cos(x), 0.05};
    const double P[6] = {
        0.5 * n * T + 0.01, 0.5 * n * T - 0.004, 0.5 * n * T - 0.006, 0.003, -0.002, 0.001};
    const double q[3] = {0.02, -0.01, 0.005};
    double* m = raw.data() + i * kRawMoments;
    const int pairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    m[kM0] = n;
    for (int a = 0; a < 3; ++a) m[kM1 + a] = n * u[a];
    for (int k = 0; k < 6; ++k) m[kM2 + k] = P[k] + n * u[pairs[k][0]] * u[pairs[k][1]];
    const double u2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    for (int a = 0; a < 3; ++a) {
      double Pu = 0.0;
      for (int b = 0; b < 3; ++b) Pu += P[m2_index(a, b)] * u[b];
      m[kM3 + a] = n * u[a] * u2 + u[a] * (P[0] + P[1] + P[2]) + 2.0 * Pu + q[a];
    }
  }
  return raw;
}

std::vector<double> conserved(const std::vector<double>& raw) {
  std::vector<double> U(raw.size() / kRawMoments * kConserved);
  for (std::size_t c = 0; c < raw.size() / kRawMoments; ++c) {
    const double* m = raw.data() + c * kRawMoments;
    U[c * kConserved] = m[kM0];
    for (int a = 0; a < 3; ++a) U[c * kConserved + 1 + a] = m[kM1 + a];
    U[c * kConserved + 4] = 0.5 * (m[kM2] + m[kM2 + 1] + m[kM2 + 2]);
  }
  return U;
}

TEST(Synthetic, LeavesAConvergedStateWhereItIs) {
  for (const Box& box : kBoxes) {
    const SyntheticConfig config = make_config(box.cells);
    SyntheticCorrection correction(config);
    const std::vector<double> state = smooth_moments(config, 0.1);
    std::vector<double> swept = state;
    correction.correct(state, swept);
    // Also the moments the correction rebuilds (pressure tensor, heat flux's raw moment).
    for (std::size_t k = 0; k < state.size(); ++k)
      EXPECT_NEAR(swept[k], state[k], 1e-12 * (1.0 + std::abs(state[k])))
          << box.name << " moment " << k % kRawMoments << " of cell "
          << k / kRawMoments;
  }
}

TEST(Synthetic, CorrectsNoCellWithoutAPhysicalState) {
  // An accelerator's iterate can lead the sweep to a cell of negative temperature, or start it
  // from one. A cell the sweep left without a physical state goes back to its state before the
  // sweep; one that came to it without one keeps what the sweep gave it, physical or not. The
  // others are corrected, and every moment stays finite.
  const auto chill = [](std::vector<double>& raw, std::int64_t cell) {
    for (int k = 0; k < 3; ++k) raw[cell * kRawMoments + kM2 + k] = -0.1;
  };
  for (const Box& box : kBoxes) {
    const SyntheticConfig config = make_config(box.cells);
    SyntheticCorrection correction(config);
    std::vector<double> previous = smooth_moments(config, 0.1);
    std::vector<double> swept = smooth_moments(config, 0.12);
    // Fluid cells (make_config's solid is cell 2 + 2 N_x): made cold by the sweep, cold before
    // it, cold before and after.
    const std::int64_t by_sweep = 0, before_sweep = 1, both = 3;
    chill(swept, by_sweep);
    chill(previous, before_sweep);
    chill(previous, both);
    chill(swept, both);
    const std::vector<double> given = swept;
    correction.correct(previous, swept);
    for (int k = 0; k < kRawMoments; ++k) {
      EXPECT_EQ(swept[by_sweep * kRawMoments + k], previous[by_sweep * kRawMoments + k])
          << box.name;
      EXPECT_EQ(swept[before_sweep * kRawMoments + k], given[before_sweep * kRawMoments + k])
          << box.name;
      EXPECT_EQ(swept[both * kRawMoments + k], given[both * kRawMoments + k]) << box.name;
    }
    double moved = 0.0;
    for (std::size_t i = 0; i < swept.size(); ++i) {
      ASSERT_TRUE(std::isfinite(swept[i])) << box.name << " moment " << i;
      moved = std::max(moved, std::abs(swept[i] - given[i]));
    }
    EXPECT_GT(moved, 1e-4) << box.name << ": the other cells are corrected";
  }
}

TEST(Synthetic, StepSolvesTheLinearisedMacroscopicEquations) {
  // div Phi(U_new) - div Phi(U_half) = nu_k (U_half - U_k), for a sweep that moved the state by
  // 1e-6: with LU to the finite-difference Jacobian's and the linearisation's errors (measured
  // 2e-6 of the right side); otherwise to what the inexact solve leaves: on a plane FGMRES to a
  // relative 1e-3 of the true residual around the V-cycle (measured 1.8e-3), on boxes GMRES to a
  // relative 1e-1 of its preconditioned residual with ILU(0) (0.12) and one V-cycle of multigrid
  // with its coloured Gauss-Seidel (0.23; 0.15 with ILU(0) smoothing). A step of the wrong
  // equations, or of the wrong sign, leaves 1 or more.
  for (const Box& box : kBoxes) {
    const SyntheticConfig config = make_config(box.cells);
    SyntheticCorrection correction(config);
    const std::vector<double> previous = smooth_moments(config, 0.1);
    std::vector<double> half = smooth_moments(config, 0.100001);
    const std::vector<double> U_half = conserved(half);
    correction.correct(previous, half);
    const std::vector<double> U_new = conserved(half), U_k = conserved(previous);
    std::vector<double> op_new(U_new.size()), op_half(U_new.size());
    correction.macroscopic_operator(U_new.data(), op_new.data());
    correction.macroscopic_operator(U_half.data(), op_half.data());
    double misfit = 0.0, size = 0.0;
    for (std::size_t c = 0; c < config.solid.size(); ++c) {
      if (config.solid[c]) continue;
      Sums<kRawMoments> s;
      std::copy_n(previous.data() + c * kRawMoments, kRawMoments, s.value);
      const Macroscopic m = macroscopic_from_raw<1>(s);
      const double nu = config.gas.frequency(m.n, m.T);
      for (int k = 0; k < kConserved; ++k) {
        const std::size_t i = c * kConserved + k;
        const double target = nu * (U_half[i] - U_k[i]);
        misfit = std::max(misfit, std::abs(op_new[i] - op_half[i] - target));
        size = std::max(size, std::abs(target));
      }
    }
    EXPECT_GT(size, 0.0);
    EXPECT_LT(misfit, box.left * size) << box.name;
  }
}

TEST(Synthetic, RefreshedJacobianReplacesTheFactors) {
  // After kJacobianLag corrections the Jacobian is formed anew, at the state then swept: the
  // correction must be the one a new correction makes from that state (the same Jacobian,
  // factorisations and coarse levels), not one of the factors kept from the first Jacobian.
  for (const Box& box : kBoxes) {
    const SyntheticConfig config = make_config(box.cells);
    SyntheticCorrection lagged(config), fresh(config);
    const std::vector<double> start = smooth_moments(config, 0.1);
    for (int i = 0; i < SyntheticCorrection::kJacobianLag; ++i) {
      std::vector<double> swept = smooth_moments(config, 0.100001);
      lagged.correct(start, swept);
    }
    const std::vector<double> later = smooth_moments(config, 0.3);
    std::vector<double> refreshed = smooth_moments(config, 0.30001), reference = refreshed;
    lagged.correct(later, refreshed);
    fresh.correct(later, reference);
    double misfit = 0.0, change = 0.0;
    const std::vector<double> half = smooth_moments(config, 0.30001);
    for (std::size_t k = 0; k < half.size(); ++k) {
      misfit = std::max(misfit, std::abs(refreshed[k] - reference[k]));
      change = std::max(change, std::abs(reference[k] - half[k]));
    }
    EXPECT_GT(change, 0.0) << box.name;
    EXPECT_LE(misfit, 1e-12 * change) << box.name;
  }
}

// J v from the Jacobian's blocks (each 5 x 5 column by column, in the pattern's order).
std::vector<double> block_product(const BlockPattern& pattern, const std::vector<double>& blocks,
                                  const std::vector<double>& v) {
  std::vector<double> out(v.size(), 0.0);
  for (std::size_t c = 0; c + 1 < pattern.row_start.size(); ++c)
    for (std::int64_t e = pattern.row_start[c]; e < pattern.row_start[c + 1]; ++e)
      for (int j = 0; j < kConserved; ++j)
        for (int i = 0; i < kConserved; ++i)
          out[c * kConserved + i] += blocks[e * kBlock + j * kConserved + i] *
                                     v[pattern.columns[e] * kConserved + j];
  return out;
}

TEST(Synthetic, JacobianIsTheOperatorsDerivative) {
  // Against a central difference of the whole operator along a smooth direction, whose error
  // (its rounding, eps / 1e-6 = 2e-10 of the size, and the step's 1e-12) is far below the
  // one-sided face differences' own: the square root of the rounding error, 1.5e-8, times the
  // fluxes' curvature (measured 1.5e-8 of the size). A block in the wrong
  // place, transposed or of the wrong sign misses by the size of J v itself.
  for (const Box& box : kBoxes) {
    const SyntheticConfig config = make_config(box.cells);
    SyntheticOperator op(config);
    std::fill(op.frequencies().begin(), op.frequencies().end(), 3.0);
    const std::vector<double> U = conserved(smooth_moments(config, 0.1));
    std::vector<double> v(U.size()), plus(U), minus(U), op_plus(U.size()), op_minus(U.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = std::sin(0.9 * double(i)) * (i % kConserved == 4 ? 2 : 1);
    const double step = 1e-6;
    for (std::size_t i = 0; i < v.size(); ++i) {
      plus[i] += step * v[i];
      minus[i] -= step * v[i];
    }
    op.apply(plus.data(), op_plus.data());
    op.apply(minus.data(), op_minus.data());
    std::vector<double> blocks(op.pattern().columns.size() * kBlock);
    op.jacobian(U.data(), blocks.data());
    const std::vector<double> Jv = block_product(op.pattern(), blocks, v);
    double misfit = 0.0, size = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      misfit = std::max(misfit, std::abs(Jv[i] - (op_plus[i] - op_minus[i]) / (2.0 * step)));
      size = std::max(size, std::abs(Jv[i]));
    }
    EXPECT_GT(size, 1.0) << box.name;
    EXPECT_LT(misfit, 1e-6 * size) << box.name;
  }
}

TEST(Synthetic, CoarseOperatorsAreGalerkinProducts) {
  // The blocks summed here against PETSc's P^T A P of the same matrices as scalar ones, level by
  // level of 16^3 cells (8^3, 4^3) and of planes across each axis (512 x 128 to 256 x 64 and
  // 128 x 32; 64 x 32 to 32 x 16 with the single cell along x and along y), to the rounding of
  // sums of four to 56 blocks (measured 1.4e-16 of the largest entry; 56 eps = 1.2e-14 bounds
  // it).
  const struct {
    std::array<int, 3> cells;
    int levels;
  } grids[] = {{{16, 16, 16}, 3}, {{512, 128, 1}, 3}, {{1, 64, 32}, 2}, {{64, 1, 32}, 2}};
  for (const auto& [cells, expected_levels] : grids) {
    const SyntheticConfig config = make_config(cells);
    SyntheticOperator op(config);
    std::fill(op.frequencies().begin(), op.frequencies().end(), 3.0);
    const std::vector<double> U = conserved(smooth_moments(config, 0.1));
    const int levels = synthetic_multigrid_levels(cells.data());
    ASSERT_EQ(levels, expected_levels);
    Mat fine = create_block_matrix(op.pattern(), op.cells());
    PetscScalar* blocks = nullptr;
    ASSERT_EQ(MatSeqBAIJGetArray(fine, &blocks), 0);
    op.jacobian(U.data(), blocks);
    SyntheticMultigrid multigrid(cells.data(), op.pattern(), levels);
    multigrid.galerkin(blocks);
    ASSERT_EQ(MatSeqBAIJRestoreArray(fine, &blocks), 0);
    Mat finer = nullptr;
    ASSERT_EQ(MatConvert(fine, MATSEQAIJ, MAT_INITIAL_MATRIX, &finer), 0);
    for (int level = levels - 2; level >= 0; --level) {
      Mat P = nullptr, coarse = nullptr, product = nullptr;
      ASSERT_EQ(MatConvert(multigrid.level_interpolation(level), MATSEQAIJ, MAT_INITIAL_MATRIX,
                           &P),
                0);
      ASSERT_EQ(
          MatConvert(multigrid.level_operator(level), MATSEQAIJ, MAT_INITIAL_MATRIX, &coarse), 0);
      PetscInt rows = 0, columns = 0;
      ASSERT_EQ(MatGetSize(P, &rows, &columns), 0);
      const int merged = std::count(cells.begin(), cells.end(), 1) == 0 ? 8 : 4;  // per coarse cell
      const std::string where = std::to_string(cells[0]) + " x " + std::to_string(cells[1]) +
                                " x " + std::to_string(cells[2]) + ", level " +
                                std::to_string(level);
      EXPECT_EQ(rows, merged * columns) << where;
      ASSERT_EQ(MatPtAP(finer, P, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &product), 0);
      PetscReal size = 0.0, misfit = 0.0;
      ASSERT_EQ(MatNorm(product, NORM_MAX, &size), 0);
      ASSERT_EQ(MatAXPY(product, -1.0, coarse, DIFFERENT_NONZERO_PATTERN), 0);
      ASSERT_EQ(MatNorm(product, NORM_MAX, &misfit), 0);
      EXPECT_GT(size, 1.0) << where;
      EXPECT_LE(misfit, 56 * std::numeric_limits<double>::epsilon() * size) << where;
      for (Mat* m : {&finer, &P, &product}) MatDestroy(m);
      finer = coarse;
    }
    MatDestroy(&finer);
    MatDestroy(&fine);
  }
}

TEST(Synthetic, MultigridLevelsOfBoxesPlanesAndLines) {
  // Every axis of more than one cell halved while all stay even with at least 4 cells; a plane
  // once, then until its coarsest level has at most 4096 cells; a line is factored.
  const struct {
    std::array<int, 3> cells;
    int levels;
  } grids[] = {{{64, 64, 64}, 5}, {{48, 32, 32}, 4}, {{33, 32, 32}, 1}, {{128, 128, 1}, 2},
               {{512, 256, 1}, 4}, {{64, 64, 1}, 2},   {{150, 150, 1}, 2}, {{8, 1, 8}, 2},
               {{6, 8, 1}, 1},     {{128, 1, 1}, 1}};
  for (const auto& grid : grids)
    EXPECT_EQ(synthetic_multigrid_levels(grid.cells.data()), grid.levels)
        << grid.cells[0] << " x " << grid.cells[1] << " x " << grid.cells[2];
}

}  // namespace
}  // namespace bolt
